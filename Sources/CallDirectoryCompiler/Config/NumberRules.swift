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

  /// Reads `require`, `types` and `maxInvalidRatio` from a source object
  /// (`sources[2]`).
  static func parse(_ object: ConfigValue) throws(ConfigError) -> NumberRules {
    var rules = NumberRules()
    if let value = object.member("require").ifPresent {
      let text = try value.string()
      guard text == "valid" else {
        var reason = "unknown requirement '\(text)' (expected 'valid')"
        if _suggestion(for: text, among: ["valid"]) != nil { reason += "; did you mean 'valid'?" }
        throw .invalidValue(keyPath: value.path, reason: reason)
      }
      rules.requireValid = true
    }
    if let value = object.member("types").ifPresent {
      let elements = try value.array(expected: "an array of strings")
      guard !elements.isEmpty else {
        throw .invalidValue(keyPath: value.path, reason: "must name at least one number type")
      }
      var types = Set<PhoneNumberType>()
      let names = PhoneNumberType.allCases.map(\.rawValue)
      for element in elements {
        let name = try element.string()
        guard let type = PhoneNumberType(rawValue: name) else {
          var reason = "unknown number type '\(name)' (expected one of: \(names.joined(separator: ", ")))"
          if let hint = _suggestion(for: name, among: names) { reason += "; did you mean '\(hint)'?" }
          throw .invalidValue(keyPath: element.path, reason: reason)
        }
        types.insert(type)
      }
      rules.types = types
    }
    if let value = object.member("maxInvalidRatio").ifPresent {
      rules.maxInvalidRatio = try value.ratio()
    }
    return rules
  }
}
