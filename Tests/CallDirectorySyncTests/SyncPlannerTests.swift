import CallDirectorySync
import Sodium
import Testing

/// Every rule of ``SyncPlanner``, on manifests signed and verified as a
/// device would.
@Suite struct SyncPlannerTests {
  static let keys = Ed25519.keyPair()!

  static func file(_ name: String) -> Manifest.File {
    Manifest.File(path: name, bytes: 100, sha256: String(repeating: "a", count: 64))
  }

  /// Extension `index` of version `version` with deltas from `from`.
  static func item(_ index: Int, version: Int, deltasFrom from: [Int] = []) -> Manifest.Extension {
    Manifest.Extension(
      index: index, lower: Int64(index) * 1_000_000_000, upper: Int64(index) * 1_000_000_000 + 999_999_999,
      counts: Manifest.Counts(blocking: 10, identification: 2), full: file("snapshots/\(version)-\(index).cdir"),
      deltas: from.map { Manifest.Delta(from: $0, file: file("deltas/\($0)-\(version)-\(index).cdir")) })
  }

  static func trusted(
    version: Int, extensions: Int = 1, deltasFrom: [Int] = [], fullEvery: Int = 30, dataset: String = "com.example"
  ) throws -> TrustedManifest {
    let manifest = Manifest(
      dataset: dataset, version: version, published: "2026-12-01T03:00:00Z", fullEvery: fullEvery,
      extensions: (1...extensions).map { item($0, version: version, deltasFrom: deltasFrom) })
    let bytes = manifest.serialized()
    let signature = try #require(Ed25519.sign(bytes, with: keys))
    return try ManifestTrust(publicKey: keys.publicKey, verifier: SodiumSignatureVerifier())
      .verify(manifest: bytes, signature: Array(Base64.encode(signature).utf8))
  }

  static func state(version: Int, extensions: [Int: Int]? = nil, incremental: Int = 0, dataset: String = "com.example")
    -> SyncState
  {
    SyncState(
      dataset: dataset, version: version, published: "2026-11-01T03:00:00Z", incrementalSyncs: incremental,
      extensions: extensions ?? [1: version])
  }

  @Test func aFirstSyncLoadsEveryFullSnapshotAndAdoptsTheDataset() throws {
    let manifest = try Self.trusted(version: 5, extensions: 3, deltasFrom: [4, 3])
    let plan = try SyncPlanner.plan(manifest, state: nil)
    #expect(plan.steps.map(\.step) == manifest.manifest.extensions.map { .full($0.full) })
    #expect(plan.retired.isEmpty && !plan.isPeriodicFull && !plan.isUpToDate)
    let state = plan.resultingState(after: nil)
    #expect(state.dataset == "com.example" && state.version == 5 && state.incrementalSyncs == 0)
    #expect(state.extensions == [1: 5, 2: 5, 3: 5])
  }

  @Test func theSameVersionIsUpToDate() throws {
    let previous = Self.state(version: 5, incremental: 3)
    let plan = try SyncPlanner.plan(try Self.trusted(version: 5, deltasFrom: [4]), state: previous)
    #expect(plan.isUpToDate && plan.files.isEmpty)
    #expect(plan.resultingState(after: previous).incrementalSyncs == 3)
  }

  @Test func eachExtensionTakesTheDeltaFromTheVersionItHolds() throws {
    let manifest = try Self.trusted(version: 5, extensions: 2, deltasFrom: [4, 3])
    let previous = Self.state(version: 3, extensions: [1: 3, 2: 4])
    let plan = try SyncPlanner.plan(manifest, state: previous)
    let items = manifest.manifest.extensions
    #expect(plan.steps.map(\.step) == [.delta(items[0].deltas[1]), .delta(items[1].deltas[0])])
    #expect(plan.files.map(\.path) == ["deltas/3-5-1.cdir", "deltas/4-5-2.cdir"])
    let state = plan.resultingState(after: Self.state(version: 3, incremental: 1))
    #expect(state.incrementalSyncs == 2 && state.extensions == [1: 5, 2: 5])
  }

  @Test func withoutADeltaFromTheHeldVersionTheFullSnapshotLoads() throws {
    // Version 2 is beyond the manifest's delta history.
    let manifest = try Self.trusted(version: 9, deltasFrom: [8, 7, 6])
    let plan = try SyncPlanner.plan(manifest, state: Self.state(version: 2, incremental: 4))
    #expect(plan.steps.map(\.step) == [.full(manifest.manifest.extensions[0].full)])
    #expect(!plan.isPeriodicFull)
    #expect(plan.resultingState(after: Self.state(version: 2, incremental: 4)).incrementalSyncs == 0)
  }

