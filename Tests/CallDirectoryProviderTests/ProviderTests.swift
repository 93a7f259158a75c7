import CallDirectoryFormat
import CallDirectoryProvider
import CallKitMock
import Foundation
import Testing

/// The loader served in process by the mock, one request at a time.
@Suite struct ProviderTests {
  @Test func completeLoadStreamsTheFullSnapshotAndRecordsTheState() throws {
    let harness = try Harness()
    let v1 = sampleSnapshot(version: 1, count: 1000)
    let report = try harness.load([("v1.cdir", try v1.encoded())])
    #expect(report.error == nil)
    #expect(report.wasIncremental == false)
    #expect(report.trace.first == .readIncremental(false))
    #expect(report.statistics.blockingAdds == 1000 && report.statistics.identificationAdds == 500)
    #expect(report.statistics.blockingRemoves == 0 && report.statistics.removeAllBlockingCalls == 0)
    #expect(try harness.held() == v1.entries)
    #expect(try harness.state() == ProviderState(loaded: try v1.identity()))
  }

  @Test func incrementalRequestAppliesTheMatchingDeltaRemovesFirst() throws {
    let harness = try Harness()
    let v1 = sampleSnapshot(version: 1, count: 200)
    var v2 = v1
    v2.version = 2
    v2.blocking.removeFirst(3)
    v2.blocking.append(40_000_000_000)
    v2.identification[0].label = "Relabelled"
    v2.identification.removeLast()
    let delta = try SnapshotDelta(from: v1, to: v2)
    try harness.load([("v1.cdir", try v1.encoded())])
    let report = try harness.load([("v1-v2.cdir", try delta.encoded())])
    #expect(report.error == nil)
    #expect(report.wasIncremental)
    #expect(report.trace.first == .readIncremental(true))
    #expect(report.statistics.blockingRemoves == 3 && report.statistics.blockingAdds == 1)
    #expect(report.statistics.identificationRemoves == 2 && report.statistics.identificationAdds == 1)
    // Removes (blocking, then identification) come before adds (blocking, then identification).
    #expect(report.trace.last == .complete)
    let kinds = report.trace.dropFirst().dropLast().map { operation -> Int in
      switch operation {
      case .removeBlocking: 0
      case .removeIdentification: 1
      case .addBlocking: 2
      case .addIdentification: 3
      default: 9
      }
    }
    #expect(kinds == kinds.sorted() && !kinds.contains(9))
    #expect(try harness.held() == v2.entries)
    #expect(try harness.state() == ProviderState(loaded: try v2.identity()))
  }

  @Test func incrementalRequestWithoutAFittingDeltaResetsAndLoadsTheFullSnapshot() throws {
    let harness = try Harness()
    let v1 = sampleSnapshot(version: 1, count: 100)
    let v2 = sampleSnapshot(version: 2, count: 150, start: 44_700_000_000)
    let v3 = sampleSnapshot(version: 3, count: 10)
    let unrelated = try SnapshotDelta(from: v2, to: v3)
    try harness.load([("v1.cdir", try v1.encoded())])
    let report = try harness.load([("v2-v3.cdir", try unrelated.encoded()), ("v2.cdir", try v2.encoded())])
    #expect(report.error == nil)
    #expect(report.wasIncremental)
    #expect(report.statistics.removeAllBlockingCalls == 1 && report.statistics.removeAllIdentificationCalls == 1)
    #expect(try harness.held() == v2.entries)
    #expect(try harness.state() == ProviderState(loaded: try v2.identity()))
  }

  @Test func deltaOnAnotherBaseIsRefusedWithoutTouchingTheEntries() throws {
    let harness = try Harness()
    let v1 = sampleSnapshot(version: 1, count: 100)
    let v2 = sampleSnapshot(version: 2, count: 120)
    let v3 = sampleSnapshot(version: 3, count: 130)
    try harness.load([("v1.cdir", try v1.encoded())])
    let store = try harness.storeBytes()
    let stateBefore = try Data(contentsOf: URL(fileURLWithPath: harness.layout.statePath))
    let report = try harness.load([("v2-v3.cdir", try SnapshotDelta(from: v2, to: v3).encoded())])
    let error = try #require(report.error as? CallDirectoryProviderError)
    guard case .noUsableBlob(let message) = error else {
      Issue.record("unexpected error \(error)")
      return
    }
    #expect(message.contains("no delta applies to the loaded version 1"))
    #expect(report.trace == [.readIncremental(true), .cancel(domain: CallDirectoryProviderError.errorDomain, code: 1)])
    #expect(try harness.storeBytes() == store)
    #expect(try Data(contentsOf: URL(fileURLWithPath: harness.layout.statePath)) == stateBefore)
  }

