import CalldirSystem

/// A failure to write output.
public enum OutputError: CommandLineError, Equatable, Sendable {
  /// A `write(2)` call failed with `errno`.
  case writeFailed(fileDescriptor: Int32, errno: Int32)

  /// Always ``ExitCode/ioError``.
  public var exitCode: ExitCode { .ioError }

  /// A lowercase description including the system error text.
  public var message: String {
    switch self {
    case .writeFailed(let fd, let code):
      let target: String
      switch fd {
      case 1: target = "standard output"
      case 2: target = "standard error"
      default: target = "file descriptor \(fd)"
      }
      return "cannot write to \(target): \(Errno(rawValue: code))"
    }
  }
}
