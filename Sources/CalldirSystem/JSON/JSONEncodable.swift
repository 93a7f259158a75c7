/// A value that encodes itself as JSON: the one way calldir's results
/// (a build's summary, a sync's outcome, a device's status, …) become the
/// documents `--json` prints.
///
/// The encoding is a ``JSONValue``, so object keys keep the order they are
/// written in and integers stay exact:
///
///     extension Prune.Report: JSONEncodable {
///       var json: JSONValue { ["pruned": prunedVersions.json, "bytes": bytes.json] }
///     }
///
/// Plain values conform too (`Int`, `Int64`, `String`, `Bool`, `Double`,
/// arrays and optionals of encodable values, `nil` as `null`), so a member
/// reads `count.json` instead of `.int(Int64(count))`.
public protocol JSONEncodable {
  /// The value as JSON.
  var json: JSONValue { get }
}

extension JSONValue: JSONEncodable {
  /// The value itself.
  public var json: JSONValue { self }
}

extension Bool: JSONEncodable {
  /// ``JSONValue/bool(_:)``.
  public var json: JSONValue { .bool(self) }
}

extension Int: JSONEncodable {
  /// ``JSONValue/int(_:)``.
  public var json: JSONValue { .int(Int64(self)) }
}

extension Int64: JSONEncodable {
  /// ``JSONValue/int(_:)``.
  public var json: JSONValue { .int(self) }
}

extension Double: JSONEncodable {
  /// ``JSONValue/double(_:)`` (non-finite values serialize as `null`).
  public var json: JSONValue { .double(self) }
}

extension String: JSONEncodable {
  /// ``JSONValue/string(_:)``.
  public var json: JSONValue { .string(self) }
}

extension Optional: JSONEncodable where Wrapped: JSONEncodable {
  /// The wrapped value's JSON, or `null`.
  public var json: JSONValue { map(\.json) ?? .null }
}

extension Array: JSONEncodable where Element: JSONEncodable {
  /// ``JSONValue/array(_:)`` of the elements' JSON, in order.
  public var json: JSONValue { .array(map(\.json)) }
}
