import CallDirectorySync

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
/// was installed stays, and the next sync continues from it. It is also
/// what the app's device (`AppGroupReloader`) fails with in the engine.
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
  /// A downloaded blob does not fit what the extension holds (its
  /// provider would refuse it): the sync plans again from what it holds.
  case doesNotFit(identifier: String, reason: String)
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
    case .doesNotFit(let identifier, let reason): "the blob for \(identifier) does not fit: \(reason)"
    case .cancelled: "the sync was cancelled"
    }
  }
}
