import CallDirectoryFormat
import CallDirectorySync
import CalldirSystem
import Foundation
import Sodium
import Testing

/// A device in memory for ``SyncCoordinator``: each extension holds a
/// version and content digest, a load takes the blob's target, and a hook
/// runs when the sync reserves (what a concurrent `device load` would do
/// between the download and the reservation).
final class MemoryReloader: SyncReloader, @unchecked Sendable {
  enum Failure: Error, Hashable {
    case busy(Int)
    case doesNotFit(Int, String)
    case unreadable(String)
    case requestFailed(Int)
    /// A passing failure (``ReloadRecovery/retry``).
    case interrupted(Int)
    /// The system refused the request's entries (``ReloadRecovery/reloadWithFullSnapshot``).
    case refused(Int)
  }

  /// What each extension holds, by index.
  var held: [Int: HeldSnapshot] = [:]
  /// The extensions reserved now, and every reservation made.
  private(set) var reserved: Set<Int> = []
  private(set) var reservations: [Int] = []
  /// Each load, as (index, target version), in order.
  private(set) var loads: [(index: Int, version: Int)] = []
  /// Each extension whose version moved without a load.
  private(set) var recorded: [Int] = []
  /// Extensions whose requests fail.
  var failing: Set<Int> = []
  /// Failures the next loads of an extension meet, one per load, in order.
  var nextFailures: [Int: [Failure]] = [:]
  /// Each load's blob kind, in order (`full` or `delta`), by index.
  private(set) var kinds: [Int: [String]] = [:]
  /// Runs at each reservation, with the extension's index.
  var onReserve: (Int) -> Void = { _ in }

  func heldSnapshots() throws(Failure) -> [Int: HeldSnapshot?] {
    held.mapValues { $0 }
  }

  func reserve(extension index: Int) throws(Failure) -> Int {
    guard !reserved.contains(index) else { throw .busy(index) }
    onReserve(index)
    reserved.insert(index)
    reservations.append(index)
    return index
  }

  func release(_ reservation: Int) {
    reserved.remove(reservation)
  }

  func planLoad(ofBlobAt path: String, intoExtension index: Int) throws(Failure) -> (path: String, header: BlobHeader) {
    let header: BlobHeader
    do {
      header = try BlobReader.readHeader(path: path)
    } catch {
      throw .unreadable(path)
    }
    if header.kind == .delta {
      guard let current = held[index], current.version == Int(header.baseVersion),
        current.digest == header.baseDigest.hex
      else { throw .doesNotFit(index, "the delta's base is not what extension \(index) holds") }
    }
    return (path, header)
  }

  func unfitReason(_ failure: Failure) -> String? {
    if case .doesNotFit(_, let reason) = failure { reason } else { nil }
  }

  func load(_ load: (path: String, header: BlobHeader), intoExtension index: Int, under reservation: Int)
    throws(Failure) -> Int
  {
    precondition(reservation == index && reserved.contains(index), "a load outside its reservation")
    guard !failing.contains(index) else { throw .requestFailed(index) }
    kinds[index, default: []].append(load.header.kind == .full ? "full" : "delta")
    if let failure = nextFailures[index]?.first {
      nextFailures[index]?.removeFirst()
      throw failure
    }
    held[index] = HeldSnapshot(version: Int(load.header.version), digest: load.header.contentDigest.hex)
    loads.append((index, Int(load.header.version)))
    return Int(load.header.version)
  }

  func recovery(after failure: Failure) -> ReloadRecovery {
    switch failure {
    case .interrupted: .retry
    case .refused: .reloadWithFullSnapshot
    default: .stop
    }
  }

  func recordSameContent(extension index: Int, version: Int, digest: String, under reservation: Int) throws(Failure)
    -> Bool
  {
    precondition(reservation == index && reserved.contains(index), "a record outside its reservation")
    guard held[index]?.digest == digest else { return false }
    held[index] = HeldSnapshot(version: version, digest: digest)
    recorded.append(index)
    return true
  }
}

/// ``SyncCoordinator``, the sync engine `calldir device sync` drives, over
/// a signed in-memory store and ``MemoryReloader`` (its end-to-end and
/// fault-injection tests run it over the simulated device).
@Suite(.serialized) struct SyncCoordinatorTests {
  let directory: TemporaryDirectory
  var store = StoreFixture()
  let device = MemoryReloader()

  init() throws {
    directory = try TemporaryDirectory()
  }

