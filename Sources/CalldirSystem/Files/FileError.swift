/// A file operation that failed: what was done, to which path, and the errno.
public struct FileError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was attempted, lowercase: `open`, `read`, `write`, `sync`,
  /// `rename`, `remove`, `create directory`, `lock`, `status`.
  public var operation: String
  /// The path the operation was on (the destination of a rename).
  public var path: String
  /// Why it failed.
  public var errno: Errno
  /// More about the failure when the errno alone does not say it (e.g.
  /// `not a regular file`); replaces the errno's text in the description.
  public var detail: String?

  public init(operation: String, path: String, errno: Errno, detail: String? = nil) {
    self.operation = operation
    self.path = path
    self.errno = errno
    self.detail = detail
  }

  /// `cannot write out/x.cdir: no space left on device`.
  public var description: String {
    "cannot \(operation) \(path): \(detail ?? errno.description)"
  }
}
