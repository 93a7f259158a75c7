import CallDirectoryFormat
import CallDirectoryProvider
import CallDirectorySync
import Foundation

/// The engine's ``SyncReloader`` over the app: its extensions'
/// `CXCallDirectoryManager` (``CallDirectoryManagerClient``) and their
/// files in the App Group container (``AppGroupStorage``). A reload the
/// system fails is classified by ``ReloadRecovery``, which the engine acts
/// on (waits and retries, the full snapshot instead of a delta, or stops).
struct AppGroupReloader: SyncReloader {
  /// One extension's load, planned as its provider will serve it.
  struct PlannedLoad {
    var index: Int
    var identifier: String
    var blob: BlobCandidate
    var plan: LoadPlan
  }

  let identifiers: [String]
  let storage: AppGroupStorage
  let callDirectory: CallDirectoryManagerClient

  func heldSnapshots() throws(DatasetSyncError) -> [Int: HeldSnapshot?] {
    var held: [Int: HeldSnapshot?] = [:]
    for index in identifiers.indices.map({ $0 + 1 }) {
      let state = try providerState(index)
      if let snapshot = state.heldSnapshot {
        held[index] = HeldSnapshot(version: Int(clamping: snapshot.version), digest: snapshot.digest.hex)
      } else {
        // A request whose outcome is unknown: the version before, no digest (a full snapshot follows).
        held.updateValue(state.loaded.map { HeldSnapshot(version: Int(clamping: $0.version), digest: nil) }, forKey: index)
      }
    }
    return held
  }

  func accept(_ manifest: Manifest) throws(DatasetSyncError) {
    let needed = manifest.extensions.map(\.index).max() ?? 0
    guard needed <= identifiers.count else { throw .tooFewExtensions(dataset: needed, app: identifiers.count) }
  }

  /// Refuses an extension the user turned off before anything changes.
  func reserve(extension index: Int) async throws(DatasetSyncError) -> Int {
    let identifier = try identifier(index)
    if (try? await callDirectory.enabledStatusForExtension(withIdentifier: identifier)) == .disabled {
      throw .extensionDisabled(identifier: identifier)
    }
    return index
  }

  func release(_ reservation: Int) {}

  func planLoad(ofBlobAt path: String, intoExtension index: Int) throws(DatasetSyncError) -> PlannedLoad {
    let identifier = try identifier(index)
    let state = try providerState(index)
    do throws(CallDirectoryProviderError) {
      let blob = try BlobCandidate(path: path)
      let plan = try LoadPlanner.plan(isIncremental: true, state: state, candidates: [blob])
      return PlannedLoad(index: index, identifier: identifier, blob: blob, plan: plan)
    } catch {
      throw .doesNotFit(identifier: identifier, reason: error.description)
    }
  }

  func unfitReason(_ failure: DatasetSyncError) -> String? {
    switch failure {
    case .doesNotFit(_, let reason): reason
    case .notLoaded: failure.description
    default: nil
    }
  }

  /// Places the blob, reloads the extension once, and settles its state.
  func load(_ load: PlannedLoad, intoExtension index: Int, under reservation: Int) async throws(DatasetSyncError)
    -> SnapshotIdentity
  {
    do {
      try place(load)
    } catch {
      throw .storage(String(describing: error))
    }
    do {
      try await callDirectory.reloadExtension(withIdentifier: load.identifier)
    } catch is CancellationError {
      throw .cancelled
    } catch {
      _ = try? settleProviderState(index, committed: false)
      let bridged = error as NSError
      let recovery = ReloadRecovery(domain: bridged.domain, code: bridged.code)
      if recovery == .waitForUser { throw .extensionDisabled(identifier: load.identifier) }
      throw .reloadFailed(identifier: load.identifier, domain: bridged.domain, code: bridged.code, recovery: recovery)
    }
    let held = try settleProviderState(index, committed: true)
    guard held == load.plan.target else {
      throw .notLoaded(
        identifier: load.identifier, expected: Int(load.plan.target.version), holds: held.flatMap { Int(exactly: $0.version) })
    }
    return load.plan.target
  }

