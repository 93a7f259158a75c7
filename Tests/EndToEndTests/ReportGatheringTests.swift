import CallDirectoryCompiler
import CallDirectoryStore
import Foundation
import Testing

/// A store the binary built as nightly runs would: four versions (numbers
/// added, then removed, then a drop a guard refused and `--force`
/// published), sharded at 60 entries per extension, with numbers of three
/// calling codes and one rejected line.
struct ReportedStore {
  let guarded: GuardedStore
  var store: String { guarded.store }
  var directory: TemporaryDirectory { guarded.directory }

  init() throws {
    guarded = try GuardedStore(block: 100, names: 40)
    try guarded.directory.write("feeds/abroad.txt", "+44 20 7946 0018\n+1 212 555 0100\n+1 212 555 0101\nnot a number\n")
    try guarded.writeConfig(
      extraSources: #", {"path": "feeds/abroad.txt", "format": "lines", "list": "block"}"#, maxEntriesPerExtension: 60)
    try Self.expectPublished(try guarded.build())
    try guarded.writeBlock(120)
    try Self.expectPublished(try guarded.build())
    try guarded.writeBlock(100, from: 10)
    try Self.expectPublished(try guarded.build())
    try guarded.writeBlock(40, from: 10)
    let refused = try guarded.build()
    try #require(refused.status == 65, "\(refused.standardError)")
    try Self.expectPublished(try guarded.build(["--force"]))
  }

  private static func expectPublished(_ result: CalldirProcess.Result) throws {
    try #require(result.status == 0, "\(result.standardError)")
  }
}

/// `StoreReportGatherer` on stores the real binary built: the model holds
/// what the catalog and the latest snapshot hold.
@Suite struct ReportGatheringTests {
  @Test func theModelHoldsEveryVersionRefusalSourceAndShard() throws {
    let reported = try ReportedStore()
    let layout = StoreLayout(root: reported.store)
    let report = try StoreReportGatherer(store: layout).gather()
    let catalog = try Catalog.openForReading(layout)
    let snapshots = try catalog.allSnapshots()

    #expect(report.store == reported.store)
    #expect(report.versions.map(\.version) == [1, 2, 3, 4])
    #expect(report.versions.map(\.blocking) == snapshots.map(\.blocking))
    #expect(report.versions.map(\.identification) == snapshots.map(\.identification))
    #expect(report.versions.map(\.createdAt) == snapshots.map(\.createdAt))
    #expect(report.generatedAt == snapshots.last?.createdAt)
    #expect(report.versions.map(\.forced) == [false, false, false, true])
    #expect(report.versions[0].changes == nil)
    #expect(report.versions[1].changes == ListChanges(blockingAdded: 20))
    #expect(report.versions[2].changes == ListChanges(blockingRemoved: 20))
    #expect(report.versions[3].changes == ListChanges(blockingRemoved: 60))

    #expect(!report.refusals.isEmpty)
    #expect(report.refusals.allSatisfy { $0.version == 4 })
    #expect(report.refusals.contains { $0.kind == "sourceRemoval" && $0.source == "feeds/swiss.txt" })
    #expect(report.refusals.map(\.message) == (try catalog.refusals()).map(\.message))

    let latest = try #require(report.latest)
    #expect(latest.version == 4)
    #expect(latest.callingCodes.map(\.callingCode) == [41, 1, 44])
    #expect(latest.callingCodes.map(\.region) == ["CH", "US", "GB"])
    #expect(latest.callingCodes[0].counts == StoreReport.EntryCounts(blocking: 40, identification: 40))
    #expect(latest.callingCodes[1].counts == StoreReport.EntryCounts(blocking: 2, identification: 0))
    #expect(latest.noCallingCode == StoreReport.EntryCounts())
    let newest = try #require(snapshots.last)
    #expect(latest.callingCodes.reduce(0) { $0 + $1.counts.blocking } == newest.blocking)
    #expect(latest.callingCodes.reduce(0) { $0 + $1.counts.identification } == newest.identification)

    #expect(latest.sources.map(\.path) == ["feeds/swiss.txt", "feeds/names.csv", "feeds/abroad.txt"])
    #expect(latest.sources.map(\.list) == ["block", "identify", "block"])
    let swiss = latest.sources[0]
    #expect(swiss.contribution == SourceContribution(numbers: 40, duplicates: 0, unique: 40))
    #expect(swiss.dataLines == 40 && swiss.accepted == 40 && swiss.rejected == 0)
    let abroad = latest.sources[2]
    #expect(abroad.rejected == 1)
    #expect(abroad.rejectReasons == [StoreReport.RejectReason(reason: "not a phone number", count: 1)])

    let shards = try catalog.shards(ofVersion: 4)
    #expect(shards.count >= 2)
    #expect(latest.extensions.map(\.shard) == shards.map(\.shard))
    #expect(latest.extensions.map(\.counts.blocking) == shards.map(\.blocking))
    #expect(latest.extensions.map(\.counts.identification) == shards.map(\.identification))
    #expect(latest.extensions.map(\.lowerBound) == shards.map(\.lowerBound))
    #expect(latest.extensions.reduce(0) { $0 + $1.counts.total } == newest.blocking + newest.identification)
    #expect(latest.extensions.allSatisfy { !$0.isNearLimit })
  }

  @Test func anUnshardedVersionIsOneExtensionHoldingEverything() throws {
    let store = try GuardedStore(block: 30, names: 12)
    #expect(try store.build().status == 0)
    let report = try StoreReportGatherer(store: StoreLayout(root: store.store)).gather()
    let extensions = try #require(report.latest?.extensions)
    #expect(extensions == [
      StoreReport.ExtensionFill(
        shard: nil, lowerBound: nil, upperBound: nil, counts: StoreReport.EntryCounts(blocking: 30, identification: 12))
    ])
    #expect(report.refusals.isEmpty)
    #expect(report.versions.map(\.changes) == [nil])
  }

  @Test func aStoreWithoutACatalogIsNoCatalog() throws {
    let directory = try TemporaryDirectory()
    let error = #expect(throws: ReportError.self) {
      try StoreReportGatherer(store: StoreLayout(root: directory.path("missing"))).gather()
    }
    guard case .store(.noCatalog)? = error else {
      Issue.record("expected noCatalog, got \(String(describing: error))")
      return
    }
    #expect(!FileManager.default.fileExists(atPath: directory.path("missing")))
  }
}
