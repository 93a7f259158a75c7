import CallDirectoryFormat
import CallDirectorySync
import CalldirSystem
import Foundation
import Sodium
import Testing

/// ``SyncSession`` from a signed in-memory store to a recorded state (the
/// loads between are the app's, and `calldir device sync`'s end-to-end tests').
@Suite(.serialized) struct SyncSessionTests {
  let directory: TemporaryDirectory
  var store = StoreFixture()

  init() throws {
    directory = try TemporaryDirectory()
  }

  var session: SyncSession { store.session(directory.path) }

  /// Plans, stages and records one sync.
  @discardableResult
  func sync() async throws(SyncError) -> StagedSync {
    let staged = try await session.stage(try await session.plan())
    try session.record(staged)
    return staged
  }

  func recordedState() throws -> SyncState? {
    try SyncStateStore(path: directory.path + "/state.json").load()
  }

  @Test mutating func aChainOfVersionsSyncsWithDeltasAndRecordsItsState() async throws {
    try store.publish(version: 1, extensions: 2)
    var staged = try await sync()
    #expect(staged.loads.map(\.content) == staged.plan.manifest.manifest.extensions.map { .full($0.full) })
    #expect(try recordedState() == SyncState(
      dataset: StoreFixture.dataset, version: 1, published: "2026-12-01T03:00:00Z", incrementalSyncs: 0,
      extensions: [1: 1, 2: 1]))
    #expect(directory.names("staging").isEmpty)

    try store.publish(version: 2, extensions: 2)
    staged = try await sync()
    for load in staged.loads {
      guard case .delta(let delta) = load.content else {
        Issue.record("extension \(load.index) loads \(load.content)")
        continue
      }
      #expect(delta.from == 1)
    }
    #expect(try recordedState()?.incrementalSyncs == 1)
    // Up to date: nothing to stage.
    #expect(try await session.plan().isUpToDate)
  }

  @Test mutating func aMissingDeltaFallsBackToTheFullSnapshot() async throws {
    try store.publish(version: 1)
    try await sync()
    try store.publish(version: 2)
    let manifest = try await session.fetchManifest().manifest
    let delta = try #require(manifest.extensions[0].deltas.first)
    store.source[delta.file.path] = nil
    let staged = try await sync()
    #expect(staged.loads.first?.content == .full(manifest.extensions[0].full))
    #expect(staged.loads.first?.missingDelta == delta)
    #expect(staged.plan.steps.first?.step == .full(manifest.extensions[0].full))
    #expect(try recordedState()?.incrementalSyncs == 0)
  }

  @Test mutating func aRetiredExtensionGetsAnEmptySnapshotOfTheVersion() async throws {
    try store.publish(version: 1, extensions: 3)
    try await sync()
    try store.publish(version: 2, extensions: 2)
    let staged = try await session.stage(try await session.plan())
    let retired = try #require(staged.loads.last)
    #expect(retired.index == 3 && retired.content == .empty && retired.staged == nil)
    let empty = try Snapshot(contentsOf: retired.path)
    #expect(empty.version == 2 && empty.blocking.isEmpty && empty.identification.isEmpty)
    #expect(try BlobReader.readHeader(path: retired.path).dataset == StoreFixture.dataset)
    try session.record(staged)
    #expect(try recordedState()?.extensions == [1: 2, 2: 2])
  }

  @Test mutating func untrustedManifestsChangeNothing() async throws {
    try store.publish(version: 3)
    try await sync()
    let before = try recordedState()
    let genuine = try #require(store.source[SyncSession.manifestPath])
    let signature = try #require(store.source[SyncSession.signaturePath])

    // One byte of the manifest changed after signing.
    var tampered = genuine
    tampered[tampered.count / 2] ^= 0x01
    store.source[SyncSession.manifestPath] = tampered
    await #expect(throws: SyncError.untrusted(.badSignature)) { try await session.plan() }
    store.source[SyncSession.manifestPath] = genuine

    // Another key.
    let other = Ed25519.keyPair()!.publicKey
    await #expect(throws: SyncError.untrusted(.badSignature)) { try await store.session(directory.path, publicKey: other).plan() }

    // A signature that is not base64 of 64 bytes.
    store.source[SyncSession.signaturePath] = Array("c2lnbmF0dXJl\n".utf8)
    await #expect(throws: SyncError.self) { try await session.plan() }
    store.source[SyncSession.signaturePath] = signature

    // An older version, then another dataset, both genuinely signed.
    try store.publish(version: 2, deltasFrom: [])
    await #expect(throws: SyncError.untrusted(.rollback(installed: 3, offered: 2))) { try await session.plan() }
    try store.publish(version: 4, dataset: "org.other")
    await #expect(throws: SyncError.untrusted(.wrongDataset(expected: StoreFixture.dataset, found: "org.other"))) {
      try await session.plan()
    }
    #expect(try recordedState() == before)
  }

  @Test mutating func aBlobWhoseHeaderIsNotWhatTheManifestSaysIsRefused() async throws {
    try store.publish(version: 1)
    try await sync()
    // A genuine file, listed as a delta from 1 but holding a full snapshot.
    let full = store.put("deltas/liar.cdir", try StoreFixture.snapshot(version: 2).encoded())
    let manifest = Manifest(
      dataset: StoreFixture.dataset, version: 2, published: "2026-12-02T03:00:00Z", fullEvery: 30,
      extensions: [Manifest.Extension(
        index: 1, lower: 1, upper: 99, counts: Manifest.Counts(blocking: 1, identification: 0),
        full: full, deltas: [Manifest.Delta(from: 1, file: full)])])
    store.sign(manifest.serialized())
    await #expect(throws: SyncError.untrusted(.fileMismatch(
      path: "deltas/liar.cdir", problem: "it is a full snapshot, the manifest names a delta"))) {
      try await session.stage(try await session.plan())
    }
    #expect(try recordedState()?.version == 1)
  }

  @Test mutating func aFailedStateWriteKeepsThePreviousStateAndTheNextSyncRecordsIt() async throws {
    try store.publish(version: 1)
    try await sync()
    try store.publish(version: 2)
    for call in [FaultInjection.Call.write, .fsync, .rename] {
      let staged = try await session.stage(try await session.plan())
      FaultInjection.install([.init(call: call, occurrence: 1, fault: .fail(.ioError))])
      let outcome = Result { () throws(SyncError) in try session.record(staged) }
      FaultInjection.reset()
      guard case .failure(.storage) = outcome else {
        Issue.record("\(call): \(outcome)")
        continue
      }
      #expect(try recordedState()?.version == 1, "\(call)")
    }
    // The staged files are still there: the next sync fetches nothing.
    let staged = try await sync()
    #expect(staged.downloadedBytes == 0 && staged.loads.allSatisfy { $0.staged?.wasAlreadyStaged == true })
    #expect(try recordedState()?.version == 2)
  }

  @Test func theStateFileRoundTripsAndAMalformedOneIsReported() async throws {
    let store = SyncStateStore(path: directory.path + "/state.json")
    #expect(try store.load() == nil)
    let state = SyncState(
      dataset: "com.example", version: 7, published: "2026-12-07T03:00:00Z", incrementalSyncs: 2,
      extensions: [2: 7, 1: 6])
    try store.save(state)
    #expect(try store.load() == state)
    #expect(
      String(decoding: try FileSystem.contents(of: store.path), as: UTF8.self)
        == #"{"dataset":"com.example","version":7,"published":"2026-12-07T03:00:00Z","incrementalSyncs":2,"#
        + #""extensions":[{"index":1,"version":6},{"index":2,"version":7}]}"# + "\n")
    try AtomicFile.write(Array(#"{"dataset":"x","version":0}"#.utf8), to: store.path)
    #expect(throws: SyncError.self) { try store.load() }
    try store.remove()
    #expect(try store.load() == nil)
  }

  /// The rollback floor: raised by every recorded sync, never lowered,
  /// kept by ``SyncDirectory/clear()``, healed from the state when lost;
  /// below it a sync refuses unless a downgrade is allowed, and a
  /// malformed floor refuses until then.
  @Test mutating func theRollbackFloorOutlivesTheStateAndRefusesReplays() async throws {
    let floors = SyncDirectory(path: directory.path).rollbackFloorStore
    #expect(floors.path == directory.path + "/rollback-floor.json")
    try store.publish(version: 1)
    try await sync()
    try store.publish(version: 2)
    try await sync()
    #expect(try floors.load() == [StoreFixture.dataset: 2])
    #expect(
      String(decoding: try FileSystem.contents(of: floors.path), as: UTF8.self)
        == #"{"floors":[{"dataset":"\#(StoreFixture.dataset)","version":2}]}"# + "\n")

    // The state lost, or the sync forgotten: version 1 replayed is refused.
    try SyncDirectory(path: directory.path).clear()
    try store.publish(version: 1, deltasFrom: [])
    await #expect(throws: SyncError.untrusted(.belowRollbackFloor(dataset: StoreFixture.dataset, floor: 2, offered: 1))) {
      try await session.plan()
    }
    // Allowed: a downgrade, whose record leaves the floor where it was.
    var planned = try await session.plan(allowingDowngrade: true)
    #expect(planned.plan.isDowngrade && planned.rollbackFloor == 2)
    try session.record(try await session.stage(planned))
    #expect(try recordedState()?.version == 1 && floors.load() == [StoreFixture.dataset: 2])
    #expect(try await session.plan().isUpToDate)

    // The floor file lost: the state's version stands in, and is written back.
    try store.publish(version: 3)
    try await sync()
    try FileManager.default.removeItem(atPath: floors.path)
    try store.publish(version: 2, deltasFrom: [])
    await #expect(throws: SyncError.untrusted(.rollback(installed: 3, offered: 2))) { try await session.plan() }
    #expect(try floors.load() == [StoreFixture.dataset: 3])

    // A malformed floor refuses (nothing says how far back is safe) until
    // a downgrade is allowed; recording then writes a valid one.
    try AtomicFile.write(Array(#"{"floors":{"x":1}}"#.utf8), to: floors.path)
    try store.publish(version: 4)
    await #expect(throws: SyncError.rollbackFloorMalformed(path: floors.path, reason: "floors: expected an array")) {
      try await session.plan()
    }
    planned = try await session.plan(allowingDowngrade: true)
    #expect(!planned.plan.isDowngrade)
    try session.record(try await session.stage(planned))
    #expect(try floors.load() == [StoreFixture.dataset: 4])

    // Another dataset's floor is its own; a version is never lowered.
    #expect(try floors.record("org.other", version: 7) == [StoreFixture.dataset: 4, "org.other": 7])
    #expect(try floors.record("org.other", version: 6) == [StoreFixture.dataset: 4, "org.other": 7])
    for text in [#"{"floors":[{"dataset":"a","version":0}]}"#, #"{"floors":[{"dataset":"a","version":1},{"dataset":"a","version":2}]}"#, "["] {
      try AtomicFile.write(Array(text.utf8), to: floors.path)
      #expect(throws: SyncError.self, "\(text)") { try floors.load() }
    }
  }

  @Test func oneSyncAtATime() async throws {
    let sync = SyncDirectory(path: directory.path)
    let lock = try sync.lock()
    #expect(throws: SyncError.busy(path: directory.path + "/lock")) { try sync.lock() }
    withExtendedLifetime(lock) {}
  }
}

/// A manifest or signature larger than any a store publishes is bad data
/// (65), not a network failure.
@Suite struct OversizedManifestTests {
  @Test func anOversizedManifestOrSignatureIsMalformed() async throws {
    let directory = try TemporaryDirectory()
    var store = StoreFixture()
    try store.publish(version: 1)
    let session = store.session(directory.path)
    let signature = try #require(store.source[SyncSession.signaturePath])
    store.source[SyncSession.signaturePath] = signature + [UInt8](repeating: 0x0A, count: SyncSession.signatureLimit)
    await #expect(throws: SyncError.untrusted(.malformedSignature("manifest.json.sig is larger than \(SyncSession.signatureLimit) bytes"))) {
      try await session.fetchManifest()
    }
    store.source[SyncSession.manifestPath] = [UInt8](repeating: 0x20, count: SyncSession.manifestLimit + 1)
    await #expect(throws: SyncError.untrusted(.malformed("manifest.json is larger than \(SyncSession.manifestLimit) bytes"))) {
      try await session.fetchManifest()
    }
  }
}
