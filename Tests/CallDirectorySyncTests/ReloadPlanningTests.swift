import CallDirectoryFormat
import CallDirectorySync
import Foundation
import Sodium
import Testing

/// The phone pays only for what changed: ``SyncPlanner`` never reloads an
/// extension that holds the content digest the manifest names for it, and
/// plans every other one by the entries the phone reloads
/// (``ReloadCost``), not by the bytes it downloads; a manifest without the
/// keys that say so is planned as it always was.
@Suite struct ReloadPlanningTests {
  static let keys = Ed25519.keyPair()!
  static let digestA = String(repeating: "a", count: 64)
  static let digestB = String(repeating: "b", count: 64)
  static let digestC = String(repeating: "c", count: 64)

  static func file(_ name: String, bytes: Int64) -> Manifest.File {
    Manifest.File(path: name, bytes: bytes, sha256: String(repeating: "e", count: 64))
  }

  /// Extension `index` of `version`: 1,000 entries in a full blob of
  /// `fullBytes`, with `deltas` (from, bytes, adds, removes).
  static func item(
    _ index: Int, version: Int, digest: String?, fullBytes: Int64 = 100,
    deltas: [(from: Int, bytes: Int64, adds: Int?, removes: Int?)] = []
  ) -> Manifest.Extension {
    Manifest.Extension(
      index: index, lower: Int64(index) * 1_000_000_000, upper: Int64(index) * 1_000_000_000 + 999_999_999,
      counts: Manifest.Counts(blocking: 900, identification: 100), digest: digest,
      full: file("snapshots/\(version)-\(index).cdir", bytes: fullBytes),
      deltas: deltas.map {
        Manifest.Delta(
          from: $0.from, file: file("deltas/\($0.from)-\(version)-\(index).cdir", bytes: $0.bytes), adds: $0.adds,
          removes: $0.removes)
      })
  }

  static func trusted(version: Int, _ items: [Manifest.Extension], fullEvery: Int = 30) throws -> TrustedManifest {
    let manifest = Manifest(
      dataset: "com.example", version: version, published: "2026-12-01T03:00:00Z", fullEvery: fullEvery,
      extensions: items)
    let bytes = manifest.serialized()
    let signature = try #require(Ed25519.sign(bytes, with: keys))
    return try ManifestTrust(publicKey: keys.publicKey, verifier: SodiumSignatureVerifier())
      .verify(manifest: bytes, signature: Array(Base64.encode(signature).utf8))
  }

  static func state(version: Int, _ extensions: [Int: Int], digests: [Int: String] = [:], incremental: Int = 0)
    -> SyncState
  {
    SyncState(
      dataset: "com.example", version: version, published: "2026-11-01T03:00:00Z", incrementalSyncs: incremental,
      extensions: extensions, digests: digests)
  }

  @Test func anExtensionThatHoldsTheManifestsDigestIsNeverReloaded() async throws {
    // Extension 1 was left as it was (no delta: the build writes none);
    // extension 2 changed.
    let manifest = try Self.trusted(version: 5, [
      Self.item(1, version: 5, digest: Self.digestA),
      Self.item(2, version: 5, digest: Self.digestB, deltas: [(4, 300, 3, 2)]),
    ])
    let items = manifest.manifest.extensions
    let previous = Self.state(version: 4, [1: 4, 2: 4], digests: [1: Self.digestA, 2: Self.digestC], incremental: 2)
    let plan = try SyncPlanner.plan(manifest, state: previous)
    #expect(plan.steps.map(\.step) == [.unchanged, .delta(items[1].deltas[0])])
    #expect(!plan.isUpToDate && plan.unchanged == [items[0]])
    #expect(plan.files == [items[1].deltas[0].file])
    #expect(plan.steps.map { $0.step.reloads } == [false, true])
    #expect(plan.steps.map { $0.step.reloadEntries(of: $0.extension) } == [0, 5])
    #expect(plan.reloadEntries == 5)
    let next = plan.resultingState(after: previous)
    #expect(next.version == 5 && next.extensions == [1: 5, 2: 5])
    #expect(next.digests == [1: Self.digestA, 2: Self.digestB])
    #expect(next.incrementalSyncs == 3)

    // Held under any older version, and even when the manifest lists a
    // delta from it (an empty one, as an older build published): no reload.
    let listed = try Self.trusted(version: 5, [Self.item(1, version: 5, digest: Self.digestA, deltas: [(2, 336, 0, 0)])])
    let held = try SyncPlanner.plan(listed, state: Self.state(version: 2, [1: 2], digests: [1: Self.digestA]))
    #expect(held.steps.map(\.step) == [.unchanged] && held.files.isEmpty && held.reloadEntries == 0)
    // A sync that loads nothing keeps the count of incremental syncs.
    #expect(held.resultingState(after: Self.state(version: 2, [1: 2], incremental: 4)).incrementalSyncs == 4)

    // A periodic full sync and an allowed downgrade reload only what changed.
    let periodic = try SyncPlanner.plan(
      manifest, state: Self.state(version: 4, [1: 4, 2: 4], digests: [1: Self.digestA, 2: Self.digestC], incremental: 30))
    #expect(periodic.isPeriodicFull && periodic.steps.map(\.step) == [.unchanged, .full(items[1].full)])
    #expect(periodic.resultingState(after: nil).incrementalSyncs == 0)
    let downgrade = try SyncPlanner.plan(
      manifest, state: Self.state(version: 7, [1: 7, 2: 7], digests: [1: Self.digestA, 2: Self.digestC]),
      allowsDowngrade: true)
    #expect(downgrade.isDowngrade && downgrade.steps.map(\.step) == [.unchanged, .full(items[1].full)])

    // The same version and digest is up to date; a first sync loads everything.
    #expect(try SyncPlanner.plan(manifest, state: Self.state(version: 5, [1: 5, 2: 5], digests: [1: Self.digestA, 2: Self.digestB])).isUpToDate)
    #expect(try SyncPlanner.plan(manifest, state: nil).steps.map(\.step) == items.map { .full($0.full) })
  }

