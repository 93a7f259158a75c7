import CalldirSystem
import CallDirectoryCompiler
import CallDirectoryStore
import CallDirectoryFormat
import CalldirSystem
import CommandLineKit
import LiveCallerID

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
    case let error as FileError: MappedError(exitCode: code(reading: error), message: error.description)
    case let error as ReportError: MappedError(exitCode: code(for: error), message: error.description)
    case let error as LiveCallerIDExportError: MappedError(exitCode: code(for: error), message: error.description)
    default: error
    }
  }

  static func code(for error: BuildError) -> ExitCode {
    switch error {
    case .config(let error): code(for: error)
    case .compile(let error):
      switch error {
      case .config(let error): code(for: error)
      case .source(.file(let error)): code(reading: error)
      case .source, .unknownRegion, .wrongRegion: .dataError
      case .report(let error): code(writing: error)
      case .spill: .ioError
      }
    case .store(let error): code(for: error)
    case .signingKey(.unreadable(let error)): code(reading: error)
    case .signingKey(.notASecretKey), .signingKey(.mismatchedPublicKey): .dataError
    case .blob(_, let error): code(for: error)
    case .refused: .dataError
    case .dateOutOfRange: .usage
    }
  }

  static func code(for error: ConfigError) -> ExitCode {
    switch error {
    case .unreadable(let error) where error.errno == .fileTooLarge: .dataError
    case .unreadable(let error): code(reading: error)
    case .fileNotFound, .notAFile: .noInput
    default: .dataError
    }
  }

  static func code(for error: StoreError) -> ExitCode {
    switch error {
    case .locked: .tempFail
    case .database(_, let busy): busy ? .tempFail : .ioError
    case .catalog, .catalogDamaged: .dataError
    case .noCatalog, .catalogMissing: .noInput
    case .catalogBehind, .fileMismatch, .datasetChanged, .capacity: .dataError
    case .file(let error): code(writing: error)
    }
  }

  /// An input that is missing or not a readable file (`ENOENT`, `ENOTDIR`,
  /// `EISDIR`, `ELOOP`, `EACCES`, and `ESPIPE`: a FIFO or pipe where a blob,
  /// read at random offsets, was expected) is "no input"; anything else
  /// failed reading.
  static func code(reading error: FileError) -> ExitCode {
    error.errno.isMissingInput || error.errno == .illegalSeek ? .noInput : .ioError
  }

  /// A file or directory the store needs that cannot be made is "cannot
  /// create"; a write, sync or rename that fails (a full disk, an I/O
  /// error) is an I/O error.
  static func code(writing error: FileError) -> ExitCode {
    let cannotCreate: [Errno] = [
      .permissionDenied, .readOnlyFileSystem, .notDirectory, .noSuchFileOrDirectory, .isDirectory, .fileExists,
    ]
    return error.operation.hasPrefix("create") || error.operation == "open" || error.operation == "replace"
      ? (cannotCreate.contains(error.errno) || error.operation == "replace" ? .cantCreate : .ioError)
      : .ioError
  }

  static func code(for error: ReportError) -> ExitCode {
    switch error {
    case .store(let error): code(for: error)
    case .blob(_, let error): code(for: error)
    case .outputNotRegularFile, .outputInsideStore: .cantCreate
    }
  }

  static func code(for error: LiveCallerIDExportError) -> ExitCode {
    switch error.status {
    case .dataError: .dataError
    case .noInput: .noInput
    case .software: .software
    case .cantCreate: .cantCreate
    case .file(let error): code(writing: error)
    case .store(let error): code(for: error)
    case .blob(let error): code(for: error)
    }
  }

  static func code(for error: BlobError) -> ExitCode {
    switch error {
    case .io(let error): code(reading: error)
    case .misuse: .software
    default: .dataError
    }
  }
}
