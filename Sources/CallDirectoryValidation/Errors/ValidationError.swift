#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CallDirectoryFormat

/// Why an input could not be validated at all (as opposed to the
/// ``Violation``s found in a readable input).
public enum ValidationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file cannot be opened (missing, unreadable).
  case cannotOpen(path: String, errno: Int32)
  /// Reading the file failed part way (including reading a directory).
  case readFailed(path: String, errno: Int32)
  /// The input starts with the `CDIR` magic but is not a valid blob:
  /// corrupt, truncated, a checksum or digest mismatch.
  case invalidBlob(path: String, BlobError)
  /// An error that is none of the above (a bug).
  case unexpected(String)

  /// Whether the input file was missing or unreadable (sysexits `EX_NOINPUT`).
  public var isMissingInput: Bool {
    switch self {
    case .cannotOpen: true
    case .invalidBlob(_, .io(let operation, _, _)): operation == "open"
    default: false
    }
  }

  /// A lowercase, one-line message.
  public var description: String {
    switch self {
    case .cannotOpen(let path, let code):
      return "cannot open '\(path)': \(_errnoText(code))"
    case .readFailed(let path, let code):
      return "cannot read '\(path)': \(_errnoText(code))"
    case .invalidBlob(let path, let error):
      if case .io = error { return error.description }
      return "\(path): \(error)"
    case .unexpected(let message):
      return "unexpected failure: \(message)"
    }
  }
}

/// A lowercase description of an `errno` value.
func _errnoText(_ code: Int32) -> String {
  guard let text = strerror(code) else { return "errno \(code)" }
  return "\(String(cString: text).lowercased()) (errno \(code))"
}
