import CallDirectoryFormat
import CallDirectoryProvider
import CallKitMock
import Foundation
import Testing

/// An extension whose content a new version left as it was: the sync
/// records the new version without a reload
/// (``ProviderStateStore/recordSameContent(as:)``), the next delta (built
/// from that version) applies, and a request the system makes meanwhile
/// with the older blob still in the container changes nothing.
@Suite struct SameContentTests {
  /// Version 1, the same entries as version 2, and version 3 (changed).
  static let v1 = sampleSnapshot(version: 1, count: 40)
  static let v2 = Snapshot(version: 2, blocking: v1.blocking, identification: v1.identification)
  static let v3 = sampleSnapshot(version: 3, count: 44)

  @Test func theRecordedVersionMovesOnlyOverTheSameContent() throws {
    let directory = try TemporaryDirectory()
    let store = ProviderStateStore(path: directory.path("state.json"))
    let v1 = try Self.v1.identity()
    let v2 = try Self.v2.identity()
    #expect(v1.digest == v2.digest && v1.version != v2.version)
    // Nothing held (a fresh install): nothing recorded.
    #expect(try store.recordSameContent(as: v2) == nil)
    #expect(!FileManager.default.fileExists(atPath: store.path))
    try store.save(ProviderState(loaded: v1))
    #expect(try store.recordSameContent(as: v2) == ProviderState(loaded: v2))
    #expect(try store.load() == ProviderState(loaded: v2))
    // Again, and back to the older version (an allowed downgrade): the same content.
    #expect(try store.recordSameContent(as: v2) == ProviderState(loaded: v2))
    #expect(try store.recordSameContent(as: v1) == ProviderState(loaded: v1))
    // Other content, or a request whose outcome was never recorded: no.
    let v3 = try Self.v3.identity()
    #expect(try store.recordSameContent(as: v3) == nil)
    try store.save(ProviderState(loaded: v1, pending: v3))
    #expect(try store.recordSameContent(as: v2) == nil)
    #expect(try store.load() == ProviderState(loaded: v1, pending: v3))
  }

  @Test func blobsOfTheHeldContentUnderAnOlderVersionAreUpToDate() throws {
    let directory = try TemporaryDirectory()
    func candidate(_ name: String, _ bytes: [UInt8]) throws -> BlobCandidate {
      try Data(bytes).write(to: URL(fileURLWithPath: directory.path(name)))
      return try BlobCandidate(path: directory.path(name))
    }
    let v0 = sampleSnapshot(version: 0, count: 30, start: 33_699_000_000)
    let full1 = try candidate("v1", try Self.v1.encoded())
    let full0 = try candidate("v0", try v0.encoded())
    let d01 = try candidate("d01", try SnapshotDelta(from: v0, to: Self.v1).encoded())
    let d23 = try candidate("d23", try SnapshotDelta(from: Self.v2, to: Self.v3).encoded())
    let held = ProviderState(loaded: try Self.v2.identity())
    // The full snapshot of version 1 holds version 2's entries: nothing to do,
    // and no downgrade.
    var plan = try LoadPlanner.plan(isIncremental: true, state: held, candidates: [full1])
    #expect(plan.strategy == .upToDate && plan.target == held.loaded)
    // The delta that made them, next to an older full snapshot: the same.
    plan = try LoadPlanner.plan(isIncremental: true, state: held, candidates: [full0, d01])
    #expect(plan.strategy == .upToDate && plan.target == held.loaded)
    // The delta built from version 2 applies.
    plan = try LoadPlanner.plan(isIncremental: true, state: held, candidates: [full1, d23])
    #expect(plan.strategy == .delta && plan.blob == d23)
    // A newer version of the same entries is still loaded as it always was.
    let full2 = try candidate("v2", try Self.v2.encoded())
    plan = try LoadPlanner.plan(isIncremental: true, state: ProviderState(loaded: try Self.v1.identity()), candidates: [full2])
    #expect(plan.strategy == .replace)
    // A complete request loads the full snapshot it has.
    #expect(try LoadPlanner.plan(isIncremental: false, state: held, candidates: [full1]).strategy == .complete)
  }

  @Test func afterTheVersionMovesTheNextDeltaApplies() throws {
    let harness = try Harness()
    try harness.load([("v1.cdir", try Self.v1.encoded())])
    #expect(try harness.state() == ProviderState(loaded: try Self.v1.identity()))
    // Version 2 left the extension as it was: no request, the version moves.
    let store = ProviderStateStore(path: harness.layout.statePath)
    #expect(try store.recordSameContent(as: try Self.v2.identity()) != nil)
    // A request meanwhile, with version 1's blob still there, changes nothing.
    var report = try harness.load([("v1.cdir", try Self.v1.encoded())])
    let calls = report.statistics
    #expect(report.error == nil && calls.blockingAdds + calls.identificationAdds + calls.blockingRemoves == 0, "\(report)")
    #expect(calls.identificationRemoves + calls.removeAllBlockingCalls + calls.removeAllIdentificationCalls == 0)
    #expect(try harness.state() == ProviderState(loaded: try Self.v2.identity()))
    #expect(try harness.held() == Self.v1.entries)
    // Version 3's delta from version 2 applies: its removes and adds only.
    let delta = try SnapshotDelta(from: Self.v2, to: Self.v3)
    report = try harness.load([("v1.cdir", try Self.v1.encoded()), ("d23.cdir", try delta.encoded())])
    #expect(report.error == nil && report.statistics.removeAllBlockingCalls == 0, "\(report)")
    let header = try BlobReader.readHeader(bytes: try delta.encoded())
    let statistics = report.statistics
    #expect(
      UInt64(statistics.blockingAdds + statistics.identificationAdds) == header.addedEntries
        && UInt64(statistics.blockingRemoves + statistics.identificationRemoves) == header.removedEntries)
    #expect(try harness.held() == Self.v3.entries)
    #expect(try harness.state() == ProviderState(loaded: try Self.v3.identity()))
  }
}
