import CallDirectoryFormat
import CallDirectoryProvider
import CallDirectorySync
import Foundation

/// The containing app's sync (docs/guides/ios-app.md, "The containing
/// app's sync"): from a signed manifest to every extension holding the
/// manifest's version, then the new ``SyncState``.
///
/// One run, in order:
/// 1. fetches `manifest.json` and `manifest.json.sig` and verifies them
///    with the pinned key (``ManifestTrust``), fetching both again when a
///    pair that does not verify may have been read while the store
///    published (``ManifestVerification``); nothing else is read before;
/// 2. checks the app has an extension for every `extensions[i]`;
/// 3. reads the recorded ``SyncState`` and corrects it with what each
///    extension says it holds (its provider state), so that a sync that
///    stopped half-way is finished, not repeated;
/// 4. plans with ``SyncPlanner``, which refuses another dataset and any
///    version older than the recorded one (a replay or a rollback);
/// 5. for each extension that is behind: downloads its delta or full
///    snapshot into the App Group container, checks size, SHA-256 and blob
///    header, moves it into the extension's data directory, calls
///    `reloadExtension`, and confirms from the extension's state that it
///    holds the new snapshot; a delta the system refused, or a request the
///    system served as a complete one, falls back to the full snapshot.
///    An extension whose content digest is already the one the manifest
///    names (the new version left its shard as it was) gets no reload at
///    all: its provider state takes the new version
///    (`ProviderStateStore.recordSameContent(as:)`), so that the next
///    version's delta applies to it;
/// 6. empties extensions the dataset no longer uses;
/// 7. only then records the new ``SyncState``.
///
/// Any failure stops the run with a ``DatasetSyncError``; what was
/// installed stays, and the next run starts from what the extensions hold.
/// Run one sync at a time (for example from one task the app owns).
public struct DatasetSync: Sendable {
  /// What the sync needs to know about the app.
  public struct Configuration: Sendable {
    /// The bundle identifiers of the app's Call Directory extensions, in
    /// manifest order: the one at position `i` serves `extensions[i]`
    /// (index `i + 1`).
    public var extensionIdentifiers: [String]
    /// The largest manifest accepted, in bytes (default 1 MiB).
    public var maximumManifestBytes: Int
    /// How failed reloads are retried.
    public var retryPolicy: ReloadRetryPolicy

    /// A configuration.
    public init(
      extensionIdentifiers: [String], maximumManifestBytes: Int = 1 << 20,
      retryPolicy: ReloadRetryPolicy = ReloadRetryPolicy()
    ) {
      self.extensionIdentifiers = extensionIdentifiers
      self.maximumManifestBytes = maximumManifestBytes
      self.retryPolicy = retryPolicy
    }
  }

  /// Waits `nanoseconds` (between reload attempts).
  public typealias Sleep = @Sendable (_ nanoseconds: UInt64) async throws -> Void

  let configuration: Configuration
  let storage: AppGroupStorage
  let transport: any DatasetTransport
  let trust: ManifestTrust
  let hashing: any SHA256Hashing
  let callDirectory: CallDirectoryManagerClient
  let sleep: Sleep

  /// A sync.
  ///
  /// - Parameters:
  ///   - configuration: The app's extensions and limits.
  ///   - storage: The App Group container.
  ///   - transport: Where the store is (``URLSessionDatasetTransport`` on iOS).
  ///   - trust: The pinned public key and the signature check
  ///     (``CryptoKitSignatureVerifier`` on iOS).
  ///   - hashing: SHA-256 for downloaded files (``CryptoKitSHA256Hashing`` on iOS).
  ///   - callDirectory: The Call Directory manager.
  ///   - sleep: How to wait between reload attempts (default `Task.sleep`).
  public init(
    configuration: Configuration,
    storage: AppGroupStorage,
    transport: any DatasetTransport,
    trust: ManifestTrust,
    hashing: any SHA256Hashing,
    callDirectory: CallDirectoryManagerClient,
    sleep: @escaping Sleep = { try await Task.sleep(nanoseconds: $0) }
  ) {
    self.configuration = configuration
    self.storage = storage
    self.transport = transport
    self.trust = trust
    self.hashing = hashing
    self.callDirectory = callDirectory
    self.sleep = sleep
  }