  @Test func theSameVersionWithOtherContentLoadsItsFullSnapshot() async throws {
    // The store was rebuilt: version 5 is other entries than the phone's.
    let manifest = try Self.trusted(version: 5, [Self.item(1, version: 5, digest: Self.digestA, deltas: [(4, 30, 1, 1)])])
    let plan = try SyncPlanner.plan(manifest, state: Self.state(version: 5, [1: 5], digests: [1: Self.digestC]))
    #expect(plan.steps.map(\.step) == [.full(manifest.manifest.extensions[0].full)])
    #expect(plan.reloadEntries == 1000)
  }

  @Test func aSmallDeltaBeatsAFullReloadEvenWhenTheFullBlobIsSmaller() async throws {
    let previous = Self.state(version: 4, [1: 4], digests: [1: Self.digestC])
    // 50 times the full blob's bytes, 5 entries against 1,000.
    var manifest = try Self.trusted(version: 5, [Self.item(1, version: 5, digest: Self.digestA, fullBytes: 100, deltas: [(4, 5000, 3, 2)])])
    var plan = try SyncPlanner.plan(manifest, state: previous)
    #expect(plan.steps.map(\.step) == [.delta(manifest.manifest.extensions[0].deltas[0])] && plan.reloadEntries == 5)
    // As many entries as the full snapshot: still the delta.
    manifest = try Self.trusted(version: 5, [Self.item(1, version: 5, digest: Self.digestA, deltas: [(4, 90, 600, 400)])])
    #expect(try SyncPlanner.plan(manifest, state: previous).steps.map(\.step) == [.delta(manifest.manifest.extensions[0].deltas[0])])
    // More entries than the full snapshot, however few bytes: the full snapshot.
    manifest = try Self.trusted(version: 5, [Self.item(1, version: 5, digest: Self.digestA, deltas: [(4, 90, 700, 301)])])
    plan = try SyncPlanner.plan(manifest, state: previous)
    #expect(plan.steps.map(\.step) == [.full(manifest.manifest.extensions[0].full)] && plan.reloadEntries == 1000)

    #expect(ReloadCost.secondsPerEntry == 9e-6)
    #expect(abs(ReloadCost.seconds(entries: 1_440_000) - 12.96) < 1e-9)
  }

