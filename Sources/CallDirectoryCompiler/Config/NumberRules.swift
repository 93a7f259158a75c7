import CallDirectorySources
import CalldirSystem
import PhoneNumbers

/// What a source's numbers must be beyond possible, and its wrong-region
/// guard: the source keys `require`, `types` and `maxInvalidRatio`.
///
///     { "path": "tollfree.txt", "format": "lines", "list": "identify",
///       "require": "valid", "types": ["tollFree"] }
public struct NumberRules: Sendable, Hashable {
  /// `"require": "valid"`: possible numbers that are not valid
  /// (libphonenumber's `is_valid_number`) are rejected with the reason
  /// `invalid for region XX`.
  public var requireValid = false
  /// `"types"`: only numbers of these types are kept; the others are
  /// dropped and counted (`typeFiltered`). Nil keeps every type.
  public var types: Set<PhoneNumberType>?
  /// The source's wrong-region guard: the build fails when more than this
  /// fraction of the numbers written without a country code is invalid for
  /// the source's region; nil falls back to the config's `maxInvalidRatio`.
  public var maxInvalidRatio: Double?

  public init(requireValid: Bool = false, types: Set<PhoneNumberType>? = nil, maxInvalidRatio: Double? = nil) {
    self.requireValid = requireValid
    self.types = types
    self.maxInvalidRatio = maxInvalidRatio
  }

  /// Whether every number needs its validity checked.
  var checksNumbers: Bool { requireValid || types != nil }

  /// The source keys these rules read.
  static let keys = ["require", "types", "maxInvalidRatio"]

  /// Reads `require`, `types` and `maxInvalidRatio` from a source object at
  /// `keyPath` (`sources[2]`).
  static func parse(_ object: [String: JSONValue], at keyPath: String) throws(ConfigError) -> NumberRules {
    var rules = NumberRules()
    if let value = object["require"] {
      guard case .string(let text) = value else {
        throw .wrongType(keyPath: "\(keyPath).require", expected: "a string", found: value.typeName)
      }
      guard text == "valid" else {
        var reason = "unknown requirement '\(text)' (expected 'valid')"
        if _suggestion(for: text, among: ["valid"]) != nil { reason += "; did you mean 'valid'?" }
        throw .invalidValue(keyPath: "\(keyPath).require", reason: reason)
      }
      rules.requireValid = true
    }
    if let value = object["types"] {
      guard case .array(let elements) = value else {
        throw .wrongType(keyPath: "\(keyPath).types", expected: "an array of strings", found: value.typeName)
      }
      guard !elements.isEmpty else {
        throw .invalidValue(keyPath: "\(keyPath).types", reason: "must name at least one number type")
      }
      var types = Set<PhoneNumberType>()
      let names = PhoneNumberType.allCases.map(\.rawValue)
      for (index, element) in elements.enumerated() {
        let at = "\(keyPath).types[\(index)]"
        guard case .string(let name) = element else {
          throw .wrongType(keyPath: at, expected: "a string", found: element.typeName)
        }
        guard let type = PhoneNumberType(rawValue: name) else {
          var reason = "unknown number type '\(name)' (expected one of: \(names.joined(separator: ", ")))"
          if let hint = _suggestion(for: name, among: names) { reason += "; did you mean '\(hint)'?" }
          throw .invalidValue(keyPath: at, reason: reason)
        }
        types.insert(type)
      }
      rules.types = types
    }
    if let value = object["maxInvalidRatio"] {
      rules.maxInvalidRatio = try ratio(value, at: "\(keyPath).maxInvalidRatio")
    }
    return rules
  }

  /// A number from 0 to 1 (`maxInvalidRatio`).
  static func ratio(_ value: JSONValue, at keyPath: String) throws(ConfigError) -> Double {
    let number: Double
    switch value {
    case .int(let integer): number = Double(integer)
    case .double(let double): number = double
    default: throw .wrongType(keyPath: keyPath, expected: "a number", found: value.typeName)
    }
    guard number >= 0, number <= 1 else {
      throw .invalidValue(keyPath: keyPath, reason: "must be between 0 and 1, got \(number)")
    }
    return number
  }
}
