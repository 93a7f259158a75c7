import CallDirectoryFormat
import CallDirectoryProvider
import CallDirectorySync
import CallKitMock
import ExampleContainingApp
import Foundation
import Testing

/// The example app's sync, end to end: a published store, a file transport,
/// the fake signature check, and a simulated device whose extensions run
/// the example handler.
@Suite struct DatasetSyncTests {
  /// Version 1 of the two shards.
  static func version1() -> [Int: Snapshot] {
    [
      1: sampleSnapshot(version: 1, count: 2_000, start: 33_612_000_000),
      2: sampleSnapshot(version: 1, count: 1_500, start: 44_700_000_000),
    ]
  }

  /// The version after `shards`.
  static func next(_ shards: [Int: Snapshot]) -> [Int: Snapshot] {
    shards.mapValues { nextVersion(of: $0, addingBlocking: ($0.blocking.last ?? 0) + 1_000) }
  }

  /// Whether every extension holds its shard of `shards`.
  func expectHolds(_ phone: TestPhone, _ shards: [Int: Snapshot]) throws {
    for (index, snapshot) in shards {
      #expect(try phone.held(index) == snapshot.entries, "extension \(index)")
      #expect(try phone.providerState(index) == ProviderState(loaded: try snapshot.identity()))
    }
  }

