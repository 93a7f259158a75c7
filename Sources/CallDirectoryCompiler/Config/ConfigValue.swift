import CallDirectorySources
import CalldirSystem

/// A value of a build config at its key path (`sources[2].format`); its
/// reads throw ``ConfigError``.
typealias ConfigValue = LocatedJSON<ConfigError>

extension ConfigError {
  /// A config value that is not what was read: of another type,
  /// ``wrongType(keyPath:expected:found:)`` (`sources: expected an array,
  /// found object`); else ``invalidValue(keyPath:reason:)``.
  init(_ error: JSONDecodingError) {
    if let found = error.found {
      self = .wrongType(keyPath: error.path, expected: error.expected, found: found)
    } else {
      self = .invalidValue(keyPath: error.path, reason: "expected \(error.expected)")
    }
  }
}

extension LocatedJSON where Failure == ConfigError {
  /// This object's member `key`, which it must have
  /// (``ConfigError/missingKey(keyPath:key:note:)`` naming this object).
  func required(_ key: String) throws(ConfigError) -> LocatedJSON {
    let value = member(key)
    guard value.isPresent else { throw .missingKey(keyPath: path, key: key, note: nil) }
    return value
  }

  /// An integer from `minimum` to `maximum` (`must be between 1 and 1000,
  /// got 0`, the config's wording).
  func integer(between minimum: Int, and maximum: Int) throws(ConfigError) -> Int {
    let integer = try self.integer()
    guard integer >= minimum, integer <= maximum else {
      throw .invalidValue(keyPath: path, reason: "must be between \(minimum) and \(maximum), got \(integer)")
    }
    return integer
  }

  /// A number from 0 to 1 (the `max…Ratio` keys).
  func ratio() throws(ConfigError) -> Double {
    let number = try self.number()
    guard number >= 0, number <= 1 else {
      throw .invalidValue(keyPath: path, reason: "must be between 0 and 1, got \(number)")
    }
    return number
  }

  /// Throws ``ConfigError/unknownKey(keyPath:suggestion:)`` for the first
  /// key, in sorted order, that `known` does not list, suggesting the
  /// nearest of `suggestions`.
  func checkKnownKeys(_ known: [String], suggestingFrom suggestions: [String]) throws(ConfigError) {
    if let key = unknownKey(among: known) {
      throw .unknownKey(keyPath: path(of: key), suggestion: _suggestion(for: key, among: suggestions))
    }
  }
}
