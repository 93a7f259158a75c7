import CalldirSystem
import CallDirectoryCompiler
import CallDirectoryFormat
import CommandLineKit

/// A library error with the sysexits code the tool exits with.
struct MappedError: CommandLineError {
  let exitCode: ExitCode
  let message: String
}

/// The exit code for a library error, following sysexits.
enum ExitCodes {
  static func mapped(_ error: any Error) -> any Error {
    switch error {
    case let error as BuildError: MappedError(exitCode: code(for: error), message: error.description)
    case let error as StoreError: MappedError(exitCode: code(for: error), message: error.description)
    case let error as BlobError: MappedError(exitCode: code(for: error), message: error.description)
    case let error as ConfigError: MappedError(exitCode: code(for: error), message: error.description)
    default: error
    }
  }

  static func code(for error: BuildError) -> ExitCode {
    switch error {
    case .config(let error): code(for: error)
    case .compile(let error):
      switch error {
      case .config(let error): code(for: error)
      case .source(.cannotOpen): .noInput
      case .source(.readFailed): .ioError
      case .source, .unknownRegion: .dataError
      case .report: .cantCreate
      case .spill: .ioError
      }
    case .store(let error): code(for: error)
    case .blob(_, let error): code(for: error)
    case .refused: .dataError
    }
  }

  static func code(for error: ConfigError) -> ExitCode {
    switch error {
    case .unreadable: .noInput
    case .fileNotFound: .noInput
    default: .dataError
    }
  }

  static func code(for error: StoreError) -> ExitCode {
    switch error {
    case .locked: .tempFail
    case .database(_, let busy): busy ? .tempFail : .ioError
    case .catalog: .dataError
    case .noCatalog: .noInput
    case .cannotCreate: .cantCreate
    case .io: .ioError
    }
  }

  static func code(for error: BlobError) -> ExitCode {
    switch error {
    case .io(let error): code(for: error)
    case .misuse: .software
    default: .dataError
    }
  }

  /// 66 for an input that is missing or not a readable file (`ENOENT`,
  /// `ENOTDIR`, `EISDIR`, `ELOOP`, `EACCES`, and `ESPIPE`: a FIFO or pipe
  /// where a blob, read at random offsets, was expected); 74 otherwise.
  static func code(for error: FileError) -> ExitCode {
    error.errno.isMissingInput || error.errno == .illegalSeek ? .noInput : .ioError
  }
}
