import CalldirSystem

extension SourceOptions {
  /// The options as a JSON object with sorted keys (string options as
  /// strings, so string-only options serialize as they always have).
  package var json: JSONValue {
    .object(keys.compactMap { key in values[key].map { (key, $0.json) } })
  }

  /// Options read back from ``json``; nil when `json` is not an object of
  /// strings, arrays of strings and such objects.
  package init?(json: JSONValue) {
    guard case .object(let members) = json else { return nil }
    var values: [String: SourceOptionValue] = [:]
    for (key, member) in members {
      guard let value = SourceOptionValue(json: member) else { return nil }
      values[key] = value
    }
    self.init(values)
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

  /// A value read back from ``json``.
  init?(json: JSONValue) {
    switch json {
    case .string(let text): self = .string(text)
    case .array(let items):
      var list: [String] = []
      for item in items {
        guard case .string(let text) = item else { return nil }
        list.append(text)
      }
      self = .strings(list)
    case .object(let members):
      var values: [String: SourceOptionValue] = [:]
      for (key, member) in members {
        guard let value = SourceOptionValue(json: member) else { return nil }
        values[key] = value
      }
      self = .object(values)
    default:
      return nil
    }
  }
}
