import CallDirectorySync
import CallKitMock
import CommandLineKit

/// A failed sync step as the command reports it: exit 65 for what is not
/// to be trusted (a bad signature, a malformed or oversized manifest or
/// signature, another dataset, a rollback, an expired manifest, a file that
/// is not the manifest's) or a malformed state or rollback floor, 66 for a
/// source's file that is not a regular file, 74 for the network and the
/// device's I/O, 1 when another sync holds the device (currentlyLoading, as
/// a load).
struct SyncFailure: CommandLineError {
  let error: SyncError

  init(_ error: SyncError) {
    self.error = error
  }

  var exitCode: ExitCode {
    switch error {
    case .untrusted, .stateMalformed, .rollbackFloorMalformed: .dataError
    case .source(.notRegularFile): .noInput
    case .source, .storage: .ioError
    case .busy: .failure
    }
  }

  var message: String {
    switch error {
    case .busy: CXErrorCodeCallDirectoryManagerError.Code.currentlyLoading.description
    case .stateMalformed: "\(error); run 'calldir device reset' to start over"
    case .untrusted(.rollback), .untrusted(.belowRollbackFloor):
      "\(error); 'calldir device sync --allow-downgrade' installs it anyway"
    case .rollbackFloorMalformed:
      "\(error); 'calldir device sync --allow-downgrade' goes on without it and records the version it installs"
    default: error.description
    }
  }

  /// The `kind` of the `--json` error object.
  var kind: String {
    switch error {
    case .untrusted(let problem):
      switch problem {
      case .malformed: "manifest"
      case .malformedSignature, .missingSignature, .badSignature: "signature"
      case .wrongDataset: "dataset"
      case .rollback, .belowRollbackFloor: "rollback"
      case .expired: "expired"
      case .fileMismatch: "file"
      }
    case .source(.notRegularFile): "noInput"
    case .source: "network"
    case .storage: "storage"
    case .stateMalformed, .rollbackFloorMalformed: "state"
    case .busy: "busy"
    }
  }
}
