/// Decides what a sync fetches and loads, from a verified manifest and
/// what the device holds. A pure function: the app and the CLI run it
/// before fetching anything.
///
/// - A device that never synced loads every extension's full snapshot.
/// - A manifest of another dataset is refused (``ManifestError/wrongDataset(expected:found:)``),
///   and so is one older than what the device holds
///   (``ManifestError/rollback(installed:offered:)``) or than the dataset's
///   rollback floor, the highest version the device ever accepted of it
///   (``ManifestError/belowRollbackFloor(dataset:floor:offered:)``):
///   nothing changes. With `allowsDowngrade`, an older manifest is planned
///   as full snapshots (``SyncPlan/isDowngrade``).
/// - The same version is up to date.
/// - After `fullEvery` consecutive incremental syncs, every extension
///   loads its full snapshot (PhoneBlock drifted without this).
/// - Otherwise each extension loads the delta from the version it holds
///   when the manifest has one, else its full snapshot; an extension the
///   manifest no longer has is emptied.
public enum SyncPlanner {
  /// - Parameters:
  ///   - trusted: The verified manifest.
  ///   - state: The state of the last sync; nil before the first (or once
  ///     it was lost, or the device reset).
  ///   - floor: The manifest's dataset's rollback floor (nil: none).
  ///   - allowsDowngrade: Whether a manifest older than `state` or `floor`
  ///     may be installed (the user's explicit choice).
  public static func plan(
    _ trusted: TrustedManifest, state: SyncState?, floor: Int? = nil, allowsDowngrade: Bool = false
  ) throws(ManifestError) -> SyncPlan {
    let manifest = trusted.manifest
    if let state, state.dataset != manifest.dataset {
      throw .wrongDataset(expected: state.dataset, found: manifest.dataset)
    }
    var isDowngrade = false
    if let state, manifest.version < state.version {
      guard allowsDowngrade else { throw .rollback(installed: state.version, offered: manifest.version) }
      isDowngrade = true
    }
    // The version the state records is the device's own: syncing it
    // again is up to date, even below a floor an allowed downgrade left.
    if let floor, manifest.version < floor, manifest.version != state?.version {
      guard allowsDowngrade else {
        throw .belowRollbackFloor(dataset: manifest.dataset, floor: floor, offered: manifest.version)
      }
      isDowngrade = true
    }
    guard let state else {
      return SyncPlan(
        manifest: trusted, steps: manifest.extensions.map { ($0, .full($0.full)) }, retired: [], isPeriodicFull: false,
        isDowngrade: isDowngrade)
    }
    let indexes = Set(manifest.extensions.map(\.index))
    let retired = state.extensions.keys.filter { !indexes.contains($0) }.sorted()
    let periodic = manifest.version > state.version && state.incrementalSyncs >= manifest.fullEvery
    var steps: [(extension: Manifest.Extension, step: SyncPlan.Step)] = []
    for item in manifest.extensions {
      let held = state.extensions[item.index]
      if held == manifest.version {
        steps.append((item, .upToDate))
      } else if !periodic, let held, let delta = item.deltas.first(where: { $0.from == held }) {
        steps.append((item, .delta(delta)))
      } else {
        steps.append((item, .full(item.full)))
      }
    }
    return SyncPlan(
      manifest: trusted, steps: steps, retired: retired, isPeriodicFull: periodic, isDowngrade: isDowngrade)
  }
}