  /// The app's record of what the extensions hold.
  public var stateStore: SyncStateStore {
    SyncStateStore(path: storage.syncStateURL.path)
  }

  // MARK: - Running

  /// Runs one sync (see the type's overview).
  ///
  /// - Returns: What changed.
  /// - Throws: ``DatasetSyncError``; the recorded state is then unchanged.
  public func run() async throws(DatasetSyncError) -> SyncReport {
    do {
      return try await runUnchecked()
    } catch let error as DatasetSyncError {
      throw error
    } catch is CancellationError {
      throw .cancelled
    } catch {
      throw .storage(String(describing: error))
    }
  }

  private func runUnchecked() async throws -> SyncReport {
    let trusted = try await fetchTrustedManifest()
    let manifest = trusted.manifest
    guard manifest.extensions.count <= configuration.extensionIdentifiers.count else {
      throw DatasetSyncError.tooFewExtensions(dataset: manifest.extensions.count, app: configuration.extensionIdentifiers.count)
    }
    let recorded = try stateStore.load()
    let current = try reconciled(recorded)
    let plan: SyncPlan
    do {
      plan = try SyncPlanner.plan(trusted, state: current)
    } catch {
      throw DatasetSyncError.manifest(error)
    }

    var report = SyncReport(version: manifest.version, previousVersion: recorded?.version)
    for (item, step) in plan.steps {
      switch step {
      case .upToDate:
        report.steps[item.index] = .upToDate
      case .unchanged:
        report.steps[item.index] = try await recordUnchanged(item, manifest: manifest)
      case .full(let file):
        try await installFull(file, extension: item.index, manifest: manifest)
        report.steps[item.index] = .full
      case .delta(let delta):
        report.steps[item.index] = try await installDelta(delta, orElse: item.full, extension: item.index, manifest: manifest)
      }
    }
    for index in plan.retired where index <= configuration.extensionIdentifiers.count {
      try await empty(extension: index, manifest: manifest)
      report.steps[index] = .emptied
    }

    let next = plan.resultingState(after: current)
    if next != recorded {
      try stateStore.save(next)
    }
    return report
  }

  /// The manifest, verified with the pinned key. A pair that does not
  /// verify is fetched again when it may have been read while the store
  /// published a new one (``ManifestVerification``): only a pair that
  /// reads the same twice is refused.
  private func fetchTrustedManifest() async throws -> TrustedManifest {
    var verification = ManifestVerification(trust: trust)
    while true {
      let manifestBytes = try await fetch("manifest.json", maximumBytes: configuration.maximumManifestBytes)
      let signature = try await fetch("manifest.json.sig", maximumBytes: 1024)
      do {
        if let trusted = try verification.check(manifest: manifestBytes, signature: signature) { return trusted }
      } catch {
        throw DatasetSyncError.manifest(error)
      }
    }
  }

  private func fetch(_ path: String, maximumBytes: Int) async throws -> [UInt8] {
    do {
      return try await transport.contents(of: path, maximumBytes: maximumBytes)
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      throw DatasetSyncError.transport(path: path, reason: String(describing: error))
    }
  }

  /// `recorded`, with each extension's version and content digest
  /// replaced by what the extension says it holds (its provider state); an
  /// extension whose snapshot is unknown is left out, so it loads its full
  /// snapshot.
  func reconciled(_ recorded: SyncState?) throws -> SyncState? {
    guard var state = recorded else { return nil }
    for index in state.extensions.keys.sorted() {
      let held = try ProviderStateStore(path: storage.layout(forExtension: index).statePath).loadForPlanning()
      state.extensions[index] = held.heldSnapshot.flatMap { Int(exactly: $0.version) }
      state.digests[index] = held.heldSnapshot?.digest.hex
    }
    return state
  }

  // MARK: - Unchanged extensions

