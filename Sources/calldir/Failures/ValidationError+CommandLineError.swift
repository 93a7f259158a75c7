import CallDirectoryValidation
import CommandLineKit

extension ValidationError: CommandLineError {
  /// 66 when the input is missing, a directory or a symbolic link loop, 74
  /// when reading fails, 65 for a damaged blob or one too large to read
  /// from a pipe; 73 or 74 when the temporary copy of a blob from a pipe
  /// cannot be made or written.
  public var exitCode: ExitCode {
    switch self {
    case .cannotRead(let error): error.readingExitCode
    case .blobTooLargeToSpool: .dataError
    case .cannotSpool(let error): error.writingExitCode
    case .invalidBlob(_, let error): error.exitCode
    }
  }

  public var message: String { description }
}
