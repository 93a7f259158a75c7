import CallDirectoryStore
import CommandLineKit

extension ReportError: CommandLineError {
  /// The store's or a blob's code, 73 for an output that cannot be the
  /// report (not a regular file, or inside the store).
  public var exitCode: ExitCode {
    switch self {
    case .store(let error): error.exitCode
    case .blob(_, let error): error.exitCode
    case .outputNotRegularFile, .outputInsideStore: .cantCreate
    }
  }

  public var message: String { description }
}