  /// Extension `item`, whose content digest is the manifest's already:
  /// no reload, its provider state takes the manifest's version. When it
  /// turns out not to hold that content (a request the system made since
  /// the plan), it loads the full snapshot instead.
  private func recordUnchanged(_ item: Manifest.Extension, manifest: Manifest) async throws -> SyncReport.Step {
    let store = ProviderStateStore(path: storage.layout(forExtension: item.index).statePath)
    if let hex = item.digest, let digest = ContentDigest(hex: hex),
      try store.recordSameContent(as: SnapshotIdentity(version: UInt64(manifest.version), digest: digest)) != nil
    {
      return .unchanged
    }
    try await installFull(item.full, extension: item.index, manifest: manifest)
    return .full
  }

  // MARK: - Installing

  /// Loads extension `index` with the full snapshot `file`.
  private func installFull(_ file: Manifest.File, extension index: Int, manifest: Manifest) async throws {
    let blob = try await download(file, extension: index, expecting: .full(file), manifest: manifest)
    try place(blob, extension: index)
    try await reload(extension: index, expecting: blob.target)
  }

  /// Loads extension `index` with `delta`; falls back to the full snapshot
  /// `full` when the system refuses the delta or serves the request as a
  /// complete one.
  private func installDelta(
    _ delta: Manifest.Delta, orElse full: Manifest.File, extension index: Int, manifest: Manifest
  ) async throws -> SyncReport.Step {
    let blob = try await download(
      delta.file, extension: index, expecting: .delta(delta), manifest: manifest)
    try place(blob, extension: index)
    do {
      try await reload(extension: index, expecting: blob.target)
      return .delta
    } catch DatasetSyncError.notLoaded {
      // A complete request loaded the full snapshot kept next to the delta.
    } catch DatasetSyncError.reloadFailed(_, _, _, recovery: .reloadWithFullSnapshot) {
      // The system refused the delta's entries.
    }
    try await installFull(full, extension: index, manifest: manifest)
    return .fullAfterDelta
  }

  /// Empties extension `index`, which the dataset no longer uses: an empty
  /// full snapshot of the manifest's version, written here.
  private func empty(extension index: Int, manifest: Manifest) async throws {
    let incoming = try prepareIncoming(extension: index)
    let url = incoming.appendingPathComponent("empty-\(manifest.version).cdir")
    let header: BlobHeader
    do {
      header = try FullSnapshotWriter(path: url.path, version: UInt64(manifest.version), dataset: manifest.dataset)
        .finish()
    } catch {
      throw DatasetSyncError.storage("cannot write an empty snapshot: \(error)")
    }
    let blob = CheckedBlob(url: url, header: header)
    try place(blob, extension: index)
    try await reload(extension: index, expecting: blob.target)
  }

  // MARK: - Files

  /// A downloaded blob whose size, SHA-256 and header were checked.
  struct CheckedBlob {
    var url: URL
    var header: BlobHeader

    /// The snapshot the extension holds once it loaded the blob.
    var target: SnapshotIdentity { SnapshotIdentity(target: header) }

    /// Its name in the data directory: `full-000042.cdir` or `delta-000041-000042.cdir`.
    var placedName: String {
      switch header.kind {
      case .full: "full-\(Self.padded(header.version)).cdir"
      case .delta: "delta-\(Self.padded(header.baseVersion))-\(Self.padded(header.version)).cdir"
      }
    }

    private static func padded(_ version: UInt64) -> String {
      let digits = String(version)
      return digits.count >= 6 ? digits : String(repeating: "0", count: 6 - digits.count) + digits
    }
  }

  /// Downloads `file` into extension `index`'s incoming directory and checks
  /// it: the manifest's size and SHA-256, then the blob header (kind,
  /// versions, dataset). A file that fails is deleted.
  private func download(
    _ file: Manifest.File, extension index: Int, expecting expected: StagedLoad.Content, manifest: Manifest
  ) async throws -> CheckedBlob {
    let incoming = try prepareIncoming(extension: index)
    let url = incoming.appendingPathComponent(UUID().uuidString + ".part")
    do {
      try await transport.download(file.path, to: url)
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      throw DatasetSyncError.transport(path: file.path, reason: String(describing: error))
    }
    do {
      try FileCheck.verify(url, size: file.bytes, sha256: file.sha256, hashing: hashing)
      let header = try FileCheck.header(of: url, expecting: expected, manifest: manifest)
      return CheckedBlob(url: url, header: header)
    } catch {
      try? FileManager.default.removeItem(at: url)
      throw DatasetSyncError.fileRejected(path: file.path, reason: String(describing: error))
    }
  }

