import CalldirSystem

/// Why a sync stopped. Whatever the case, the device keeps what it held:
/// nothing is loaded before every file is verified, and the sync state is
/// written only after every extension loaded.
public enum SyncError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The manifest, its signature or a file it names is not to be trusted
  /// (a bad signature, another dataset, a rollback, a digest mismatch).
  case untrusted(ManifestError)
  /// The source could not deliver a file (the network, a missing file).
  case source(SyncSourceError)
  /// The device's own files could not be read or written (a full disk).
  case storage(FileError)
  /// The sync state file exists but is not a sync state.
  case stateMalformed(path: String, reason: String)
  /// The rollback floor file exists but is not one
  /// (``RollbackFloorStore``): nothing tells how far back the device may
  /// go, so the sync refuses unless a downgrade is allowed.
  case rollbackFloorMalformed(path: String, reason: String)
  /// Another sync (or a reset) of the device is running.
  case busy(path: String)

  public var description: String {
    switch self {
    case .untrusted(let error): error.description
    case .source(let error): error.description
    case .storage(let error): error.description
    case .stateMalformed(let path, let reason): "the sync state \(path) is malformed: \(reason)"
    case .rollbackFloorMalformed(let path, let reason):
      "the rollback floor \(path) is malformed: \(reason); it says how far back the device may go, "
        + "so nothing was installed"
    case .busy(let path): "another sync of this device is running (\(path) is locked)"
    }
  }
}