  func coordinator(
    allowsDowngrade: Bool = false, retryPolicy: ReloadRetryPolicy = .none, sleeps: WaitRecorder = WaitRecorder()
  ) -> SyncCoordinator<MemoryReloader> {
    SyncCoordinator(
      session: store.session(directory.path), reloader: device, allowsDowngrade: allowsDowngrade,
      retryPolicy: retryPolicy, sleep: { try sleeps.wait($0) })
  }

  func recordedState() throws -> SyncState? {
    try SyncStateStore(path: directory.path + "/state.json").load()
  }

  @Test mutating func aFirstSyncLoadsEveryFullSnapshotThenDeltasThenNothing() async throws {
    try store.publish(version: 1, extensions: 2)
    var run = try await coordinator().run()
    #expect(run.staged?.loads.map(\.content) == run.planned.plan.manifest.manifest.extensions.map { .full($0.full) })
    #expect(device.loads.map(\.index) == [1, 2] && device.loads.allSatisfy { $0.version == 1 })
    #expect(run.results == [1: 1, 2: 1])
    #expect(try recordedState()?.version == 1)
    #expect(run.state == (try recordedState()))
    #expect(device.reserved.isEmpty)
    #expect(directory.names("staging").isEmpty)

    try store.publish(version: 2, extensions: 2)
    run = try await coordinator().run()
    #expect(run.staged?.loads.allSatisfy { if case .delta(let delta) = $0.content { delta.from == 1 } else { false } } == true)
    #expect(try recordedState()?.incrementalSyncs == 1)

    // Up to date: nothing staged, reserved or loaded.
    let before = (device.reservations.count, device.loads.count)
    run = try await coordinator().run()
    #expect(run.staged == nil && run.planned.isUpToDate && run.state?.version == 2)
    #expect((device.reservations.count, device.loads.count) == before)
  }

  @Test mutating func anExtensionWhoseContentTheVersionKeptIsRecordedNotReloaded() async throws {
    try store.publish(version: 1, extensions: 2, describingContent: true)
    _ = try await coordinator().run()
    try store.publish(version: 2, extensions: 2, keeping: [2], describingContent: true)
    let run = try await coordinator().run()
    #expect(device.loads.map(\.index) == [1, 2, 1])
    #expect(device.recorded == [2])
    #expect(device.held[2]?.version == 2)
    #expect(run.planned.changedExtensions == [1, 2])
    #expect(try recordedState()?.extensions == [1: 2, 2: 2])
  }

  @Test mutating func aDeltaTheExtensionCannotApplyIsReplacedByTheFullSnapshotBeforeAnythingIsReserved() async throws {
    try store.publish(version: 1)
    _ = try await coordinator().run()
    // The extension says version 1, but holds other entries under it.
    device.held[1] = HeldSnapshot(version: 1, digest: String(repeating: "0", count: 64))
    try store.publish(version: 2)
    let run = try await coordinator().run()
    let load = try #require(run.staged?.loads.first)
    #expect(load.content == .full(run.planned.plan.manifest.manifest.extensions[0].full))
    #expect(load.unusableDelta?.delta.from == 1)
    #expect(load.unusableDelta?.reason == "the delta's base is not what extension 1 holds")
    #expect(device.loads.last?.version == 2)
    #expect(try recordedState()?.version == 2)
  }

  @Test mutating func aDeviceChangedWhileFilesDownloadedIsPlannedAgain() async throws {
    try store.publish(version: 1, describingContent: true)
    _ = try await coordinator().run()
    try store.publish(version: 2, describingContent: true)
    // Another load puts version 2 in place while the sync downloads: the
    // plan made under the reservation differs, the next one has nothing
    // left to load, only the state to record (and reserves nothing).
    let target = try #require(try await coordinator().session.fetchManifest().manifest.extensions.first?.digest)
    device.onReserve = { [device] index in
      device.held[index] = HeldSnapshot(version: 2, digest: target)
    }
    let (reservations, loads) = (device.reservations.count, device.loads.count)
    let run = try await coordinator().run()
    #expect(device.reservations.count == reservations + 1)
    #expect(device.loads.count == loads)
    #expect(run.staged == nil && run.state?.version == 2)
    #expect(try recordedState()?.version == 2)
    #expect(device.reserved.isEmpty)
  }

