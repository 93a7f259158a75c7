/// What one sync does, decided before anything is fetched.
public struct SyncPlan: Sendable, Hashable {
  /// How one extension gets to the manifest's version.
  public enum Step: Sendable, Hashable {
    /// It holds the version already.
    case upToDate
    /// Apply the delta from the version it holds.
    case delta(Manifest.Delta)
    /// Load the full snapshot (first sync, no delta from what it holds, or
    /// a periodic full sync after `fullEvery` incremental ones).
    case full(Manifest.File)
  }

  /// The manifest, verified.
  public var manifest: TrustedManifest
  /// One step per extension of the manifest, by index.
  public var steps: [(extension: Manifest.Extension, step: Step)]
  /// Extensions the device holds that the manifest no longer has; their
  /// entries are removed.
  public var retired: [Int]
  /// Whether this sync loads only full snapshots because `fullEvery`
  /// incremental syncs happened since the last full one.
  public var isPeriodicFull: Bool
  /// Whether the manifest is older than what the device synced or than
  /// its rollback floor, installed because the caller allowed a downgrade.
  public var isDowngrade = false

  /// Whether nothing needs loading.
  public var isUpToDate: Bool {
    retired.isEmpty && steps.allSatisfy { if case .upToDate = $0.step { true } else { false } }
  }

  /// Every file to fetch, in extension order.
  public var files: [Manifest.File] {
    steps.compactMap { step in
      switch step.step {
      case .upToDate: nil
      case .delta(let delta): delta.file
      case .full(let file): file
      }
    }
  }

  /// The state the device holds once every step has loaded.
  public func resultingState(after previous: SyncState?) -> SyncState {
    let loadsDelta = steps.contains { if case .delta = $0.step { true } else { false } }
    let incremental = isUpToDate ? (previous?.incrementalSyncs ?? 0) : (loadsDelta ? (previous?.incrementalSyncs ?? 0) + 1 : 0)
    return SyncState(
      dataset: manifest.manifest.dataset, version: manifest.manifest.version, published: manifest.manifest.published,
      incrementalSyncs: incremental,
      extensions: Dictionary(uniqueKeysWithValues: manifest.manifest.extensions.map { ($0.index, manifest.manifest.version) }))
  }

  public static func == (left: SyncPlan, right: SyncPlan) -> Bool {
    left.manifest == right.manifest && left.retired == right.retired && left.isPeriodicFull == right.isPeriodicFull
      && left.isDowngrade == right.isDowngrade
      && left.steps.elementsEqual(right.steps) { $0.extension == $1.extension && $0.step == $1.step }
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(manifest)
    hasher.combine(retired)
  }
}