  func recovery(after failure: DatasetSyncError) -> ReloadRecovery {
    switch failure {
    case .reloadFailed(_, _, _, let recovery): recovery
    case .notLoaded: .reloadWithFullSnapshot  // a complete request loaded the full snapshot kept next to the delta
    default: .stop
    }
  }

  func recordSameContent(extension index: Int, version: Int, digest: String, under reservation: Int)
    throws(DatasetSyncError) -> Bool
  {
    guard let digest = ContentDigest(hex: digest) else { return false }
    let store = ProviderStateStore(path: storage.layout(forExtension: index).statePath)
    do {
      return try store.recordSameContent(as: SnapshotIdentity(version: UInt64(version), digest: digest)) != nil
    } catch {
      throw .storage(error.description)
    }
  }

  // MARK: - The container

  private func identifier(_ index: Int) throws(DatasetSyncError) -> String {
    guard identifiers.indices.contains(index - 1) else {
      throw .tooFewExtensions(dataset: index, app: identifiers.count)
    }
    return identifiers[index - 1]
  }

  private func providerState(_ index: Int) throws(DatasetSyncError) -> ProviderState {
    do {
      return try ProviderStateStore(path: storage.layout(forExtension: index).statePath).loadForPlanning()
    } catch {
      throw .storage(error.description)
    }
  }

  /// Copies the staged blob into the extension's incoming directory, then
  /// renames it into its data directory (`full-000042.cdir`,
  /// `delta-000041-000042.cdir`), so the extension sees the whole file or
  /// none. A full snapshot replaces everything there; a delta replaces any
  /// other delta and keeps the full snapshot, which a complete request (the
  /// system's choice, not the app's) still needs.
  private func place(_ load: PlannedLoad) throws {
    let manager = FileManager.default
    let incoming = storage.incomingDirectory(forExtension: load.index)
    try manager.createDirectory(at: incoming, withIntermediateDirectories: true)
    for name in try manager.contentsOfDirectory(atPath: incoming.path) {
      try manager.removeItem(at: incoming.appendingPathComponent(name))
    }
    let copy = incoming.appendingPathComponent(UUID().uuidString + ".part")
    try manager.copyItem(at: URL(fileURLWithPath: load.blob.path), to: copy)
    let data = URL(fileURLWithPath: storage.layout(forExtension: load.index).dataDirectory, isDirectory: true)
    try manager.createDirectory(at: data, withIntermediateDirectories: true)
    let header = load.blob.header
    let name = header.kind == .full
      ? "full-\(Self.padded(header.version)).cdir"
      : "delta-\(Self.padded(header.baseVersion))-\(Self.padded(header.version)).cdir"
    let destination = data.appendingPathComponent(name)
    if manager.fileExists(atPath: destination.path) { try manager.removeItem(at: destination) }
    try manager.moveItem(at: copy, to: destination)
    for other in try manager.contentsOfDirectory(atPath: data.path) where other != name {
      if header.kind == .full || other.hasPrefix("delta-") { try manager.removeItem(at: data.appendingPathComponent(other)) }
    }
  }

  private static func padded(_ version: UInt64) -> String {
    let digits = String(version)
    return digits.count >= 6 ? digits : String(repeating: "0", count: 6 - digits.count) + digits
  }

  /// What the extension holds after a reload that did (`committed`) or did
  /// not succeed. The extension records its outcome itself; when it could
  /// not (stopped between completing the request and writing its state,
  /// which leaves it pending), the reload's result settles it: a committed
  /// reload means the system holds the pending snapshot, a failed one that
  /// it still holds the previous one.
  private func settleProviderState(_ index: Int, committed: Bool) throws(DatasetSyncError) -> SnapshotIdentity? {
    let store = ProviderStateStore(path: storage.layout(forExtension: index).statePath)
    do {
      var state = try store.loadForPlanning()
      if let pending = state.pending {
        state = ProviderState(loaded: committed ? pending : state.loaded)
        try store.save(state)
      }
      return state.loaded
    } catch {
      throw .storage(error.description)
    }
  }
}
