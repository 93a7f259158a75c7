import Foundation
import SQLiteDatabase
import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectoryStore

@Suite struct CatalogTests {
  func temporaryPath() -> String {
    CalldirTestSupport.temporaryPath("catalog", suffix: ".sqlite")
  }

  func record(_ version: Int) -> SnapshotRecord {
    SnapshotRecord(
      version: version, createdAt: "2026-11-29T00:00:00Z", path: "snapshots/snapshot-\(version).cdir", bytes: 10,
      digest: String(repeating: "a", count: 64), fileChecksum: "sha256:00", blocking: 3, identification: 1,
      labels: 1, rejected: 0, conflicts: 0, allowed: 0, duplicates: 0, rejectsPath: "rejects/r.txt",
      configPath: "/c.json", forced: false, timings: BuildTimings(totalMilliseconds: 5))
  }

  @Test func schemaFileEqualsTheEmbeddedSchema() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let file = try String(contentsOf: root.appendingPathComponent("schemas/catalog.sql"), encoding: .utf8)
    #expect(file == Catalog.schemaSQL + "\n" || file == Catalog.schemaSQL)
  }

  @Test func recordsAndReadsBackSnapshotsSourcesDeltasAndShards() throws {
    let path = temporaryPath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let catalog = try Catalog(path: path)
    #expect(try catalog.latest() == nil)
    try catalog.record(record(1), sources: [], deltas: [])
    let source = SourceRecordRow(
      position: 0, path: "/a.txt", format: "lines", list: "block", region: "US", priority: 0, bytes: 5,
      modifiedAt: "2026-11-29T00:00:00Z", checksum: "sha256:11", dataLines: 4, accepted: 3, rejected: 1,
      writtenPath: "a.txt", options: ["number": "phone"], maxRemovalRatio: 0.5,
      contribution: SourceContribution(numbers: 3, duplicates: 0, unique: 2))
    let delta = DeltaRecord(fromVersion: 1, toVersion: 2, path: "deltas/d.cdir", bytes: 7, fileChecksum: "sha256:22")
    let shard = ShardRecord(
      version: 2, shard: 1, lowerBound: 1, upperBound: 99, path: "snapshots/s.cdir", bytes: 3, digest: "d",
      fileChecksum: "sha256:33", blocking: 2, identification: 1)
    var second = record(2)
    second.defaultRegion = "DE"
    try catalog.record(
      second, sources: [source], rejectReasons: [0: ["too short": 1]], deltas: [delta], shards: [shard])
    #expect(try catalog.latest()?.version == 2)
    #expect(try catalog.latest()?.defaultRegion == "DE")
    #expect(try catalog.snapshot(version: 1)?.defaultRegion == nil)
    #expect(try catalog.allSnapshots().map(\.version) == [1, 2])
    #expect(try catalog.sources(ofVersion: 2) == [source])
    #expect(try catalog.deltas(toVersion: 2) == [delta])
    #expect(try catalog.shards(ofVersion: 2) == [shard])
    #expect(try catalog.rejectReasons(ofVersion: 2) == [0: ["too short": 1]])
    // Reopening keeps everything; a duplicate version is refused whole.
    let reopened = try Catalog(path: path)
    #expect(throws: StoreError.self) { try reopened.record(self.record(2), sources: [source], deltas: []) }
    #expect(try reopened.sources(ofVersion: 2).count == 1)
  }

  @Test func aFailedTransactionLeavesNothingBehind() throws {
    let path = temporaryPath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let catalog = try Catalog(path: path)
    let delta = DeltaRecord(fromVersion: 1, toVersion: 1, path: "d", bytes: 1, fileChecksum: "c")
    // The second delta row repeats the first one's key, so the whole version is rolled back.
    #expect(throws: StoreError.self) { try catalog.record(self.record(1), sources: [], deltas: [delta, delta]) }
    #expect(try catalog.latest() == nil)
  }

  @Test func aSecondLockHolderIsRefusedWithoutWaiting() throws {
    let path = temporaryPath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let first = try StoreLock(path: path, wait: false)
    #expect(throws: StoreError.self) { try StoreLock(path: path, wait: false) }
    withExtendedLifetime(first) {}
  }
}

@Suite struct CatalogMigrationTests {
  static func version1Catalog() throws -> String {
    let path = temporaryPath("calldir-v1", suffix: ".sqlite")
    let database = try Database(path: path, mode: .create)
    try database.execute(sql: CatalogVersion1.schemaSQL)
    try database.execute(sql: CatalogVersion1.sampleRowsSQL)
    try database.setUserVersion(1)
    return path
  }

  @Test func aVersion1CatalogIsMigratedWithEveryRowKept() throws {
    let path = try Self.version1Catalog()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let catalog = try Catalog(path: path)
    let snapshot = try #require(try catalog.latest())
    #expect(snapshot.version == 1 && snapshot.blocking == 5 && snapshot.identification == 2)
    #expect(snapshot.changes == nil && snapshot.conflictsPath == nil)
    // What later schemas added is unknown for it.
    #expect(snapshot.asOf == nil && snapshot.defaultRegion == nil)
    let source = try #require(try catalog.sources(ofVersion: 1).first)
    #expect(source.writtenPath == "/cfg/block.txt")
    #expect(source.options.isEmpty && source.contribution == nil && !source.isAbsent)
    #expect(try catalog.refusals().isEmpty)
    // The migrated catalog takes new rows, and opening it again changes nothing.
    try catalog.record(refusal: RefusalRecord(
      attemptedAt: "2026-11-30T00:00:00Z", version: 2, kind: "sourceEmpty", message: "m", source: "block.txt",
      rejectsPath: nil))
    let reopened = try Catalog(path: path)
    #expect(try reopened.refusals().map(\.kind) == ["sourceEmpty"])
    #expect(try Database(path: path, mode: .readOnly).userVersion() == Catalog.schemaVersion)
  }

  @Test func aColumnOfTheWrongTypeIsAnErrorNotAZero() throws {
    let path = try Self.version1Catalog()
    defer { try? FileManager.default.removeItem(atPath: path) }
    _ = try Catalog(path: path)
    let database = try Database(path: path, mode: .readWrite)
    try database.execute(sql: "UPDATE snapshots SET blocking = 'five' WHERE version = 1")
    let catalog = try Catalog(path: path)
    #expect {
      _ = try catalog.latest()
    } throws: { error in
      "\(error)".contains("snapshots.blocking holds no integer")
    }
  }
}