  @Test func deltaOnAFreshExtensionIsRefused() throws {
    let harness = try Harness()
    let v1 = sampleSnapshot(version: 1, count: 10)
    let v2 = sampleSnapshot(version: 2, count: 12)
    let report = try harness.load([("v1-v2.cdir", try SnapshotDelta(from: v1, to: v2).encoded())])
    #expect((report.error as? CallDirectoryProviderError)?.errorCode == 1)
    #expect(report.statistics.blockingAdds == 0)
    #expect(try harness.state() == ProviderState())
    #expect(!FileManager.default.fileExists(atPath: try harness.device.storeFileURL(forExtensionWithIdentifier: harness.identifier).path))
  }

  @Test func corruptionMidStreamCancelsAndTheSystemDropsTheRequest() throws {
    let harness = try Harness()
    let v1 = sampleSnapshot(version: 1, count: 100)
    try harness.load([("v1.cdir", try v1.encoded())])
    let store = try harness.storeBytes()
    let state = try harness.state()
    var bytes = try sampleSnapshot(version: 2, count: 5000, start: 55_000_000_000).encoded()
    let last = bytes.count - 1
    bytes[last] ^= 0x55  // inside the identification section's last frame
    let report = try harness.load([("v2.cdir", bytes)])
    let error = try #require(report.error as? CallDirectoryProviderError)
    guard case .corruptBlob(_, .checksumMismatch) = error else {
      Issue.record("unexpected error \(error)")
      return
    }
    #expect(report.statistics.blockingAdds == 5000)  // streamed before the bad frame
    #expect(try harness.storeBytes() == store)
    #expect(try harness.state() == state)
    #expect(try harness.held() == v1.entries)
  }

  @Test func reloadingTheHeldSnapshotIsAnEmptyIncrementalRequest() throws {
    let harness = try Harness()
    let v1 = sampleSnapshot(version: 1, count: 50)
    try harness.load([("v1.cdir", try v1.encoded())])
    let report = try harness.load([("v1.cdir", try v1.encoded())])
    #expect(report.error == nil)
    #expect(report.trace == [.readIncremental(true), .complete])
    #expect(try harness.held() == v1.entries)
  }

  @Test func aRequestWhoseOutcomeWasNeverRecordedForcesAFullLoad() throws {
    let harness = try Harness()
    let v1 = sampleSnapshot(version: 1, count: 50)
    let v2 = sampleSnapshot(version: 2, count: 60)
    try harness.load([("v1.cdir", try v1.encoded())])
    try ProviderStateStore(path: harness.layout.statePath).save(
      ProviderState(loaded: try v1.identity(), pending: try v2.identity()))
    let refused = try harness.load([("v1-v2.cdir", try SnapshotDelta(from: v1, to: v2).encoded())])
    #expect((refused.error as? CallDirectoryProviderError)?.errorCode == 1)
    let report = try harness.load([("v2.cdir", try v2.encoded())])
    #expect(report.error == nil && report.statistics.removeAllBlockingCalls == 1)
    #expect(try harness.state() == ProviderState(loaded: try v2.identity()))
  }

  @Test func aFailedCommitKeepsThePreviousState() throws {
    let harness = try Harness(settings: ExtensionSettings(maximumEntryCount: 100))
    let v1 = sampleSnapshot(version: 1, count: 20)
    try harness.load([("v1.cdir", try v1.encoded())])
    let report = try harness.load([("v2.cdir", try sampleSnapshot(version: 2, count: 500).encoded())])
    #expect((report.error as? CXErrorCodeCallDirectoryManagerError)?.code == .maximumEntriesExceeded)
    #expect(try harness.state() == ProviderState(loaded: try v1.identity()))
    #expect(try harness.held() == v1.entries)
  }

