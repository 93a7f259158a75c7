import CallDirectoryCompiler
import CommandLineKit

extension ConfigError: CommandLineError {
  /// 66 for a config that is missing or not a file, 65 for one that is too
  /// large or not a valid config, else the failed read's code.
  public var exitCode: ExitCode {
    switch self {
    case .unreadable(let error) where error.errno == .fileTooLarge: .dataError
    case .unreadable(let error): error.readingExitCode
    case .fileNotFound, .notAFile: .noInput
    default: .dataError
    }
  }

  public var message: String { description }
}
