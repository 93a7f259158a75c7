/// A value of a JSON document with its path in that document, read as
/// typed values: the one way calldir's decoders read back a document it
/// or its user wrote (manifest, build config, sync state, device records).
///
/// A failure is a ``JSONDecodingError`` naming the path and what was
/// expected there, handed to the decoder's `failure` function, so every
/// read throws the decoder's own error type:
///
///     let root = LocatedJSON(value, path: "manifest") { ManifestError.malformed($0.description) }
///     let object = try root.object()
///     let version = try object.member("version").integer(minimum: 1)
///     for item in try object.member("extensions").objects() {   // manifest.extensions[0], …
///       let digest = try item.member("digest").ifPresent?.sha256()
///     }
///
/// Members are joined with `.` and elements with `[index]`; a root with
/// the empty path names its members alone (`sources[0].path`) and itself
/// `(root)`. A member that is absent reads as missing: every typed read of
/// it fails with what was expected, as one of the wrong type does.
public struct LocatedJSON<Failure: Error> {
  /// The value; nil when it is a member the object does not have.
  public let value: JSONValue?
  /// The value's path in the document (empty for an unnamed root).
  public let path: String
  private let wrap: (JSONDecodingError) -> Failure

  /// A document's root (or any value) at `path`; `failure` turns a
  /// decoding error into the decoder's own.
  public init(_ value: JSONValue, path: String, failure: @escaping (JSONDecodingError) -> Failure) {
    self.init(value: value, path: path, failure: failure)
  }

  private init(value: JSONValue?, path: String, failure: @escaping (JSONDecodingError) -> Failure) {
    self.value = value
    self.path = path
    self.wrap = failure
  }

  // MARK: - Members and elements

  /// The member `key` of this object (absent when there is none, or this
  /// is not an object), at `path.key`.
  public func member(_ key: String) -> LocatedJSON {
    LocatedJSON(value: value?[key], path: path(of: key), failure: wrap)
  }

  /// The path of this object's member `key`: `path.key`, or `key` at an
  /// unnamed root.
  public func path(of key: String) -> String {
    path.isEmpty ? key : "\(path).\(key)"
  }

  /// Whether the value is there (a member the object has, `null` included).
  public var isPresent: Bool { value != nil }

  /// The value, or nil when it is an absent member (an optional member
  /// whose `null` is an error).
  public var ifPresent: LocatedJSON? { value == nil ? nil : self }

  /// The value, or nil when it is an absent member or `null` (an optional
  /// member written as `null` when unset).
  public var ifNotNull: LocatedJSON? { value == nil || value?.isNull == true ? nil : self }

  // MARK: - Typed reads

  /// This value as an object (`expected an object`).
  public func object() throws(Failure) -> LocatedJSON {
    guard case .object? = value else { throw mismatch("an object") }
    return self
  }

  /// The members of this object in document order, each at its path.
  public func members() throws(Failure) -> [(key: String, value: LocatedJSON)] {
    guard case .object(let members)? = value else { throw mismatch("an object") }
    return members.map { (key: $0.key, value: LocatedJSON(value: $0.value, path: path(of: $0.key), failure: wrap)) }
  }

  /// The first of this object's keys, in sorted order, that `known` does
  /// not list; nil when it has none.
  public func unknownKey(among known: [String]) -> String? {
    guard case .object(let members)? = value else { return nil }
    return members.map(\.key).sorted().first { !known.contains($0) }
  }

  /// The elements of this array, each at `path[index]`.
  /// - Parameter expected: What a value of another type is told to be
  ///   (`an array`, `an array of strings`).
  public func array(expected: String = "an array") throws(Failure) -> [LocatedJSON] {
    guard case .array(let elements)? = value else { throw mismatch(expected) }
    return elements.enumerated().map { LocatedJSON(value: $1, path: "\(path)[\($0)]", failure: wrap) }
  }

  /// The elements of this array, each an object at `path[index]`.
  public func objects() throws(Failure) -> [LocatedJSON] {
    var objects: [LocatedJSON] = []
    for element in try array() { objects.append(try element.object()) }
    return objects
  }

  /// This array's elements, each a string (`expected an array of strings`,
  /// then `path[index]: expected a string`).
  public func strings() throws(Failure) -> [String] {
    var strings: [String] = []
    for element in try array(expected: "an array of strings") { strings.append(try element.string()) }
    return strings
  }

  /// This value as a string (`expected a string`).
  public func string() throws(Failure) -> String {
    guard case .string(let text)? = value else { throw mismatch("a string") }
    return text
  }

  /// This value as a boolean (`expected a boolean`).
  public func bool() throws(Failure) -> Bool {
    guard case .bool(let flag)? = value else { throw mismatch("a boolean") }
    return flag
  }

  /// This value as an integer of at least `minimum` (`expected an
  /// integer`, `expected at least 1, got 0`); a number with a fraction or
  /// exponent is not one.
  public func integer(minimum: Int = .min) throws(Failure) -> Int {
    guard case .int(let number)? = value, let integer = Int(exactly: number) else { throw mismatch("an integer") }
    guard integer >= minimum else { throw self.failure(expected: "at least \(minimum), got \(integer)") }
    return integer
  }

  /// This value as a number, integer or not (`expected a number`).
  public func number() throws(Failure) -> Double {
    guard let number = value?.doubleValue else { throw mismatch("a number") }
    return number
  }

  /// This value as a SHA-256 in lowercase hex: a string (`expected a
  /// string`) of 64 digits `0-9a-f` (`expected 64 lowercase hex digits`).
  public func sha256() throws(Failure) -> String {
    let digest = try string()
    guard digest.utf8.count == 64, digest.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) })
    else { throw failure(expected: "64 lowercase hex digits") }
    return digest
  }

  // MARK: - Failures

  /// The decoder's error for this value: `<path>: expected <what>`, for a
  /// check of the decoder's own (`expected 2, got 3`).
  public func failure(expected: String) -> Failure {
    wrap(JSONDecodingError(path: shownPath, expected: expected))
  }

  /// A value that is missing or of another type than `expected`.
  private func mismatch(_ expected: String) -> Failure {
    wrap(JSONDecodingError(path: shownPath, expected: expected, found: value?.typeName))
  }

  private var shownPath: String { path.isEmpty ? "(root)" : path }
}
