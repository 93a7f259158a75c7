import CalldirSystem

extension SourceOptions {
  /// The options as a JSON object with sorted keys (string options as
  /// strings, so string-only options serialize as they always have).
  package var json: JSONValue {
    .object(keys.compactMap { key in values[key].map { (key, $0.json) } })
  }

  /// Options read back from ``json``: an object of strings, arrays of
  /// strings and such objects.
  /// - Throws: `json`'s failure at the first value that is none of these
  ///   (`….where.op[1]: expected a string`).
  package init<Failure: Error>(json: LocatedJSON<Failure>) throws(Failure) {
    self.init(try SourceOptionValue.members(of: json))
  }

  /// Options read back from ``json``; nil when it is not an object of
  /// strings, arrays of strings and such objects.
  package init?(json: JSONValue) {
    guard let options = try? SourceOptions(json: LocatedJSON(json, path: "") { $0 }) else { return nil }
    self = options
  }
}

extension SourceOptionValue {
  /// The value as JSON, object keys sorted.
  var json: JSONValue {
    switch self {
    case .string(let text): .string(text)
    case .strings(let list): .array(list.map(JSONValue.string))
    case .object(let members):
      .object(members.keys.sorted().compactMap { key in members[key].map { (key, $0.json) } })
    }
  }

  /// A value read back from ``json``: a string, an array of strings or
  /// an object of such values.
  init<Failure: Error>(json: LocatedJSON<Failure>) throws(Failure) {
    switch json.value {
    case .string(let text)?: self = .string(text)
    case .array?: self = .strings(try json.strings())
    case .object?: self = .object(try Self.members(of: json))
    default: throw json.failure(expected: "a string, an array of strings or an object of them")
    }
  }

  /// The values of the object `json`, each read back.
  static func members<Failure: Error>(of json: LocatedJSON<Failure>) throws(Failure) -> [String: SourceOptionValue] {
    var values: [String: SourceOptionValue] = [:]
    for (key, member) in try json.members() { values[key] = try SourceOptionValue(json: member) }
    return values
  }
}
