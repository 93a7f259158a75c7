import Foundation
import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectoryStore

/// The catalog's invariants, checked in debug builds: what one version is
/// recorded with belongs to it, and what a build publishes lies above
/// every version before it with its shards tiling the numbers. (Every
/// build of the end-to-end tests runs the published check through the
/// debug binary.)
@Suite struct CatalogInvariantTests {
  static func snapshot(_ version: Int) -> SnapshotRecord {
    SnapshotRecord(
      version: version, createdAt: "2026-11-29T00:00:00Z", path: "snapshots/snapshot-\(version).cdir", bytes: 10,
      digest: String(repeating: "a", count: 64), fileChecksum: "sha256:00", blocking: 3, identification: 1,
      labels: 1, rejected: 0, conflicts: 0, allowed: 0, duplicates: 0, rejectsPath: "rejects/r.txt",
      configPath: "/c.json", forced: false, timings: BuildTimings(totalMilliseconds: 5))
  }

  static func shard(_ version: Int, _ number: Int, _ bounds: ClosedRange<Int64>) -> ShardRecord {
    ShardRecord(
      version: version, shard: number, lowerBound: bounds.lowerBound, upperBound: bounds.upperBound,
      path: "snapshots/s\(number).cdir", bytes: 3, digest: "d", fileChecksum: "sha256:33", blocking: 1,
      identification: 0)
  }

  static func delta(_ from: Int, _ to: Int) -> DeltaRecord {
    DeltaRecord(fromVersion: from, toVersion: to, path: "deltas/d\(from).cdir", bytes: 7, fileChecksum: "sha256:22")
  }

  /// A version with deltas from two bases and three shards, as a build
  /// makes it, passes both checks and is recorded.
  @Test func aPublishedVersionPassesItsChecks() throws {
    let shards = [
      Self.shard(3, 1, 1...99), Self.shard(3, 2, 100...5_000), Self.shard(3, 3, 5_001...(Int64.max - 1)),
    ]
    let shardDeltas = [
      ShardDeltaRecord(fromVersion: 1, toVersion: 3, shard: 2, path: "deltas/x.cdir", bytes: 1, fileChecksum: "c"),
      ShardDeltaRecord(fromVersion: 2, toVersion: 3, shard: 2, path: "deltas/y.cdir", bytes: 1, fileChecksum: "c"),
    ]
    Catalog.checkPublishedInvariants(
      Self.snapshot(3), highestBefore: 2, deltas: [Self.delta(1, 3), Self.delta(2, 3)], shards: shards,
      shardDeltas: shardDeltas)
    let path = temporaryPath("catalog", suffix: ".sqlite")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let catalog = try Catalog(path: path)
    try catalog.record(
      Self.snapshot(3), sources: [], deltas: [Self.delta(1, 3), Self.delta(2, 3)], shards: shards,
      shardDeltas: shardDeltas)
    #expect(try catalog.shards(ofVersion: 3) == shards)
  }

  /// A delta recorded under another version than its target is caught.
  @Test func aDeltaOfAnotherVersionIsCaught() async {
    await #expect(processExitsWith: .failure) {
      Catalog.checkRecordInvariants(
        CatalogInvariantTests.snapshot(3), deltas: [CatalogInvariantTests.delta(1, 2)], shards: [], shardDeltas: [])
    }
  }

  /// A version published at or below one the catalog knew is caught.
  @Test func aVersionNotAboveTheHighestIsCaught() async {
    await #expect(processExitsWith: .failure) {
      Catalog.checkPublishedInvariants(
        CatalogInvariantTests.snapshot(3), highestBefore: 3, deltas: [], shards: [], shardDeltas: [])
    }
  }

  /// Shards whose ranges leave a gap are caught.
  @Test func shardsWithAGapAreCaught() async {
    await #expect(processExitsWith: .failure) {
      Catalog.checkPublishedInvariants(
        CatalogInvariantTests.snapshot(2), highestBefore: 1, deltas: [],
        shards: [
          CatalogInvariantTests.shard(2, 1, 1...99), CatalogInvariantTests.shard(2, 2, 101...(Int64.max - 1)),
        ],
        shardDeltas: [])
    }
  }
}
