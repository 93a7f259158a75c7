import CalldirSystem
import CommandLineKit

/// A file error is reported by what the command was doing with the file:
/// as a ``CommandLineError`` it is a failure to read (``readingExitCode``);
/// a command that failed writing says so with ``writingFailure``.
extension FileError: CommandLineError {
  public var exitCode: ExitCode { readingExitCode }
  public var message: String { description }

  /// An input that is missing or not a readable file (`ENOENT`, `ENOTDIR`,
  /// `EISDIR`, `ELOOP`, `EACCES`, and `ESPIPE`: a FIFO or pipe where a blob,
  /// read at random offsets, was expected) is "no input"; anything else
  /// failed reading.
  var readingExitCode: ExitCode {
    errno.isMissingInput || errno == .illegalSeek ? .noInput : .ioError
  }

  /// A file or directory the command makes that cannot be made is "cannot
  /// create"; a write, sync or rename that fails (a full disk, an I/O
  /// error) is an I/O error.
  var writingExitCode: ExitCode {
    let cannotCreate: [Errno] = [
      .permissionDenied, .readOnlyFileSystem, .notDirectory, .noSuchFileOrDirectory, .isDirectory, .fileExists,
    ]
    guard operation.hasPrefix("create") || operation == "open" || operation == "replace" else { return .ioError }
    return cannotCreate.contains(errno) || operation == "replace" ? .cantCreate : .ioError
  }

  /// This error as the failure of a write.
  var writingFailure: CommandFailure { CommandFailure(writingExitCode, description) }
}