  /// Empties extension `index`'s incoming directory (what an interrupted
  /// sync left) and returns it.
  private func prepareIncoming(extension index: Int) throws -> URL {
    let incoming = storage.incomingDirectory(forExtension: index)
    let manager = FileManager.default
    try manager.createDirectory(at: incoming, withIntermediateDirectories: true)
    for name in try manager.contentsOfDirectory(atPath: incoming.path) {
      try manager.removeItem(at: incoming.appendingPathComponent(name))
    }
    return incoming
  }

  /// Moves a checked blob into extension `index`'s data directory.
  ///
  /// A full snapshot replaces everything there. A delta replaces any other
  /// delta and keeps the full snapshot, which a complete request (the
  /// system's choice, not the app's) still needs. The move is a rename
  /// within the container, so the extension sees the whole file or none.
  private func place(_ blob: CheckedBlob, extension index: Int) throws {
    let manager = FileManager.default
    let data = URL(fileURLWithPath: storage.layout(forExtension: index).dataDirectory, isDirectory: true)
    try manager.createDirectory(at: data, withIntermediateDirectories: true)
    let destination = data.appendingPathComponent(blob.placedName)
    if manager.fileExists(atPath: destination.path) {
      try manager.removeItem(at: destination)
    }
    try manager.moveItem(at: blob.url, to: destination)
    for name in try manager.contentsOfDirectory(atPath: data.path) where name != blob.placedName {
      let isDelta = name.hasPrefix("delta-")
      if blob.header.kind == .full || isDelta {
        try manager.removeItem(at: data.appendingPathComponent(name))
      }
    }
  }

  // MARK: - Reloading

  /// Reloads extension `index` until it holds `expected`, retrying what
  /// ``ReloadRecovery`` says is passing.
  ///
  /// - Throws: ``DatasetSyncError/extensionDisabled(identifier:)`` when the
  ///   user has not turned it on, ``DatasetSyncError/reloadFailed(identifier:domain:code:recovery:)``,
  ///   ``DatasetSyncError/notLoaded(identifier:expected:holds:)`` when the
  ///   reload succeeded but the extension holds another snapshot.
  private func reload(extension index: Int, expecting expected: SnapshotIdentity) async throws {
    let identifier = configuration.extensionIdentifiers[index - 1]
    let layout = storage.layout(forExtension: index)
    var attempt = 0
    while true {
      attempt += 1
      if (try? await callDirectory.enabledStatusForExtension(withIdentifier: identifier)) == .disabled {
        throw DatasetSyncError.extensionDisabled(identifier: identifier)
      }
      do {
        try await callDirectory.reloadExtension(withIdentifier: identifier)
      } catch is CancellationError {
        throw CancellationError()
      } catch {
        _ = try? settleProviderState(layout, committed: false)
        let bridged = error as NSError
        let recovery = ReloadRecovery(domain: bridged.domain, code: bridged.code)
        switch recovery {
        case .retry where attempt < configuration.retryPolicy.maximumAttempts:
          try await sleep(configuration.retryPolicy.delayNanoseconds(afterAttempt: attempt))
          continue
        case .waitForUser:
          throw DatasetSyncError.extensionDisabled(identifier: identifier)
        default:
          throw DatasetSyncError.reloadFailed(
            identifier: identifier, domain: bridged.domain, code: bridged.code, recovery: recovery)
        }
      }
      let held = try settleProviderState(layout, committed: true)
      guard held == expected else {
        throw DatasetSyncError.notLoaded(
          identifier: identifier, expected: Int(expected.version), holds: held.flatMap { Int(exactly: $0.version) })
      }
      return
    }
  }

