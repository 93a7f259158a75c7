#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A POSIX error number, as a typed error.
///
/// Every call of the system layer reports failure as an `Errno` (wrapped in
/// a ``FileError`` where a path is involved), so that callers decide on the
/// number, not on a message: exit codes, retries and fault injection all
/// look at it.
public struct Errno: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
  public let rawValue: CInt

  public init(rawValue: CInt) { self.rawValue = rawValue }

  /// The calling thread's `errno`.
  public static var current: Errno { Errno(rawValue: errno) }

  /// The corresponding C error is `EINTR`.
  public static let interrupted = Errno(rawValue: EINTR)
  /// The corresponding C error is `ENOENT`.
  public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
  /// The corresponding C error is `EACCES`.
  public static let permissionDenied = Errno(rawValue: EACCES)
  /// The corresponding C error is `EEXIST`.
  public static let fileExists = Errno(rawValue: EEXIST)
  /// The corresponding C error is `EISDIR`.
  public static let isDirectory = Errno(rawValue: EISDIR)
  /// The corresponding C error is `ENOTDIR`.
  public static let notDirectory = Errno(rawValue: ENOTDIR)
  /// The corresponding C error is `ELOOP`.
  public static let tooManySymbolicLinkLevels = Errno(rawValue: ELOOP)
  /// The corresponding C error is `ENOSPC`.
  public static let noSpace = Errno(rawValue: ENOSPC)
  /// The corresponding C error is `EIO`.
  public static let ioError = Errno(rawValue: EIO)
  /// The corresponding C error is `EROFS`.
  public static let readOnlyFileSystem = Errno(rawValue: EROFS)
  /// The corresponding C error is `EAGAIN`.
  public static let wouldBlock = Errno(rawValue: EAGAIN)
  /// The corresponding C error is `EBADF`.
  public static let badFileDescriptor = Errno(rawValue: EBADF)
  /// The corresponding C error is `EINVAL`.
  public static let invalidArgument = Errno(rawValue: EINVAL)
  /// The corresponding C error is `EPIPE`.
  public static let brokenPipe = Errno(rawValue: EPIPE)
  /// The corresponding C error is `EDQUOT`.
  public static let diskQuotaExceeded = Errno(rawValue: EDQUOT)
  /// The corresponding C error is `EFBIG`.
  public static let fileTooLarge = Errno(rawValue: EFBIG)
  /// The corresponding C error is `ENAMETOOLONG`.
  public static let nameTooLong = Errno(rawValue: ENAMETOOLONG)
  /// The corresponding C error is `EWOULDBLOCK` as `flock` reports a held lock.
  public static let lockHeld = Errno(rawValue: EWOULDBLOCK)

  /// `strerror`, lowercase: `no space left on device`.
  public var description: String {
    guard let text = strerror(rawValue) else { return "error \(rawValue)" }
    var message = String(cString: text)
    if let first = message.first, first.isUppercase, !(message.dropFirst().first?.isUppercase ?? false) {
      message = first.lowercased() + message.dropFirst()
    }
    return message
  }

  /// Whether the file (or a directory on its path) does not exist, or is
  /// not what was asked for: the conditions of "no input" (`ENOENT`,
  /// `ENOTDIR`, `EISDIR`, `ELOOP`, `EACCES`).
  public var isMissingInput: Bool {
    [Errno.noSuchFileOrDirectory, .notDirectory, .isDirectory, .tooManySymbolicLinkLevels, .permissionDenied]
      .contains(self)
  }
}
