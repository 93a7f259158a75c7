import CallDirectoryProvider
import CallDirectorySync
import Foundation

/// The containing app's sync (docs/guides/ios-app.md, "The containing
/// app's sync"): from a signed manifest to every extension holding the
/// manifest's version, then the new ``SyncState``.
///
/// A thin adapter: the run is CallDirectorySync's engine
/// (``SyncCoordinator``), the one `calldir device sync` drives, over
///
/// - a ``SyncSession`` on the App Group container: the engine's files in
///   `CallDirectory/Sync/` (``AppGroupStorage/syncDirectory``), the state
///   in `CallDirectory/sync-state.json`, the store read through the app's
///   ``DatasetTransport`` (`TransportSyncSource`);
/// - the app's device (`AppGroupReloader`): each extension's provider
///   state, `CXCallDirectoryManager`'s reload, the blobs placed in the
///   container where the extension reads them.
///
/// So the engine's rules hold: the manifest verified with the pinned key
/// (read again when it may have been read while the store published);
/// another dataset, an older version or one below the rollback floor
/// refused; every file downloaded and checked (size, SHA-256, header)
/// before any extension changes; an extension whose content the version
/// left as it was not reloaded, only its provider state moved; a delta
/// the system refuses or serves with a complete request followed by the
/// full snapshot; passing reload failures retried with backoff
/// (``Configuration/retryPolicy``); the state recorded last.
///
/// Any failure stops the run with a ``DatasetSyncError``; what was
/// installed stays, and the next run starts from what the extensions hold.
/// Run one sync at a time (for example from one task the app owns); a
/// cancelled task stops it with ``DatasetSyncError/cancelled``.
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
  public var stateStore: SyncStateStore { storage.syncDirectory.stateStore }

  /// Runs one sync (see the type's overview).
  ///
  /// - Returns: What changed.
  /// - Throws: ``DatasetSyncError``; the recorded state is then unchanged.
  public func run() async throws(DatasetSyncError) -> SyncReport {
    let directory = storage.syncDirectory
    let source = TransportSyncSource(
      transport: transport, maximumManifestBytes: configuration.maximumManifestBytes,
      downloads: URL(fileURLWithPath: directory.path).appendingPathComponent("Downloads", isDirectory: true))
    let session = SyncSession(directory: directory, source: source, trust: trust, hashing: hashing)
    let reloader = AppGroupReloader(
      identifiers: configuration.extensionIdentifiers, storage: storage, callDirectory: callDirectory)
    let coordinator = SyncCoordinator(
      session: session, reloader: reloader, retryPolicy: configuration.retryPolicy, sleep: sleep)
    do {
      return Self.report(try await coordinator.run())
    } catch {
      throw Self.failure(error)
    }
  }

  /// What each extension did in `run`.
  static func report(_ run: SyncRun<SnapshotIdentity>) -> SyncReport {
    var report = SyncReport(version: run.planned.plan.manifest.manifest.version, previousVersion: run.planned.previous?.version)
    for (item, step) in run.planned.plan.steps {
      switch step {
      case .upToDate: report.steps[item.index] = .upToDate
      case .unchanged: report.steps[item.index] = .unchanged
      case .full: report.steps[item.index] = .full
      case .delta: report.steps[item.index] = .delta
      }
    }
    for load in run.staged?.loads ?? [] {
      switch load.content {
      case .full: report.steps[load.index] = load.unusableDelta == nil ? .full : .fullAfterDelta
      case .delta: report.steps[load.index] = .delta
      case .empty: report.steps[load.index] = .emptied
      }
    }
    return report
  }

  /// The engine's failure as the app reports it.
  static func failure(_ error: SyncRunError<DatasetSyncError>) -> DatasetSyncError {
    switch error {
    case .device(let failure): failure
    case .cancelled: .cancelled
    case .sync(.untrusted(.fileMismatch(let path, let problem))): .fileRejected(path: path, reason: problem)
    case .sync(.untrusted(let problem)): .manifest(problem)
    case .sync(.source(.failed(_, TransportSyncSource.cancelledReason))): .cancelled
    case .sync(.source(.failed(let path, let reason))): .transport(path: path, reason: reason)
    case .sync(.source(.notFound(let path, _))): .transport(path: path, reason: "the server has no such file")
    case .sync(.source(.tooLarge(let path, let limit))): .transport(path: path, reason: "larger than \(limit) bytes")
    case .sync(.source(let problem)): .transport(path: "", reason: problem.description)
    case .sync(let problem): .storage(problem.description)
    }
  }
}
