import CallDirectoryStore
import CommandLineKit

extension StoreError: CommandLineError {
  /// 75 for a store held by another process, 66 for a missing catalog, 65
  /// for a damaged or inconsistent one, 74 for a catalog that cannot be
  /// read, and what writing its files failed with.
  public var exitCode: ExitCode {
    switch self {
    case .locked: .tempFail
    case .database(_, let busy): busy ? .tempFail : .ioError
    case .catalog, .catalogDamaged: .dataError
    case .noCatalog, .catalogMissing: .noInput
    case .catalogBehind, .fileMismatch, .datasetChanged, .capacity: .dataError
    case .file(let error): error.writingExitCode
    }
  }

  public var message: String { description }
}