  @Test func theFirstSyncLoadsEveryFullSnapshotThenRecordsTheState() async throws {
    let phone = try TestPhone()
    let store = try TestStore(directory: phone.directory.url.appendingPathComponent("store"))
    let v1 = Self.version1()
    try store.publish(v1)
    let report = try await phone.sync(store).run()
    #expect(report == SyncReport(version: 1, previousVersion: nil, steps: [1: .full, 2: .full]))
    try expectHolds(phone, v1)
    let state = try #require(try phone.sync(store).stateStore.load())
    #expect(state == SyncState(
      dataset: "com.example.blocklist", version: 1, published: "2026-12-01T03:00:00Z", incrementalSyncs: 0,
      extensions: [1: 1, 2: 1]))
    #expect(try phone.dataFiles(1) == ["full-000001.cdir"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: phone.storage.incomingDirectory(forExtension: 1).path).isEmpty)
  }

  @Test func aLaterSyncAppliesDeltasAndKeepsTheFullSnapshotForCompleteRequests() async throws {
    let phone = try TestPhone()
    let store = try TestStore(directory: phone.directory.url.appendingPathComponent("store"))
    let v1 = Self.version1()
    let v2 = Self.next(v1)
    try store.publish(v1)
    _ = try await phone.sync(store).run()
    try store.publish(v2, deltasFrom: [1])
    let report = try await phone.sync(store).run()
    #expect(report.steps == [1: .delta, 2: .delta])
    try expectHolds(phone, v2)
    #expect(try phone.dataFiles(1) == ["delta-000001-000002.cdir", "full-000001.cdir"])
    #expect(try phone.sync(store).stateStore.load()?.incrementalSyncs == 1)

    // Nothing new: no reload at all.
    let reloads = try phone.reloadCount(1)
    let unchanged = try await phone.sync(store).run()
    #expect(unchanged.steps == [1: .upToDate, 2: .upToDate])
    #expect(try phone.reloadCount(1) == reloads)
  }

  /// An extension whose content the new version left as it was is not
  /// reloaded: its provider state takes the version, and the next
  /// version's delta from it applies.
  @Test func anUnchangedExtensionIsNotReloadedAndTheNextDeltaApplies() async throws {
    let phone = try TestPhone()
    let store = try TestStore(directory: phone.directory.url.appendingPathComponent("store"))
    let v1 = Self.version1()
    try store.publish(v1, describingContent: true)
    _ = try await phone.sync(store).run()
    // Version 2 changes extension 1 only.
    var v2 = Self.next(v1)
    v2[2] = Snapshot(version: 2, blocking: v1[2]!.blocking, identification: v1[2]!.identification)
    try store.publish(v2, deltasFrom: [1], describingContent: true)
    let reloads = try phone.reloadCount(2)
    var report = try await phone.sync(store).run()
    #expect(report.steps == [1: .delta, 2: .unchanged])
    #expect(try phone.reloadCount(2) == reloads)
    try expectHolds(phone, v2)
    #expect(try phone.dataFiles(2) == ["full-000001.cdir"])
    let state = try #require(try phone.sync(store).stateStore.load())
    let digest = try v2[2]!.contentDigest().hex
    #expect(state.extensions == [1: 2, 2: 2] && state.digests[2] == digest)

    // A request the system makes with the older blob changes nothing.
    try phone.device.reloadExtension(withIdentifier: phone.identifiers[1]).error.map { throw $0 }
    #expect(try phone.providerState(2) == ProviderState(loaded: try v2[2]!.identity()))

    // Version 3 changes extension 2: the delta from version 2 applies.
    var v3 = Self.next(v2)
    v3[1] = Snapshot(version: 3, blocking: v2[1]!.blocking, identification: v2[1]!.identification)
    try store.publish(v3, deltasFrom: [2, 1], describingContent: true)
    report = try await phone.sync(store).run()
    #expect(report.steps == [1: .unchanged, 2: .delta])
    try expectHolds(phone, v3)
    #expect(try phone.dataFiles(2) == ["delta-000002-000003.cdir", "full-000001.cdir"])
  }

  @Test func aRollbackAnotherDatasetAndATamperedManifestAreRefused() async throws {
    let phone = try TestPhone()
    let store = try TestStore(directory: phone.directory.url.appendingPathComponent("store"))
    let v1 = Self.version1()
    try store.publish(v1)
    let oldManifest = [UInt8](try Data(contentsOf: store.url("manifest.json")))
    try store.publish(Self.next(v1), deltasFrom: [1])
    _ = try await phone.sync(store).run()
    let recorded = try phone.sync(store).stateStore.load()

    // A replay of version 1, correctly signed.
    try store.writeManifest(oldManifest)
    await #expect(throws: DatasetSyncError.manifest(.rollback(installed: 2, offered: 1))) {
      try await phone.sync(store).run()
    }
    // A changed manifest under the old signature.
    var tampered = oldManifest
    if let digit = tampered.firstIndex(of: UInt8(ascii: "2")) { tampered[digit] = UInt8(ascii: "3") }
    try store.writeManifest(tampered, signature: fakeSignature(of: oldManifest, publicKey: testPublicKey))
    await #expect(throws: DatasetSyncError.manifest(.badSignature)) { try await phone.sync(store).run() }
    // Another key.
    try store.writeManifest(oldManifest)
    await #expect(throws: DatasetSyncError.manifest(.badSignature)) {
      try await phone.sync(store, publicKey: [UInt8](repeating: 1, count: 32)).run()
    }
    // Another dataset.
    let other = try TestStore(directory: phone.directory.url.appendingPathComponent("other"), dataset: "org.other")
    try other.publish(Self.next(Self.next(v1)))
    await #expect(throws: DatasetSyncError.manifest(.wrongDataset(expected: "com.example.blocklist", found: "org.other"))) {
      try await phone.sync(other).run()
    }
    #expect(try phone.sync(store).stateStore.load() == recorded)
    try expectHolds(phone, Self.next(v1))
  }

  @Test func aManifestReadWhileTheStorePublishesIsReadAgainNotRefused() async throws {
    let phone = try TestPhone()
    let store = try TestStore(directory: phone.directory.url.appendingPathComponent("store"))
    let v1 = Self.version1()
    let v2 = Self.next(v1)
    try store.publish(v1)
    // The phone reads version 1's manifest; the store publishes version 2
    // (manifest and signature) before the phone reads the signature.
    let transport = InterleavingTransport(store: store) { path, count in
      if count == 1 { try store.publish(v2, deltasFrom: [1]) }
    }
    let report = try await phone.sync(store, transport: transport).run()
    #expect(report.version == 2)
    #expect(transport.reads == ["manifest.json", "manifest.json.sig", "manifest.json", "manifest.json.sig"])
    try expectHolds(phone, v2)
    // A signature that reads the same twice and does not verify is refused.
    var tampered = [UInt8](try Data(contentsOf: store.url("manifest.json")))
    tampered[tampered.count - 2] = 0x20
    try store.writeManifest(tampered, signature: fakeSignature(of: Array(tampered.dropLast()), publicKey: testPublicKey))
    let again = InterleavingTransport(store: store) { _, _ in }
    await #expect(throws: DatasetSyncError.manifest(.badSignature)) { try await phone.sync(store, transport: again).run() }
    #expect(again.reads.count == 4)
  }

  @Test func aDownloadThatIsNotTheManifestsFileIsDeletedAndNothingChanges() async throws {
    let phone = try TestPhone()
    let store = try TestStore(directory: phone.directory.url.appendingPathComponent("store"))
    let v1 = Self.version1()
    try store.publish(v1)
    _ = try await phone.sync(store).run()
    let v2 = Self.next(v1)
    try store.publish(v2, deltasFrom: [1])
    // The CDN serves a damaged delta for extension 2.
    let path = "deltas/delta-1-2-shard-2.cdir"
    var bytes = [UInt8](try Data(contentsOf: store.url(path)))
    bytes[bytes.count / 2] ^= 0xFF
    try Data(bytes).write(to: store.url(path))
    let error = await #expect(throws: DatasetSyncError.self) { try await phone.sync(store).run() }
    guard case .fileRejected(path, let reason)? = error else {
      Issue.record("unexpected \(String(describing: error))")
      return
    }
    #expect(reason.contains("sha-256"))
    #expect(try phone.sync(store).stateStore.load()?.version == 1)
    #expect(try phone.dataFiles(2) == ["full-000001.cdir"])
    #expect(try phone.held(2) == v1[2]?.entries)
    #expect(try FileManager.default.contentsOfDirectory(atPath: phone.storage.incomingDirectory(forExtension: 2).path).isEmpty)
    // Every file is verified before any extension changes (the sync
    // engine's rule): extension 1 kept version 1 too.
    #expect(try phone.dataFiles(1) == ["full-000001.cdir"])
    #expect(try phone.held(1) == v1[1]?.entries)
    // Once the file is right the next sync loads both deltas.
    try store.publish(v2, deltasFrom: [1])
    let report = try await phone.sync(store).run()
    #expect(report.steps == [1: .delta, 2: .delta])
    try expectHolds(phone, v2)
  }

  @Test func aDeltaTheSystemRefusesFallsBackToTheFullSnapshot() async throws {
    let phone = try TestPhone()
    let store = try TestStore(directory: phone.directory.url.appendingPathComponent("store"))
    let v1 = Self.version1()
    try store.publish(v1)
    _ = try await phone.sync(store).run()
    let v2 = Self.next(v1)
    try store.publish(v2, deltasFrom: [1])
    try phone.device.injectFailure(.duplicateEntries, intoNextReloadOfExtensionWithIdentifier: phone.identifiers[0])
    let report = try await phone.sync(store).run()
    #expect(report.steps == [1: .fullAfterDelta, 2: .delta])
    try expectHolds(phone, v2)
    #expect(try phone.dataFiles(1) == ["full-000002.cdir"])
  }

  @Test func aCompleteRequestInsteadOfAnIncrementalOneEndsWithTheFullSnapshot() async throws {
    let phone = try TestPhone()
    let store = try TestStore(directory: phone.directory.url.appendingPathComponent("store"))
    let v1 = Self.version1()
    try store.publish(v1)
    _ = try await phone.sync(store).run()
    // The system lost extension 1's entries (reinstalled): its next request is complete.
    try phone.device.uninstallExtension(withIdentifier: phone.identifiers[0])
    try phone.device.installExtension(withIdentifier: phone.identifiers[0])
    phone.register(phone.identifiers[0], index: 1)
    let v2 = Self.next(v1)
    try store.publish(v2, deltasFrom: [1])
    let report = try await phone.sync(store).run()
    #expect(report.steps == [1: .fullAfterDelta, 2: .delta])
    try expectHolds(phone, v2)
  }

  @Test func passingFailuresAreRetriedWithBackoff() async throws {
    let phone = try TestPhone()
    let store = try TestStore(directory: phone.directory.url.appendingPathComponent("store"))
    try store.publish(Self.version1())
    try phone.device.injectFailure(.loadingInterrupted, intoNextReloadOfExtensionWithIdentifier: phone.identifiers[1])
    let sleeps = SleepRecorder()
    let report = try await phone.sync(store, sleeps: sleeps).run()
    #expect(report.steps == [1: .full, 2: .full])
    #expect(sleeps.recorded == [2_000_000_000])
    try expectHolds(phone, Self.version1())
  }

  /// The app's reloads go through the sync engine: a passing failure on
  /// every attempt stops the sync after the policy's last one, with the
  /// engine's waits in between, and records nothing.
  @Test func aFailureThatKeepsPassingStopsAfterTheLastAttempt() async throws {
    let phone = try TestPhone()
    let store = try TestStore(directory: phone.directory.url.appendingPathComponent("store"))
    try store.publish(Self.version1())
    let identifier = phone.identifiers[0]
    try phone.device.injectFailure(.currentlyLoading, intoNextReloadOfExtensionWithIdentifier: identifier)
    // Each wait, the next reload is made to fail again.
    let sleeps = SleepRecorder()
    let sync = phone.sync(store) { nanoseconds in
      sleeps.record(nanoseconds)
      try phone.device.injectFailure(.currentlyLoading, intoNextReloadOfExtensionWithIdentifier: identifier)
    }
    let error = await #expect(throws: DatasetSyncError.self) { try await sync.run() }
    guard case .reloadFailed(phone.identifiers[0], _, 7, .retry)? = error else {
      Issue.record("unexpected \(String(describing: error))")
      return
    }
    #expect(sleeps.recorded == [2_000_000_000, 4_000_000_000, 8_000_000_000])
    #expect(try phone.sync(store).stateStore.load() == nil)
    #expect(try phone.reloadCount(2) == 0)
  }

  /// A background task that runs out of time: the wait before a retry
  /// throws, the sync stops with `cancelled`, nothing recorded, and the
  /// next sync finishes the work.
  @Test func aCancelledSyncStopsAndTheNextOneFinishes() async throws {
    let phone = try TestPhone()
    let store = try TestStore(directory: phone.directory.url.appendingPathComponent("store"))
    let v1 = Self.version1()
    try store.publish(v1)
    try phone.device.injectFailure(.loadingInterrupted, intoNextReloadOfExtensionWithIdentifier: phone.identifiers[0])
    await #expect(throws: DatasetSyncError.cancelled) {
      try await phone.sync(store, sleep: { _ in throw CancellationError() }).run()
    }
    #expect(try phone.sync(store).stateStore.load() == nil)
    #expect(try phone.reloadCount(2) == 0)
    let report = try await phone.sync(store).run()
    #expect(report.steps == [1: .full, 2: .full])
    try expectHolds(phone, v1)
  }

  /// The sync engine's rollback floor now guards the app too: after the
  /// state is lost, a replay of an older version is still refused.
  @Test func anOlderVersionIsRefusedEvenAfterTheStateIsLost() async throws {
    let phone = try TestPhone()
    let store = try TestStore(directory: phone.directory.url.appendingPathComponent("store"))
    let v1 = Self.version1()
    try store.publish(v1)
    let oldManifest = [UInt8](try Data(contentsOf: store.url("manifest.json")))
    try store.publish(Self.next(v1), deltasFrom: [1])
    _ = try await phone.sync(store).run()
    try phone.sync(store).stateStore.remove()
    try store.writeManifest(oldManifest)
    await #expect(throws: DatasetSyncError.manifest(.belowRollbackFloor(dataset: "com.example.blocklist", floor: 2, offered: 1))) {
      try await phone.sync(store).run()
    }
    try expectHolds(phone, Self.next(v1))
  }

  @Test func aTurnedOffExtensionStopsTheSyncUntilTheUserTurnsItOn() async throws {
    let phone = try TestPhone()
    let store = try TestStore(directory: phone.directory.url.appendingPathComponent("store"))
    let v1 = Self.version1()
    try store.publish(v1)
    let client = CallDirectoryManagerClient(manager: CXCallDirectoryManager(device: phone.device))
    try phone.device.setEnabled(false, forExtensionWithIdentifier: phone.identifiers[1])
    #expect(await client.extensionsTurnedOff(among: phone.identifiers) == [phone.identifiers[1]])
    await #expect(throws: DatasetSyncError.extensionDisabled(identifier: phone.identifiers[1])) {
      try await phone.sync(store).run()
    }
    #expect(try phone.sync(store).stateStore.load() == nil)
    try await client.openSettings()
    #expect(try phone.device.settingsOpenedCount() == 1)

    try phone.device.setEnabled(true, forExtensionWithIdentifier: phone.identifiers[1])
    let report = try await phone.sync(store).run()
    #expect(report.steps == [1: .full, 2: .full])
    try expectHolds(phone, v1)
  }

  @Test func afterFullEveryIncrementalSyncsEveryExtensionLoadsItsFullSnapshot() async throws {
    let phone = try TestPhone()
    let store = try TestStore(directory: phone.directory.url.appendingPathComponent("store"))
    store.fullEvery = 2
    var shards = Self.version1()
    try store.publish(shards)
    _ = try await phone.sync(store).run()
    var steps: [[Int: SyncReport.Step]] = []
    for _ in 0..<3 {
      let previous = Int(shards[1]?.version ?? 0)
      shards = Self.next(shards)
      try store.publish(shards, deltasFrom: [previous])
      steps.append(try await phone.sync(store).run().steps)
    }
    #expect(steps == [[1: .delta, 2: .delta], [1: .delta, 2: .delta], [1: .full, 2: .full]])
    try expectHolds(phone, shards)
    #expect(try phone.sync(store).stateStore.load()?.incrementalSyncs == 0)
  }

  @Test func anExtensionTheDatasetNoLongerUsesIsEmptied() async throws {
    let phone = try TestPhone()
    let store = try TestStore(directory: phone.directory.url.appendingPathComponent("store"))
    let v1 = Self.version1()
    try store.publish(v1)
    _ = try await phone.sync(store).run()
    let merged = try #require(Self.next(v1)[1])
    try store.publish([1: merged], deltasFrom: [1])
    let report = try await phone.sync(store).run()
    #expect(report.steps == [1: .delta, 2: .emptied])
    #expect(try phone.held(1) == merged.entries)
    #expect(try phone.held(2) == Snapshot())
    #expect(try phone.providerState(2).loaded?.version == 2)
    #expect(try phone.sync(store).stateStore.load()?.extensions == [1: 2])
  }

  @Test func aDatasetWithMoreExtensionsThanTheAppIsRefusedBeforeAnyDownload() async throws {
    let phone = try TestPhone()
    let store = try TestStore(directory: phone.directory.url.appendingPathComponent("store"))
    try store.publish(Self.version1())
    await #expect(throws: DatasetSyncError.tooFewExtensions(dataset: 2, app: 1)) {
      try await phone.sync(store, extensionCount: 1).run()
    }
    #expect(try phone.dataFiles(1).isEmpty)
  }

  @Test func theSyncStateRoundTrips() throws {
    let directory = try TemporaryDirectory()
    let store = SyncStateStore(path: directory.url.appendingPathComponent("CallDirectory/sync-state.json").path)
    #expect(try store.load() == nil)
    let state = SyncState(
      dataset: "com.example.blocklist", version: 42, published: "2026-12-01T03:00:00Z", incrementalSyncs: 3,
      extensions: [1: 42, 2: 41])
    try store.save(state)
    #expect(try store.load() == state)
    try store.remove()
    #expect(try store.load() == nil)
  }
}