  @Test func anUnreadableStateFileMeansTheLoadedSnapshotIsUnknown() throws {
    let harness = try Harness()
    let v1 = sampleSnapshot(version: 1, count: 30)
    let v2 = sampleSnapshot(version: 2, count: 40)
    try harness.load([("v1.cdir", try v1.encoded())])
    try Data("{\"version\": 1, \"digest\": \"nope\"".utf8).write(to: URL(fileURLWithPath: harness.layout.statePath))
    #expect(throws: CallDirectoryProviderError.self) { try harness.state() }
    let refused = try harness.load([("d.cdir", try SnapshotDelta(from: v1, to: v2).encoded())])
    #expect((refused.error as? CallDirectoryProviderError)?.errorCode == 1)
    let report = try harness.load([("v2.cdir", try v2.encoded())])
    #expect(report.error == nil)
    #expect(try harness.held() == v2.entries)
  }

  @Test func theLoaderRefusesAnOlderSnapshotByDefault() throws {
    let harness = try Harness()
    let v2 = sampleSnapshot(version: 2, count: 30)
    let v1 = sampleSnapshot(version: 1, count: 20)
    try harness.load([("v2.cdir", try v2.encoded())])
    let store = try harness.storeBytes()
    let report = try harness.load([("v1.cdir", try v1.encoded())])
    #expect((report.error as? CallDirectoryProviderError)?.errorCode == 9)
    #expect(report.trace == [.readIncremental(true), .cancel(domain: CallDirectoryProviderError.errorDomain, code: 9)])
    #expect(try harness.storeBytes() == store)
    #expect(try harness.state() == ProviderState(loaded: try v2.identity()))
  }

  @Test func unreadableBlobsAreSkippedWhenAnotherFits() throws {
    let harness = try Harness()
    let v1 = sampleSnapshot(version: 1, count: 30)
    let report = try harness.load([("junk.cdir", Array("not a blob".utf8)), ("v1.cdir", try v1.encoded())])
    #expect(report.error == nil)
    #expect(try harness.held() == v1.entries)
  }
}

/// The recording sink: what the loader calls, in order.
final class RecordingSink: CallDirectoryEntrySink {
  enum Call: Equatable {
    case add(Int64), identify(Int64, String), remove(Int64), unidentify(Int64), removeAll, unidentifyAll
  }
  let isIncrementalValue: Bool
  var calls: [Call] = []
  var incrementalReads = 0
  init(isIncremental: Bool) { isIncrementalValue = isIncremental }
  var isIncremental: Bool {
    incrementalReads += 1
    return isIncrementalValue
  }
  func addBlockingEntry(withNextSequentialPhoneNumber phoneNumber: Int64) { calls.append(.add(phoneNumber)) }
  func addIdentificationEntry(withNextSequentialPhoneNumber phoneNumber: Int64, label: String) {
    calls.append(.identify(phoneNumber, label))
  }
  func removeBlockingEntry(withPhoneNumber phoneNumber: Int64) { calls.append(.remove(phoneNumber)) }
  func removeIdentificationEntry(withPhoneNumber phoneNumber: Int64) { calls.append(.unidentify(phoneNumber)) }
  func removeAllBlockingEntries() { calls.append(.removeAll) }
  func removeAllIdentificationEntries() { calls.append(.unidentifyAll) }
}

@Suite struct PlannerAndStateTests {
  func candidate(_ directory: TemporaryDirectory, _ name: String, _ bytes: [UInt8]) throws -> BlobCandidate {
    let path = directory.path(name)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return try BlobCandidate(path: path)
  }

