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

  public init(dataset: String, version: Int, published: String, incrementalSyncs: Int, extensions: [Int: Int]) {
    self.dataset = dataset
    self.version = version
    self.published = published
    self.incrementalSyncs = incrementalSyncs
    self.extensions = extensions
  }
}
