import CallDirectoryProvider
import CallDirectorySync

extension DeviceLoader {
  /// `device load`'s dataset policy: a device that syncs a dataset takes
  /// no blob of another one, whose entries its sync would not know. A
  /// blob that names no dataset (built without one) is any dataset's, and
  /// a device that follows none (never synced, reset, or synced a store
  /// without a dataset name) takes any blob.
  ///
  /// - Parameters:
  ///   - candidates: The blobs to load.
  ///   - state: The device's sync state; nil when it never synced.
  /// - Returns: The first blob of another dataset than the one the device
  ///   follows, and that dataset; nil when every blob may be loaded.
  public static func otherDataset(among candidates: [BlobCandidate], syncing state: SyncState?)
    -> (candidate: BlobCandidate, followed: String)?
  {
    guard let followed = state?.dataset, !followed.isEmpty else { return nil }
    for candidate in candidates where !candidate.header.dataset.isEmpty && candidate.header.dataset != followed {
      return (candidate, followed)
    }
    return nil
  }
}
