import CommandLineKit

/// Errors of the executable itself, with their sysexits code.
enum ToolError: CommandLineError {
  case io(String)
  case noInput(String)

  var exitCode: ExitCode {
    switch self {
    case .io: .ioError
    case .noInput: .noInput
    }
  }

  var message: String {
    switch self {
    case .io(let message), .noInput(let message): message
    }
  }
}