  @Test mutating func aDeviceThatKeepsChangingEndsTheSyncAsBusyWithTheStateAsItWas() async throws {
    try store.publish(version: 1)
    _ = try await coordinator().run()
    try store.publish(version: 2)
    // Each reservation finds the extension changed: known (a delta
    // planned), then unknown (a full snapshot), then known again.
    let held = try #require(device.held[1])
    device.onReserve = { [device] index in
      if device.held[index] == nil {
        device.held[index] = held
      } else {
        device.held.removeValue(forKey: index)
      }
    }
    await #expect(throws: SyncRunError<MemoryReloader.Failure>.sync(.busy(path: directory.path + "/lock"))) {
      _ = try await coordinator().run()
    }
    #expect(device.reservations.count == 1 + SyncCoordinator<MemoryReloader>.attempts)
    #expect(device.loads.count == 1)
    #expect(device.reserved.isEmpty)
    #expect(try recordedState()?.version == 1)
  }

  @Test mutating func aFailedLoadStopsTheSyncAndTheNextOneFinishesIt() async throws {
    try store.publish(version: 1, extensions: 2, describingContent: true)
    _ = try await coordinator().run()
    try store.publish(version: 2, extensions: 2, describingContent: true)
    device.failing = [2]
    await #expect(throws: SyncRunError<MemoryReloader.Failure>.device(.requestFailed(2))) { _ = try await coordinator().run() }
    #expect(try recordedState()?.version == 1)
    #expect(device.held[1]?.version == 2 && device.held[2]?.version == 1)
    #expect(device.reserved.isEmpty)
    device.failing = []
    let run = try await coordinator().run()
    // Extension 1 holds version 2 already, by its own record: only
    // extension 2 loads.
    #expect(run.results.keys.sorted() == [2])
    #expect(try recordedState()?.extensions == [1: 2, 2: 2])
  }

  @Test mutating func anOlderManifestIsRefusedUnlessADowngradeIsAllowed() async throws {
    try store.publish(version: 1, describingContent: true)
    let first = try #require(store.source[SyncSession.manifestPath])
    try store.publish(version: 2, describingContent: true)
    _ = try await coordinator().run()
    store.sign(first)
    await #expect(throws: SyncRunError<MemoryReloader.Failure>.sync(.untrusted(.rollback(installed: 2, offered: 1)))) {
      _ = try await coordinator().run()
    }
    #expect(device.held[1]?.version == 2)
    let run = try await coordinator(allowsDowngrade: true).run()
    #expect(run.planned.plan.isDowngrade)
    #expect(device.held[1]?.version == 1)
    #expect(try recordedState()?.version == 1)
  }

  // MARK: - Reload time

  /// Versions 1 and 2 of the fixture's two extensions published, the
  /// device synced to version 1, version 2 with its deltas now the store's.
  mutating func syncedToVersion1WithDeltasPublished() async throws {
    try store.publish(version: 1, extensions: 2)
    _ = try await coordinator().run()
    try store.publish(version: 2, extensions: 2, deltasFrom: [1])
  }

  @Test mutating func aPassingReloadFailureIsRetriedWithBackoffThenTheSyncGoesOn() async throws {
    try await syncedToVersion1WithDeltasPublished()
    device.nextFailures[1] = [.interrupted(1), .interrupted(1)]
    let sleeps = WaitRecorder()
    let run = try await coordinator(retryPolicy: ReloadRetryPolicy(maximumAttempts: 4), sleeps: sleeps).run()
    #expect(sleeps.waits == [2_000_000_000, 4_000_000_000])
    #expect(device.kinds[1] == ["full", "delta", "delta", "delta"])
    #expect(run.results[1] == 2 && run.results[2] == 2)
    #expect(try recordedState()?.version == 2)
  }

  @Test mutating func retriesStopAtThePolicysLastAttemptAndRecordNothing() async throws {
    try await syncedToVersion1WithDeltasPublished()
    device.nextFailures[1] = [.interrupted(1), .interrupted(1), .interrupted(1)]
    let sleeps = WaitRecorder()
    await #expect(throws: SyncRunError<MemoryReloader.Failure>.device(.interrupted(1))) {
      _ = try await coordinator(retryPolicy: ReloadRetryPolicy(maximumAttempts: 3, initialDelay: 1), sleeps: sleeps).run()
    }
    #expect(sleeps.waits == [1_000_000_000, 2_000_000_000])
    #expect(try recordedState()?.version == 1)
  }

  /// `calldir device sync`'s engine (no retry policy) stops at the first
  /// failure, passing or not, without a wait.
  @Test mutating func withoutARetryPolicyAPassingFailureStopsTheSync() async throws {
    try await syncedToVersion1WithDeltasPublished()
    device.nextFailures[2] = [.interrupted(2)]
    let sleeps = WaitRecorder()
    await #expect(throws: SyncRunError<MemoryReloader.Failure>.device(.interrupted(2))) {
      _ = try await coordinator(sleeps: sleeps).run()
    }
    #expect(sleeps.waits.isEmpty)
    #expect(try recordedState()?.version == 1)
  }

  @Test mutating func aDeltaRefusedAtReloadTimeIsFollowedByTheFullSnapshot() async throws {
    try await syncedToVersion1WithDeltasPublished()
    device.nextFailures[1] = [.refused(1)]
    let run = try await coordinator().run()
    #expect(device.kinds[1] == ["full", "delta", "full"])
    #expect(device.kinds[2] == ["full", "delta"])
    let load = try #require(run.staged?.loads.first { $0.index == 1 })
    guard case .full = load.content else {
      Issue.record("extension 1 loaded \(load.content)")
      return
    }
    #expect(load.unusableDelta?.delta.from == 1)
    #expect(load.unusableDelta?.reason.contains("refused(1)") == true)
    #expect(device.held[1]?.version == 2 && device.held[2]?.version == 2)
    #expect(try recordedState()?.version == 2)
  }

  /// A full snapshot the system refuses is not loaded again.
  @Test mutating func aFullSnapshotRefusedAtReloadTimeStopsTheSync() async throws {
    try store.publish(version: 1, extensions: 2)
    device.nextFailures[2] = [.refused(2)]
    await #expect(throws: SyncRunError<MemoryReloader.Failure>.device(.refused(2))) {
      _ = try await coordinator(retryPolicy: ReloadRetryPolicy()).run()
    }
    #expect(device.kinds[2] == ["full"])
    #expect(try recordedState() == nil)
  }

  /// A wait that throws (the app's `Task.sleep` in a cancelled task) stops
  /// the run: no further reload, nothing recorded.
  @Test mutating func aCancelledWaitStopsTheRunAndRecordsNothing() async throws {
    try await syncedToVersion1WithDeltasPublished()
    device.nextFailures[1] = [.interrupted(1)]
    let sleeps = WaitRecorder()
    sleeps.cancelled = true
    await #expect(throws: SyncRunError<MemoryReloader.Failure>.cancelled) {
      _ = try await coordinator(retryPolicy: ReloadRetryPolicy(), sleeps: sleeps).run()
    }
    #expect(device.kinds[1] == ["full", "delta"])
    #expect(device.kinds[2] == ["full"])
    #expect(try recordedState()?.version == 1)
  }

  /// A run in a cancelled task stops before it loads anything.
  @Test mutating func aRunInACancelledTaskLoadsNothing() async throws {
    try await syncedToVersion1WithDeltasPublished()
    let engine = UncheckedBox(coordinator())
    let outcome = await Task { () async -> String in
      withUnsafeCurrentTask { $0?.cancel() }
      do throws(SyncRunError<MemoryReloader.Failure>) {
        return "synced to \(try await engine.value.run().state?.version ?? 0)"
      } catch {
        return error == .cancelled ? "cancelled" : "failed: \(error)"
      }
    }.value
    #expect(outcome == "cancelled")
    #expect(device.kinds[1] == ["full"] && device.kinds[2] == ["full"])
    #expect(try recordedState()?.version == 1)
  }
}

extension SyncRunError: Equatable where DeviceFailure: Equatable {
  public static func == (left: Self, right: Self) -> Bool {
    switch (left, right) {
    case (.sync(let a), .sync(let b)): a == b
    case (.device(let a), .device(let b)): a == b
    case (.cancelled, .cancelled): true
    default: false
    }
  }
}

/// Records the waits a run asked for instead of waiting; with `cancelled`,
/// each wait throws as `Task.sleep` does in a cancelled task.
final class WaitRecorder: @unchecked Sendable {
  private let lock = NSLock()
  private var recorded: [UInt64] = []
  var cancelled = false

  func wait(_ nanoseconds: UInt64) throws {
    try lock.withLock {
      if cancelled { throw CancellationError() }
      recorded.append(nanoseconds)
    }
  }

  var waits: [UInt64] { lock.withLock { recorded } }
}

/// A value handed to a task that the test alone uses meanwhile.
final class UncheckedBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
