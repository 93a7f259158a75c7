import CallDirectoryFormat

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
///   as full snapshots (``SyncPlan/isDowngrade``), but for the extensions
///   that hold its content already.
/// - The same version is up to date (unless the extension is known to
///   hold other content under it: a rebuilt store; then its full snapshot).
/// - **An extension whose content digest is already the one the manifest
///   names for it** is ``SyncPlan/Step/unchanged``: no reload request at
///   all, not even an empty delta, whatever its version, a periodic full
///   sync or a downgrade; its recorded version moves to the manifest's.
/// - After `fullEvery` consecutive incremental syncs, every extension that
///   changed loads its full snapshot (PhoneBlock drifted without this).
/// - Otherwise each extension loads the delta from the version it holds
///   when the manifest has one and the delta adds and removes no more
///   entries than the full snapshot holds (``ReloadCost``: what the phone
///   reloads, not the bytes downloaded), else its full snapshot; an
///   extension the manifest no longer has is emptied.
///
/// A manifest written before extensions' `digest` and deltas' `adds` and
/// `removes` existed is planned as it always was: by version, and with
/// the delta whenever the manifest lists one.
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
    let steps = manifest.extensions.map { item in
      (item, step(for: item, version: manifest.version, held: state.held(item.index), fullOnly: periodic || isDowngrade))
    }
    return SyncPlan(
      manifest: trusted, steps: steps, retired: retired, isPeriodicFull: periodic, isDowngrade: isDowngrade)
  }

  /// How one extension gets to `item`, the manifest's extension at
  /// `version`, from what it holds: the rules of the type, for one
  /// extension (`calldir build --json` plans a device one version behind
  /// with it). ``SnapshotPlanner`` decides, with the held content judged
  /// first and at any version (the caller records an unchanged
  /// extension's new version); the manifest's full snapshot and its deltas
  /// (by base version: a manifest names no base digest) are the offers,
  /// and ``ReloadCost`` has the last word on a delta.
  ///
  /// - Parameters:
  ///   - held: What the extension holds; nil when nothing is known (it
  ///     loads its full snapshot).
  ///   - fullOnly: Whether a changed extension loads its full snapshot
  ///     whatever deltas there are (a periodic full sync, a downgrade).
  public static func step(
    for item: Manifest.Extension, version: Int, held: HeldSnapshot?, fullOnly: Bool = false
  ) -> SyncPlan.Step {
    let target = Planner.Snapshot(version: version, digest: item.digest)
    let deltas = fullOnly
      ? [] : item.deltas.map { Planner.Delta(base: Planner.Snapshot(version: $0.from, digest: nil), target: target) }
    let held = held.map { Planner.Snapshot(version: $0.version, digest: $0.digest) }
    switch planner.choose(held: held, fulls: [target], deltas: deltas) {
    case .upToDate: return .upToDate
    case .sameContent: return .unchanged
    case .delta(let index) where ReloadCost.prefersDelta(item.deltas[index], over: item):
      return .delta(item.deltas[index])
    case .delta, .full, nil: return .full(item.full)
    }
  }

  typealias Planner = SnapshotPlanner<Int, String>

  /// The core's rules as a sync needs them: no reload for content an
  /// extension holds, whatever its version.
  static let planner = Planner(.init(sameContentBeforeDeltas: true, newerSameContentNeedsNoReload: true))
}