  @Test func plannerPrefersTheNewestSnapshotAndAFittingDelta() throws {
    let directory = try TemporaryDirectory()
    let v1 = sampleSnapshot(version: 1, count: 5)
    let v2 = sampleSnapshot(version: 2, count: 6)
    let v3 = sampleSnapshot(version: 3, count: 7)
    let full2 = try candidate(directory, "v2", try v2.encoded())
    let full3 = try candidate(directory, "v3", try v3.encoded())
    let d12 = try candidate(directory, "d12", try SnapshotDelta(from: v1, to: v2).encoded())
    let d13 = try candidate(directory, "d13", try SnapshotDelta(from: v1, to: v3).encoded())
    let held = ProviderState(loaded: try v1.identity())

    #expect(try LoadPlanner.plan(isIncremental: false, state: held, candidates: [d13, full2, full3]).blob == full3)
    #expect(try LoadPlanner.plan(isIncremental: true, state: held, candidates: [full3, d13]).strategy == .delta)
    let replace = try LoadPlanner.plan(isIncremental: true, state: held, candidates: [d12, full3])
    #expect(replace.strategy == .replace && replace.blob == full3)
    #expect(try LoadPlanner.plan(isIncremental: true, state: held, candidates: [d12, full2]).strategy == .delta)
    let v2held = ProviderState(loaded: try v2.identity())
    #expect(try LoadPlanner.plan(isIncremental: true, state: v2held, candidates: [d12]).strategy == .upToDate)
    #expect(try LoadPlanner.plan(isIncremental: true, state: v2held, candidates: [full2]).strategy == .upToDate)
    #expect(throws: CallDirectoryProviderError.self) {
      try LoadPlanner.plan(isIncremental: true, state: v2held, candidates: [d13])
    }
    #expect(throws: CallDirectoryProviderError.self) {
      try LoadPlanner.plan(isIncremental: false, state: ProviderState(), candidates: [d12])
    }
  }

  @Test func plannerRefusesDowngradesUnlessAllowed() throws {
    let directory = try TemporaryDirectory()
    let v3 = sampleSnapshot(version: 3, count: 7)
    let v5 = sampleSnapshot(version: 5, count: 9)
    let full3 = try candidate(directory, "v3", try v3.encoded())
    let full5 = try candidate(directory, "v5", try v5.encoded())
    let backwards = try candidate(directory, "d53", try SnapshotDelta(from: v5, to: v3).encoded())
    let v3Identity = try v3.identity()
    let v5Identity = try v5.identity()
    let held = ProviderState(loaded: v5Identity)
    for older in [full3, backwards] {
      let error = #expect(throws: CallDirectoryProviderError.self) {
        try LoadPlanner.plan(isIncremental: true, state: held, candidates: [older])
      }
      #expect(error == .downgrade(held: v5Identity, offered: v3Identity))
      #expect(error?.errorCode == 9)
      #expect(error?.description == "the extension holds version 5; refusing to load version 3 (older)")
      let allowed = try LoadPlanner.plan(isIncremental: true, state: held, candidates: [older], allowsDowngrade: true)
      #expect(allowed.target == v3Identity)
    }
    // The held version itself, a newer one, or a complete request are no downgrades.
    #expect(try LoadPlanner.plan(isIncremental: true, state: held, candidates: [full5]).strategy == .upToDate)
    #expect(try LoadPlanner.plan(isIncremental: true, state: held, candidates: [full3, full5]).strategy == .upToDate)
    #expect(try LoadPlanner.plan(isIncremental: false, state: held, candidates: [full3]).strategy == .complete)
  }

  @Test func plannerNamesADeltaOnADifferentSnapshotOfTheHeldVersion() throws {
    let directory = try TemporaryDirectory()
    let held = sampleSnapshot(version: 4, count: 5)
    let rebuilt = sampleSnapshot(version: 4, count: 6)
    let v5 = sampleSnapshot(version: 5, count: 7)
    let delta = try candidate(directory, "d45", try SnapshotDelta(from: rebuilt, to: v5).encoded())
    let error = #expect(throws: CallDirectoryProviderError.self) {
      try LoadPlanner.plan(isIncremental: true, state: ProviderState(loaded: try held.identity()), candidates: [delta])
    }
    let baseDigest = try rebuilt.contentDigest().hex.prefix(12)
    let heldDigest = try held.contentDigest().hex.prefix(12)
    let expected = "no usable blob: delta 4 → 5 is built on a different version 4 "
      + "(base digest \(baseDigest)…, the extension holds \(heldDigest)…); load a full snapshot; available: delta 4 → 5"
    #expect(error?.description == expected)
  }

  @Test func streamingReadsNothingButTheEntriesInCallKitOrder() throws {
    let directory = try TemporaryDirectory()
    let v1 = Snapshot(
      version: 1, blocking: [5, 7, 9],
      identification: [.init(number: 3, label: "a"), .init(number: 8, label: "b")])
    let v2 = Snapshot(
      version: 2, blocking: [7, 9, 12],
      identification: [.init(number: 3, label: "c"), .init(number: 10, label: "b")])
    let path = directory.path("d")
    try SnapshotDelta(from: v1, to: v2).write(to: path)
    let loader = CallDirectoryLoader(blobPaths: [path], statePath: directory.path("state.json"))
    try ProviderStateStore(path: directory.path("state.json")).save(ProviderState(loaded: try v1.identity()))
    let sink = RecordingSink(isIncremental: true)
    let plan = try loader.plan(isIncremental: sink.isIncremental)
    try loader.stream(plan, into: sink)
    #expect(sink.incrementalReads == 1)
    #expect(sink.calls == [.remove(5), .unidentify(3), .unidentify(8), .add(12), .identify(3, "c"), .identify(10, "b")])
  }

  @Test func stateFileRoundTripsAndRejectsGarbage() throws {
    let directory = try TemporaryDirectory()
    let store = ProviderStateStore(path: directory.path("sub/state.json"))
    #expect(try store.load() == ProviderState())
    let a = SnapshotIdentity(version: 7, digest: ContentDigest.empty)
    // Versions are JSON integers, exact up to Int64.max (the catalog's range).
    let b = SnapshotIdentity(version: UInt64(Int64.max), digest: ContentDigest.zero)
    for state in [ProviderState(), ProviderState(loaded: a), ProviderState(loaded: a, pending: b), ProviderState(pending: b)] {
      try store.save(state)
      #expect(try store.load() == state)
    }
    let text = try String(contentsOfFile: store.path, encoding: .utf8)
    #expect(text == "{\"pendingVersion\":9223372036854775807,\"pendingDigest\":\"\(ContentDigest.zero.hex)\"}\n")
    #expect(throws: CallDirectoryProviderError.self) {
      try store.save(ProviderState(loaded: SnapshotIdentity(version: UInt64.max, digest: ContentDigest.zero)))
    }
    #expect(try String(contentsOfFile: store.path, encoding: .utf8) == text)
    for garbage in ["", "{", "[]", "{\"version\":1}", "{\"version\":-1,\"digest\":\"\(ContentDigest.empty.hex)\"}",
                    "{\"version\":18446744073709551616,\"digest\":\"x\"}",
                    "{\"version\":18446744073709551615,\"digest\":\"\(ContentDigest.empty.hex)\"}",
                    "{\"a\":1,\"a\":2}", "{} x",
                    "{\"version\":01,\"digest\":\"\(ContentDigest.empty.hex)\"}", String(repeating: " ", count: 5000)] {
      try Data(garbage.utf8).write(to: URL(fileURLWithPath: store.path))
      #expect(throws: CallDirectoryProviderError.self, "\(garbage.prefix(40))") { try store.load() }
    }
    try Data("{ \"digest\" : \"\(ContentDigest.empty.hex)\", \"version\" : 7, \"note\": \"x\\\"y\" }".utf8)
      .write(to: URL(fileURLWithPath: store.path))
    #expect(try store.load() == ProviderState(loaded: a))
  }

  @Test func aMalformedStateSaysWhereAndWhat() throws {
    let directory = try TemporaryDirectory()
    let store = ProviderStateStore(path: directory.path("state.json"))
    let hex = ContentDigest.empty.hex
    let cases: [(String, String)] = [
      ("[]", "(root): expected an object"),
      (#"{"version":1}"#, "digest: expected a string"),
      (#"{"digest":"\#(hex)"}"#, "version: expected an integer"),
      (#"{"version":null,"digest":"\#(hex)"}"#, "version: expected an integer"),
      (#"{"version":-1,"digest":"\#(hex)"}"#, "version: expected at least 0, got -1"),
      (#"{"version":1.5,"digest":"\#(hex)"}"#, "version: expected an integer"),
      (#"{"version":1,"digest":"xyz"}"#, "digest: expected 64 hexadecimal digits"),
      (#"{"version":1,"digest":"\#(hex)","pendingVersion":2}"#, "pendingDigest: expected a string"),
      (#"{"pendingVersion":2,"pendingDigest":[]}"#, "pendingDigest: expected a string"),
    ]
    for (text, reason) in cases {
      _ = try directory.write("state.json", text)
      #expect(throws: CallDirectoryProviderError.stateMalformed(path: store.path, reason: reason), "\(text)") {
        try store.load()
      }
    }
    #expect(
      CallDirectoryProviderError.stateMalformed(path: "/c/state.json", reason: "digest: expected a string").description
        == "the provider state '/c/state.json' is not valid: digest: expected a string")
    // Absent and null mean no snapshot; an uppercase digest is a digest.
    _ = try directory.write("state.json", #"{"version":null,"digest":null,"pendingVersion":3,"pendingDigest":"\#(hex.uppercased())"}"#)
    #expect(try store.load() == ProviderState(pending: SnapshotIdentity(version: 3, digest: ContentDigest.empty)))
  }
}