  @Test func aManifestWithoutDigestsOrCountsIsPlannedAsBefore() async throws {
    // Written before the keys existed: the delta whenever one is listed,
    // however large, and the version alone says what is up to date.
    let item = Self.item(1, version: 5, digest: nil, fullBytes: 100, deltas: [(4, 5000, nil, nil)])
    let manifest = try Self.trusted(version: 5, [item])
    let text = String(decoding: manifest.bytes, as: UTF8.self)
    #expect(!text.contains("digest") && !text.contains("adds") && !text.contains("removes"))
    #expect(try Manifest(parsing: manifest.bytes) == manifest.manifest)
    for digests in [[:], [1: Self.digestA]] {
      let plan = try SyncPlanner.plan(manifest, state: Self.state(version: 4, [1: 4], digests: digests))
      #expect(plan.steps.map(\.step) == [.delta(item.deltas[0])])
      #expect(plan.steps[0].step.reloadEntries(of: item) == nil && plan.reloadEntries == nil)
      #expect(try SyncPlanner.plan(manifest, state: Self.state(version: 5, [1: 5], digests: digests)).isUpToDate)
      #expect(plan.resultingState(after: nil).digests.isEmpty)
    }
    // A state written before digests existed, against a new manifest: by version.
    let described = try Self.trusted(version: 5, [Self.item(1, version: 5, digest: Self.digestA, deltas: [(4, 50, 2, 2)])])
    #expect(try SyncPlanner.plan(described, state: Self.state(version: 4, [1: 4])).steps.map(\.step)
      == [.delta(described.manifest.extensions[0].deltas[0])])
  }

  @Test func theNewKeysRoundTripInTheirPlaceAndAreChecked() async throws {
    let manifest = try Self.trusted(version: 5, [Self.item(1, version: 5, digest: Self.digestA, deltas: [(4, 50, 3, 2)])])
    let text = String(decoding: manifest.bytes, as: UTF8.self)
    #expect(text.contains(#""identification":100},"digest":"\#(Self.digestA)","full":{"#), "\(text)")
    #expect(text.contains(#""sha256":"\#(String(repeating: "e", count: 64))","adds":3,"removes":2}"#), "\(text)")
    #expect(try Manifest(parsing: manifest.bytes) == manifest.manifest)

    func parse(_ old: String, _ new: String) throws -> Manifest {
      try Manifest(parsing: Array(text.replacingOccurrences(of: old, with: new).utf8))
    }
    #expect(throws: ManifestError.malformed("manifest.extensions[0].digest: expected 64 lowercase hex digits")) {
      try parse(Self.digestA, Self.digestA.uppercased())
    }
    #expect(throws: ManifestError.malformed("manifest.extensions[0].digest: expected a string")) {
      try parse("\"\(Self.digestA)\"", "7")
    }
    #expect(throws: ManifestError.malformed(
      "manifest.extensions[0].deltas[0]: 'adds' and 'removes' go together, it has only 'adds'")) {
      try parse(#","removes":2"#, "")
    }
    #expect(throws: ManifestError.malformed("manifest.extensions[0].deltas[0].adds: expected at least 0, got -3")) {
      try parse(#""adds":3"#, #""adds":-3"#)
    }
    #expect(throws: ManifestError.malformed("manifest.extensions[0].deltas[0].removes: expected an integer")) {
      try parse(#""removes":2"#, #""removes":"2""#)
    }
  }

  @Test func theSyncStateKeepsEachExtensionsDigest() async throws {
    let directory = try TemporaryDirectory()
    let store = SyncStateStore(path: directory.path + "/state.json")
    let state = Self.state(version: 5, [1: 5, 2: 5, 3: 4], digests: [1: Self.digestA, 3: Self.digestC])
    try store.save(state)
    #expect(try store.load() == state)
    let text = try String(contentsOfFile: store.path, encoding: .utf8)
    #expect(text.contains(#"{"index":1,"version":5,"digest":"\#(Self.digestA)"},{"index":2,"version":5},"#), "\(text)")
    #expect(state.held(1) == HeldSnapshot(version: 5, digest: Self.digestA))
    #expect(state.held(2) == HeldSnapshot(version: 5, digest: nil) && state.held(4) == nil)

    // A state written before the key existed reads as one without digests.
    try Data(#"{"dataset":"com.example","version":5,"published":"2026-11-01T03:00:00Z","incrementalSyncs":0,"extensions":[{"index":1,"version":5}]}"#.utf8)
      .write(to: URL(fileURLWithPath: store.path))
    #expect(try store.load()?.digests == [:])
    try Data(text.replacingOccurrences(of: Self.digestA, with: "xyz").utf8).write(to: URL(fileURLWithPath: store.path))
    #expect(throws: SyncError.stateMalformed(
      path: store.path, reason: "extensions[0].digest: expected 64 lowercase hex digits")) {
      try store.load()
    }
  }

  @Test func aDownloadedBlobMustMakeTheDigestAndCountsTheManifestNames() async throws {
    let base = StoreFixture.snapshot(version: 4)
    let target = StoreFixture.snapshot(version: 5)
    let full = try BlobReader.readHeader(bytes: try target.encoded())
    let delta = try BlobReader.readHeader(bytes: try SnapshotDelta(from: base, to: target).encoded())
    #expect(delta.addedEntries > 0 && delta.removedEntries > 0 && full.removedEntries == 0)
    #expect(full.addedEntries == UInt64(target.blocking.count + target.identification.count))
    #expect(delta.reloadEntries == delta.addedEntries + delta.removedEntries)
    func manifest(digest: String, adds: Int, removes: Int) -> Manifest {
      Manifest(
        dataset: "", version: 5, published: "2026-12-01T03:00:00Z", fullEvery: 30,
        extensions: [
          Manifest.Extension(
            index: 1, lower: 1, upper: 99_999_999_999,
            counts: Manifest.Counts(blocking: target.blocking.count, identification: target.identification.count),
            digest: digest, full: Self.file("full", bytes: 10),
            deltas: [Manifest.Delta(from: 4, file: Self.file("delta", bytes: 10), adds: adds, removes: removes)])
        ])
    }
    let (adds, removes) = (Int(delta.addedEntries), Int(delta.removedEntries))
    let right = manifest(digest: full.contentDigest.hex, adds: adds, removes: removes)
    #expect(SyncSession.headerProblem(full, .full(right.extensions[0].full), right) == nil)
    #expect(SyncSession.headerProblem(delta, .delta(right.extensions[0].deltas[0]), right) == nil)

    let otherDigest = manifest(digest: Self.digestA, adds: adds, removes: removes)
    #expect(SyncSession.headerProblem(full, .full(otherDigest.extensions[0].full), otherDigest)
      == "it makes content digest \(full.contentDigest.hex), the manifest says \(Self.digestA)")
    #expect(SyncSession.headerProblem(delta, .delta(otherDigest.extensions[0].deltas[0]), otherDigest)
      == "it makes content digest \(full.contentDigest.hex), the manifest says \(Self.digestA)")
    let otherCounts = manifest(digest: full.contentDigest.hex, adds: adds + 1, removes: removes)
    #expect(SyncSession.headerProblem(delta, .delta(otherCounts.extensions[0].deltas[0]), otherCounts)
      == "it adds \(adds) and removes \(removes) entries, the manifest says \(adds + 1) and \(removes)")
  }
}

