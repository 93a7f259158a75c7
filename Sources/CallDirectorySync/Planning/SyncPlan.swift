/// What one sync does, decided before anything is fetched.
public struct SyncPlan: Sendable, Hashable {
  /// How one extension gets to the manifest's version.
  public enum Step: Sendable, Hashable {
    /// It holds the version already.
    case upToDate
    /// It holds the version's content (its content digest is the one the
    /// manifest names for it) under an older version: no reload request at
    /// all. The caller records the manifest's version as what the
    /// extension holds, in the extension's own state too (in
    /// `CallDirectoryProvider`, `ProviderStateStore.recordSameContent(as:)`),
    /// so that the next build's delta from this version applies to it.
    case unchanged
    /// Apply the delta from the version it holds.
    case delta(Manifest.Delta)
    /// Load the full snapshot (first sync, no delta from what it holds, a
    /// delta that would reload more entries than the full snapshot, or a
    /// periodic full sync after `fullEvery` incremental ones).
    case full(Manifest.File)

    /// The entries the extension's reload adds or removes (``ReloadCost``):
    /// none when it is up to date or unchanged (no request), a delta's adds
    /// plus removes, a full snapshot's entries. Nil for a delta whose
    /// counts the manifest does not give.
    public func reloadEntries(of item: Manifest.Extension) -> Int? {
      switch self {
      case .upToDate, .unchanged: 0
      case .delta(let delta): delta.entries
      case .full: item.entries
      }
    }

    /// Whether the step makes a reload request.
    public var reloads: Bool {
      switch self {
      case .upToDate, .unchanged: false
      case .delta, .full: true
      }
    }
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
      case .upToDate, .unchanged: nil
      case .delta(let delta): delta.file
      case .full(let file): file
      }
    }
  }

  /// The extensions whose content is the manifest's already under an older
  /// version (``Step/unchanged``), by index: no request, their recorded
  /// version moves to the manifest's.
  public var unchanged: [Manifest.Extension] {
    steps.compactMap { if case .unchanged = $0.step { $0.extension } else { nil } }
  }

  /// The entries every reload of the plan adds or removes
  /// (``Step/reloadEntries(of:)``), nil when a delta's counts are unknown.
  /// An extension the plan empties costs none (its entries go at once).
  public var reloadEntries: Int? {
    var total = 0
    for (item, step) in steps {
      guard let entries = step.reloadEntries(of: item) else { return nil }
      total = total.addingClamped(entries)
    }
    return total
  }

  /// The state the device holds once every step has loaded: the manifest's
  /// version and content digests for every extension. A sync that loaded a
  /// delta counts as one more incremental sync, one that loaded only full
  /// snapshots restarts the count, and one that loaded nothing (every
  /// extension up to date or unchanged) keeps it.
  public func resultingState(after previous: SyncState?) -> SyncState {
    let loadsDelta = steps.contains { if case .delta = $0.step { true } else { false } }
    let loadsFull = !retired.isEmpty || steps.contains { if case .full = $0.step { true } else { false } }
    let kept = previous?.incrementalSyncs ?? 0
    let incremental = loadsDelta ? kept + 1 : (loadsFull ? 0 : kept)
    let manifest = manifest.manifest
    return SyncState(
      dataset: manifest.dataset, version: manifest.version, published: manifest.published,
      incrementalSyncs: incremental,
      extensions: Dictionary(uniqueKeysWithValues: manifest.extensions.map { ($0.index, manifest.version) }),
      digests: Dictionary(
        uniqueKeysWithValues: manifest.extensions.compactMap { item in item.digest.map { (item.index, $0) } }))
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