  @Test func anOlderManifestIsARollback() throws {
    #expect(throws: ManifestError.rollback(installed: 5, offered: 3)) {
      try SyncPlanner.plan(try Self.trusted(version: 3), state: Self.state(version: 5))
    }
  }

  /// The rollback floor outlives the state: a replay below it is refused
  /// on a device that lost its state (or was reset), and only an explicit
  /// downgrade installs it, as full snapshots.
  @Test func aManifestBelowTheRollbackFloorIsRefusedUnlessADowngradeIsAllowed() throws {
    let replay = try Self.trusted(version: 3, extensions: 2, deltasFrom: [2])
    #expect(throws: ManifestError.belowRollbackFloor(dataset: "com.example", floor: 5, offered: 3)) {
      try SyncPlanner.plan(replay, state: nil, floor: 5)
    }
    #expect(throws: ManifestError.rollback(installed: 4, offered: 3)) {
      try SyncPlanner.plan(replay, state: Self.state(version: 4, extensions: [1: 4, 2: 4]), floor: 5)
    }
    var plan = try SyncPlanner.plan(replay, state: nil, floor: 5, allowsDowngrade: true)
    #expect(plan.isDowngrade && plan.steps.map(\.step) == replay.manifest.extensions.map { .full($0.full) })
    plan = try SyncPlanner.plan(
      replay, state: Self.state(version: 4, extensions: [1: 4, 2: 4]), floor: 5, allowsDowngrade: true)
    #expect(plan.isDowngrade && plan.steps.map(\.step) == replay.manifest.extensions.map { .full($0.full) })
    #expect(plan.resultingState(after: Self.state(version: 4)).version == 3)

    // At or above the floor, allowed or not, nothing is a downgrade.
    for floor in [nil, 2, 3] {
      plan = try SyncPlanner.plan(replay, state: nil, floor: floor, allowsDowngrade: floor == 2)
      #expect(!plan.isDowngrade, "floor \(String(describing: floor))")
    }
    // The version the state records is up to date, even below the floor
    // an allowed downgrade left.
    plan = try SyncPlanner.plan(replay, state: Self.state(version: 3, extensions: [1: 3, 2: 3]), floor: 5)
    #expect(plan.isUpToDate && !plan.isDowngrade)
    // Another dataset's floor is not this one's: the caller passes the
    // manifest's dataset's floor, and the dataset check comes first.
    #expect(throws: ManifestError.wrongDataset(expected: "org.other", found: "com.example")) {
      try SyncPlanner.plan(replay, state: Self.state(version: 9, dataset: "org.other"), floor: 5, allowsDowngrade: true)
    }
  }

  @Test func anotherDatasetIsRefused() throws {
    #expect(throws: ManifestError.wrongDataset(expected: "com.example", found: "org.other")) {
      try SyncPlanner.plan(try Self.trusted(version: 6, dataset: "org.other"), state: Self.state(version: 5))
    }
  }

  @Test func afterFullEveryIncrementalSyncsFullSnapshotsLoad() throws {
    let manifest = try Self.trusted(version: 6, extensions: 2, deltasFrom: [5], fullEvery: 3)
    // Two incremental syncs so far: the third is still a delta.
    var previous = Self.state(version: 5, extensions: [1: 5, 2: 5], incremental: 2)
    var plan = try SyncPlanner.plan(manifest, state: previous)
    #expect(!plan.isPeriodicFull && plan.steps.allSatisfy { if case .delta = $0.step { true } else { false } })
    #expect(plan.resultingState(after: previous).incrementalSyncs == 3)
    // Three: full snapshots, and the count starts over.
    previous.incrementalSyncs = 3
    plan = try SyncPlanner.plan(manifest, state: previous)
    #expect(plan.isPeriodicFull)
    #expect(plan.steps.map(\.step) == manifest.manifest.extensions.map { .full($0.full) })
    #expect(plan.resultingState(after: previous).incrementalSyncs == 0)
    // Up to date is never periodic.
    previous.version = 6
    previous.extensions = [1: 6, 2: 6]
    #expect(try SyncPlanner.plan(manifest, state: previous).isUpToDate)
  }

  @Test func extensionsAddedLoadFullAndExtensionsRetiredAreEmptied() throws {
    // Held: 1, 2, 3. The manifest: 1, 2 (fewer shards) …
    var manifest = try Self.trusted(version: 4, extensions: 2, deltasFrom: [3])
    var plan = try SyncPlanner.plan(manifest, state: Self.state(version: 3, extensions: [1: 3, 2: 3, 3: 3]))
    #expect(plan.retired == [3] && !plan.isUpToDate)
    #expect(plan.resultingState(after: nil).extensions == [1: 4, 2: 4])
    // … or 1, 2, 3, 4 (more shards): the new one loads its full snapshot.
    manifest = try Self.trusted(version: 4, extensions: 4, deltasFrom: [3])
    plan = try SyncPlanner.plan(manifest, state: Self.state(version: 3, extensions: [1: 3, 2: 3, 3: 3]))
    #expect(plan.retired.isEmpty)
    let items = manifest.manifest.extensions
    #expect(plan.steps.map(\.step) == [.delta(items[0].deltas[0]), .delta(items[1].deltas[0]), .delta(items[2].deltas[0]), .full(items[3].full)])
    // The same version with a retired extension still has work to do.
    manifest = try Self.trusted(version: 3, extensions: 1)
    plan = try SyncPlanner.plan(manifest, state: Self.state(version: 3, extensions: [1: 3, 2: 3]))
    #expect(!plan.isUpToDate && plan.retired == [2] && plan.steps.map(\.step) == [.upToDate])
  }
}
