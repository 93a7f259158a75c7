import CallDirectoryFormat
import CommandLineKit

extension BlobError: CommandLineError {
  /// What reading the blob failed with, 70 for a misuse of the format's
  /// API, else 65 (a blob that is not a valid one).
  public var exitCode: ExitCode {
    switch self {
    case .io(let error): error.readingExitCode
    case .misuse: .software
    default: .dataError
    }
  }

  public var message: String { description }
}
