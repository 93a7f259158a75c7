import CallDirectorySync
import CalldirDevice
import CallKitMock
import CommandLineKit

/// A failed sync step: 65 for what is not to be trusted (a bad signature,
/// a malformed or oversized manifest or signature, another dataset, a
/// rollback, an expired manifest, a file that is not the manifest's) or a
/// malformed state or rollback floor, 66 for a source's file that is not a
/// regular file, 74 for the network and the device's I/O, 1 when another
/// sync holds the device (currentlyLoading, as a load).
///
/// Its `kind` names the exit status, as for every command's failures;
/// `device sync`, whose `--json` error names the failure more precisely,
/// reports it through ``SyncRunError`` with ``syncKind``.
extension SyncError: CommandLineError {
  public var exitCode: ExitCode {
    switch self {
    case .untrusted, .stateMalformed, .rollbackFloorMalformed: .dataError
    case .source(.notRegularFile): .noInput
    case .source, .storage: .ioError
    case .busy: .failure
    }
  }

  public var message: String {
    switch self {
    case .busy: CXErrorCodeCallDirectoryManagerError.Code.currentlyLoading.description
    case .stateMalformed: "\(self); run 'calldir device reset' to start over"
    case .untrusted(.rollback), .untrusted(.belowRollbackFloor):
      "\(self); 'calldir device sync --allow-downgrade' installs it anyway"
    case .rollbackFloorMalformed:
      "\(self); 'calldir device sync --allow-downgrade' goes on without it and records the version it installs"
    default: description
    }
  }

  /// The failure's name in `device sync --json`: `manifest`, `signature`,
  /// `dataset`, `rollback`, `expired`, `file`, `noInput`, `network`,
  /// `storage`, `state` or `busy`.
  var syncKind: FailureKind {
    switch self {
    case .untrusted(let problem):
      switch problem {
      case .malformed: .manifest
      case .malformedSignature, .missingSignature, .badSignature: .signature
      case .wrongDataset: .dataset
      case .rollback, .belowRollbackFloor: .rollback
      case .expired: .expired
      case .fileMismatch: .file
      }
    case .source(.notRegularFile): .noInput
    case .source: .network
    case .storage: .storage
    case .stateMalformed, .rollbackFloorMalformed: .state
    case .busy: .busy
    }
  }
}

/// How `device sync` fails: a step of the sync itself (its `kind` names
/// the failure, ``SyncError/syncKind``) or of the device (`kind`
/// `device`, with the device's exit code and message).
extension SyncRunError: CommandLineError where DeviceFailure == DeviceLoadError {
  public var exitCode: ExitCode {
    switch self {
    case .sync(let error): error.exitCode
    case .device(let error): error.exitCode
    case .cancelled: .tempFail
    }
  }

  public var message: String {
    switch self {
    case .sync(let error): error.message
    case .device(let error):
      if case .downgrade = error { "\(error); \(Self.downgradeAdvice)" } else { error.message }
    case .cancelled: "the sync was cancelled; nothing was recorded"
    }
  }

  public var kind: String {
    switch self {
    case .sync(let error): error.syncKind.rawValue
    case .device, .cancelled: FailureKind.device.rawValue
    }
  }

  /// What the refusal of a blob older than an extension holds advises
  /// (never a reset: the extensions may hold the newer version of this
  /// very dataset, and the manifest be a replay).
  static var downgradeAdvice: String {
    "a replay of an older manifest, or another store's data; 'calldir device sync --allow-downgrade' installs it anyway"
  }
}
