import CommandLineKit
import LiveCallerID

extension LiveCallerIDExportError: CommandLineError {
  /// The export's own status, or the store's, a blob's or a written file's code.
  public var exitCode: ExitCode {
    switch status {
    case .dataError: .dataError
    case .noInput: .noInput
    case .software: .software
    case .cantCreate: .cantCreate
    case .file(let error): error.writingExitCode
    case .store(let error): error.exitCode
    case .blob(let error): error.exitCode
    }
  }

  public var message: String { description }
}