  /// What the extension holds after a reload that did (`committed`) or did
  /// not succeed.
  ///
  /// The extension records its outcome itself; when it could not (it was
  /// stopped between completing the request and writing its state, which
  /// leaves the request "pending"), the reload's result settles it: a
  /// committed reload means the system holds the pending snapshot, a
  /// failed one that it still holds the previous one.
  private func settleProviderState(_ layout: ProviderLayout, committed: Bool) throws -> SnapshotIdentity? {
    let store = ProviderStateStore(path: layout.statePath)
    var state = try store.loadForPlanning()
    if let pending = state.pending {
      state = ProviderState(loaded: committed ? pending : state.loaded)
      try store.save(state)
    }
    return state.loaded
  }
}

/// What a sync did.
public struct SyncReport: Sendable, Hashable {
  /// How one extension got to the manifest's version.
  public enum Step: Sendable, Hashable {
    /// It held the version already.
    case upToDate
    /// It held the version's content under an older version: no reload,
    /// its recorded version moved to the manifest's.
    case unchanged
    /// It loaded the delta from the version it held.
    case delta
    /// It loaded the full snapshot.
    case full
    /// Its delta did not take (refused, or served by a complete request);
    /// it loaded the full snapshot instead.
    case fullAfterDelta
    /// The dataset no longer uses it; it was emptied.
    case emptied
  }

  /// The version every extension now holds.
  public var version: Int
  /// The version recorded before, `nil` for a first sync.
  public var previousVersion: Int?
  /// Per extension index, what it did.
  public var steps: [Int: Step] = [:]

  /// A report.
  public init(version: Int, previousVersion: Int?, steps: [Int: Step] = [:]) {
    self.version = version
    self.previousVersion = previousVersion
    self.steps = steps
  }
}

/// Why a sync stopped. The recorded ``SyncState`` is unchanged; whatever
/// was installed stays, and the next sync continues from it.
public enum DatasetSyncError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A file could not be fetched (the network, the server): try later.
  case transport(path: String, reason: String)
  /// The manifest is not to be trusted or not to be installed: bad
  /// signature, malformed, another dataset, older than what the device holds.
  case manifest(ManifestError)
  /// The dataset has more extensions than the app ships: the app needs an update.
  case tooFewExtensions(dataset: Int, app: Int)
  /// A downloaded file is not the one the manifest names (size, SHA-256,
  /// header); it was deleted, nothing was installed from it.
  case fileRejected(path: String, reason: String)
  /// The App Group container could not be read or written.
  case storage(String)
  /// The user has not turned the extension on (Settings › Phone › Call
  /// Blocking & Identification); see ``CallDirectoryManagerClient/openSettings()``.
  case extensionDisabled(identifier: String)
  /// `reloadExtension` failed, and ``ReloadRecovery`` says not to go on.
  case reloadFailed(identifier: String, domain: String, code: Int, recovery: ReloadRecovery)
  /// `reloadExtension` succeeded but the extension holds another version.
  case notLoaded(identifier: String, expected: Int, holds: Int?)
  /// The task was cancelled (a background task ran out of time).
  case cancelled

  /// A lowercase, one-line message.
  public var description: String {
    switch self {
    case .transport(let path, let reason): "cannot fetch \(path): \(reason)"
    case .manifest(let error): error.description
    case .tooFewExtensions(let dataset, let app):
      "the dataset needs \(dataset) call directory extensions, the app has \(app); update the app"
    case .fileRejected(let path, let reason): "\(path) was rejected: \(reason)"
    case .storage(let reason): "app group container: \(reason)"
    case .extensionDisabled(let identifier): "\(identifier) is turned off in settings"
    case .reloadFailed(let identifier, let domain, let code, _): "reloading \(identifier) failed: \(domain) \(code)"
    case .notLoaded(let identifier, let expected, let holds):
      "\(identifier) holds version \(holds.map(String.init) ?? "unknown"), not \(expected)"
    case .cancelled: "the sync was cancelled"
    }
  }
}
