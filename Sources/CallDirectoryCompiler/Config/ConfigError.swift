import CalldirSystem

/// Why a build config was rejected; messages are lowercase and name the
/// key path (`sources[2].format: …`).
public enum ConfigError: Error, Hashable, CustomStringConvertible {
  /// The config file could not be read.
  case unreadable(FileError)
  /// The file is not valid JSON.
  case invalidJSON(detail: String)
  /// A key the schema does not know.
  case unknownKey(keyPath: String, suggestion: String?)
  /// A key that exists, but not for this source's format.
  case unsupportedKey(keyPath: String, format: String)
  /// A required key is absent; `note` says why when it depends on others.
  case missingKey(keyPath: String, key: String, note: String?)
  /// A value of the wrong JSON type.
  case wrongType(keyPath: String, expected: String, found: String)
  /// A value of the right type that is not allowed.
  case invalidValue(keyPath: String, reason: String)
  /// A source file does not exist.
  case fileNotFound(keyPath: String, path: String)
  /// A source path names something other than a file (a directory).
  case notAFile(keyPath: String, path: String, kind: String)

  /// The key path the error is about (empty for the whole file).
  public var keyPath: String {
    switch self {
    case .unreadable, .invalidJSON: return ""
    case .unknownKey(let keyPath, _), .unsupportedKey(let keyPath, _),
      .missingKey(let keyPath, _, _), .wrongType(let keyPath, _, _),
      .invalidValue(let keyPath, _), .fileNotFound(let keyPath, _), .notAFile(let keyPath, _, _):
      return keyPath
    }
  }

  /// A lowercase message.
  public var description: String {
    func at(_ keyPath: String) -> String {
      keyPath.isEmpty ? "" : "\(keyPath): "
    }
    switch self {
    case .unreadable(let error):
      let path = error.path
      let reason = error.detail ?? error.errno.description
      return "cannot read config '\(path)': \(reason)"
    case .invalidJSON(let detail):
      return "invalid json: \(detail)"
    case .unknownKey(let keyPath, let suggestion):
      let hint = suggestion.map { " (did you mean '\($0)'?)" } ?? ""
      return "\(keyPath): unknown key\(hint)"
    case .unsupportedKey(let keyPath, let format):
      return "\(keyPath): not used by format '\(format)'"
    case .missingKey(let keyPath, let key, let note):
      let why = note.map { " (\($0))" } ?? ""
      return "\(at(keyPath))missing required key '\(key)'\(why)"
    case .wrongType(let keyPath, let expected, let found):
      return "\(keyPath): expected \(expected), found \(found)"
    case .invalidValue(let keyPath, let reason):
      return "\(at(keyPath))\(reason)"
    case .fileNotFound(let keyPath, let path):
      return "\(keyPath): file not found: \(path)"
    case .notAFile(let keyPath, let path, let kind):
      return "\(keyPath): cannot read \(path): is a \(kind)"
    }
  }
}