/// ``SyncSession`` over a store whose manifest gives content digests: an
/// extension the new version left as it was is neither fetched nor loaded.
@Suite(.serialized) struct UnchangedExtensionSessionTests {
  @Test func anUnchangedExtensionIsNeitherFetchedNorLoadedAndItsVersionMoves() async throws {
    let directory = try TemporaryDirectory()
    var store = StoreFixture()
    let session = store.session(directory.path)
    try store.publish(version: 1, extensions: 3, describingContent: true)
    try session.record(try await session.stage(try await session.plan()))

    try store.publish(version: 2, extensions: 3, keeping: [2, 3], describingContent: true)
    let manifest = try await session.fetchManifest().manifest
    #expect(manifest.extensions[1].deltas.isEmpty && manifest.extensions[1].digest != nil)
    let planned = try await session.plan()
    // Extension 1's delta removes and adds every entry: more than its full
    // snapshot holds, so the full snapshot.
    let delta = try #require(manifest.extensions[0].deltas.first)
    #expect(try #require(delta.entries) > manifest.extensions[0].entries)
    #expect(planned.plan.steps.map(\.step) == [.full(manifest.extensions[0].full), .unchanged, .unchanged])
    #expect(planned.changedExtensions == [1, 2, 3])
    let staged = try await session.stage(planned)
    #expect(staged.loads.map(\.index) == [1])
    let state = try session.record(staged)
    #expect(state.extensions == [1: 2, 2: 2, 3: 2] && state.incrementalSyncs == 0)
    #expect(state.digests == Dictionary(uniqueKeysWithValues: manifest.extensions.map { ($0.index, $0.digest ?? "") }))

    // What each extension holds by its own record overrides the state: one
    // that says it holds other content is not unchanged.
    try store.publish(version: 3, extensions: 3, keeping: [1, 2, 3], describingContent: true)
    let held: [Int: HeldSnapshot?] = [
      1: HeldSnapshot(version: 2, digest: manifest.extensions[0].digest),
      2: HeldSnapshot(version: 2, digest: String(repeating: "0", count: 64)), 3: nil,
    ]
    let again = try await session.plan(held: held)
    let items = again.plan.manifest.manifest.extensions
    #expect(again.plan.steps.map(\.step) == [.unchanged, .full(items[1].full), .full(items[2].full)])
    #expect(again.previous?.digests[2] == String(repeating: "0", count: 64) && again.previous?.digests[3] == nil)
  }
}
