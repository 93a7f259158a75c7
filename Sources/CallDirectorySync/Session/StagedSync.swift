/// A sync whose manifest is verified and planned against the device's
/// state (``SyncSession/plan(held:)``), before anything is fetched.
public struct PlannedSync: Sendable, Hashable {
  /// What to fetch and load.
  public var plan: SyncPlan
  /// The state of the last sync; nil before the first.
  public var previous: SyncState?
  /// The manifest's dataset's rollback floor before the sync: the highest
  /// version the device accepted of it (nil: none).
  public var rollbackFloor: Int?

  public init(plan: SyncPlan, previous: SyncState?, rollbackFloor: Int? = nil) {
    self.plan = plan
    self.previous = previous
    self.rollbackFloor = rollbackFloor
  }

  /// Whether the device holds the manifest's version already.
  public var isUpToDate: Bool { plan.isUpToDate }

  /// The extensions the sync changes, by index: those it loads, those
  /// whose recorded version moves without a reload (``SyncPlan/Step/unchanged``)
  /// and those it empties.
  public var changedExtensions: [Int] {
    plan.steps.compactMap { if case .upToDate = $0.step { nil } else { $0.extension.index } } + plan.retired
  }
}

/// What one extension loads once every file of the sync is verified.
public struct StagedLoad: Sendable, Hashable {
  /// What the staged blob is.
  public enum Content: Sendable, Hashable {
    /// The delta from the version the extension holds.
    case delta(Manifest.Delta)
    /// The extension's full snapshot.
    case full(Manifest.File)
    /// An empty full snapshot of the manifest's version: the manifest no
    /// longer has the extension, so its entries are removed.
    case empty
  }

  /// The extension's index.
  public var index: Int
  public var content: Content
  /// The blob to load (in the staging area).
  public var path: String
  /// How the file was fetched; nil for ``Content/empty``.
  public var staged: StagedFile?
  /// The delta the plan chose that the source did not have (it answered
  /// "not found"): the full snapshot is loaded instead.
  public var missingDelta: Manifest.Delta?
  /// The delta the extension could not apply, and why
  /// (``SyncSession/fallBackToFull(extension:in:because:)``): the full
  /// snapshot is loaded instead.
  public var unusableDelta: (delta: Manifest.Delta, reason: String)?
  /// The lock that keeps the blob staged until the sync no longer needs it
  /// (the staged file's, or that of an empty snapshot).
  let pin: _StagingPin?

  public init(
    index: Int, content: Content, path: String, staged: StagedFile?, missingDelta: Manifest.Delta? = nil,
    unusableDelta: (delta: Manifest.Delta, reason: String)? = nil
  ) {
    self.init(
      index: index, content: content, path: path, staged: staged, missingDelta: missingDelta,
      unusableDelta: unusableDelta, pin: staged?.pin)
  }

  init(
    index: Int, content: Content, path: String, staged: StagedFile?, missingDelta: Manifest.Delta? = nil,
    unusableDelta: (delta: Manifest.Delta, reason: String)? = nil, pin: _StagingPin?
  ) {
    self.index = index
    self.content = content
    self.path = path
    self.staged = staged
    self.missingDelta = missingDelta
    self.unusableDelta = unusableDelta
    self.pin = pin
  }

  /// Whether it loads a delta.
  public var isDelta: Bool {
    if case .delta = content { true } else { false }
  }

  public static func == (left: StagedLoad, right: StagedLoad) -> Bool {
    left.index == right.index && left.content == right.content && left.path == right.path
      && left.staged == right.staged && left.missingDelta == right.missingDelta
      && left.unusableDelta?.delta == right.unusableDelta?.delta
      && left.unusableDelta?.reason == right.unusableDelta?.reason
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(index)
    hasher.combine(path)
  }
}

/// A sync whose files are all downloaded and verified
/// (``SyncSession/stage(_:)``): what to load, extension by extension, and
/// the state to record once every load succeeded.
public struct StagedSync: Sendable, Hashable {
  /// The plan, with every missing delta replaced by its full snapshot.
  public var plan: SyncPlan
  /// The state of the last sync; nil before the first.
  public var previous: SyncState?
  /// The loads, by extension: the manifest's, then the retired ones.
  public var loads: [StagedLoad]

  public init(plan: SyncPlan, previous: SyncState?, loads: [StagedLoad]) {
    self.plan = plan
    self.previous = previous
    self.loads = loads
  }

  /// The bytes fetched from the source for the files (not counting the
  /// manifest and its signature).
  public var downloadedBytes: Int64 { loads.reduce(0) { $0 + ($1.staged?.downloadedBytes ?? 0) } }

  /// The state to record once every extension loaded.
  public var resultingState: SyncState { plan.resultingState(after: previous) }
}
