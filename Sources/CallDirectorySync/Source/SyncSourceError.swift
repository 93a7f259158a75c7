/// Why a ``SyncSource`` could not deliver a file.
public enum SyncSourceError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The source has no such file (HTTP 404 or 410, or no file in the directory).
  case notFound(path: String, source: String)
  /// The file is larger than the caller accepts.
  case tooLarge(path: String, limit: Int)
  /// What the source holds under the path is not a regular file (a named
  /// pipe, a device, a directory): it would never end, or block.
  case notRegularFile(path: String, location: String, kind: String)
  /// The transfer failed: the connection, a timeout, an HTTP status, a read.
  case failed(path: String, reason: String)

  public var description: String {
    switch self {
    case .notFound(let path, let source): "\(source) has no \(path)"
    case .tooLarge(let path, let limit): "\(path) is larger than \(limit) bytes"
    case .notRegularFile(let path, let location, let kind):
      "cannot fetch \(path): \(location) is not a regular file (\(kind))"
    case .failed(let path, let reason): "cannot fetch \(path): \(reason)"
    }
  }
}
