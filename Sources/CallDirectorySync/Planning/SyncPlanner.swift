/// Decides what a sync fetches and loads, from a verified manifest and
/// what the device holds. A pure function: the app and the CLI run it
/// before fetching anything.
///
/// - A device that never synced loads every extension's full snapshot.
/// - A manifest of another dataset is refused (``ManifestError/wrongDataset(expected:found:)``),
///   and so is one older than what the device holds
///   (``ManifestError/rollback(installed:offered:)``): nothing changes.
/// - The same version is up to date.
/// - After `fullEvery` consecutive incremental syncs, every extension
///   loads its full snapshot (PhoneBlock drifted without this).
/// - Otherwise each extension loads the delta from the version it holds
///   when the manifest has one, else its full snapshot; an extension the
///   manifest no longer has is emptied.
public enum SyncPlanner {
  public static func plan(_ trusted: TrustedManifest, state: SyncState?) throws(ManifestError) -> SyncPlan {
    let manifest = trusted.manifest
    guard let state else {
      return SyncPlan(
        manifest: trusted, steps: manifest.extensions.map { ($0, .full($0.full)) }, retired: [], isPeriodicFull: false)
    }
    guard state.dataset == manifest.dataset else {
      throw .wrongDataset(expected: state.dataset, found: manifest.dataset)
    }
    guard manifest.version >= state.version else {
      throw .rollback(installed: state.version, offered: manifest.version)
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
    return SyncPlan(manifest: trusted, steps: steps, retired: retired, isPeriodicFull: periodic)
  }
}
