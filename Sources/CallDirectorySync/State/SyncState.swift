/// What a device holds of a dataset, as its last successful sync recorded
/// it. The app keeps it (the CLI in the device's directory), and writes it
/// only after every extension loaded: a failed or interrupted sync leaves
/// the previous state, so the next one starts over from it.
public struct SyncState: Sendable, Hashable {
  /// The dataset the device follows; only a reset changes it.
  public var dataset: String
  /// The version every extension holds.
  public var version: Int
  /// The installed manifest's publish time.
  public var published: String
  /// Consecutive syncs that loaded at least one delta since the last one
  /// that loaded only full snapshots.
  public var incrementalSyncs: Int
  /// The extensions the device holds, by index, with the version each holds.
  public var extensions: [Int: Int]
  /// The content digest (SHA-256, lowercase hex) each extension holds, by
  /// index, where known: the manifest's `digest` for it (a manifest
  /// written before the key existed gives none). ``SyncPlanner`` judges by
  /// it whether an extension needs a reload at all.
  public var digests: [Int: String]

  public init(
    dataset: String, version: Int, published: String, incrementalSyncs: Int, extensions: [Int: Int],
    digests: [Int: String] = [:]
  ) {
    self.dataset = dataset
    self.version = version
    self.published = published
    self.incrementalSyncs = incrementalSyncs
    self.extensions = extensions
    self.digests = digests
  }

  /// What extension `index` holds by this state; nil when the state does
  /// not list it.
  public func held(_ index: Int) -> HeldSnapshot? {
    extensions[index].map { HeldSnapshot(version: $0, digest: digests[index]) }
  }
}

/// The snapshot one extension holds: its version and, when known, the
/// content digest of its entries (SHA-256, lowercase hex). An app reads it
/// from the extension's provider state (`CallDirectoryProvider`'s
/// `ProviderState.heldSnapshot`) and passes it to
/// ``SyncSession/plan(_:held:allowingDowngrade:)``, so that a sync plans
/// from what each extension says it holds.
public struct HeldSnapshot: Sendable, Hashable {
  public var version: Int
  public var digest: String?

  public init(version: Int, digest: String?) {
    self.version = version
    self.digest = digest
  }
}
