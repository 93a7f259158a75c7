import Foundation
import SQLiteDatabase

/// The store's history: every published snapshot with its sources, counts,
/// digests and deltas, in `STORE/catalog.sqlite` (schema: `schemas/catalog.sql`).
public final class Catalog {
  private let database: Database

  /// Opens (creating when needed) the catalog of a store, for publishing.
  ///
  /// To read an existing store, use ``openForReading(_:)``.
  /// - Throws: `StoreError` when the database cannot be opened or is of an
  ///   unknown schema version.
  public init(path: String) throws(StoreError) {
    do {
      database = try Database(path: path, mode: .create)
      try database.setUpWALMode(synchronous: .full)
      let version = try database.userVersion()
      switch version {
      case 0:
        try database.withTransaction(.immediate) {
          try database.execute(sql: Self.schemaSQL)
          try database.setUserVersion(Self.schemaVersion)
        }
      case Self.schemaVersion:
        break
      default:
        throw StoreError.catalog("catalog schema version \(version) is newer than this calldir supports (\(Self.schemaVersion))")
      }
    } catch let error as StoreError {
      throw error
    } catch let error as SQLiteError {
      throw StoreError(error)
    } catch {
      throw .catalog("\(error)")
    }
  }

  /// Wraps a connection ``openForReading(_:)`` opened and checked.
  init(checkedReadOnly database: Database) {
    self.database = database
  }

  /// The newest published snapshot, if any.
  public func latest() throws(StoreError) -> SnapshotRecord? {
    try snapshots(where: "ORDER BY version DESC LIMIT 1").first
  }

  /// One snapshot by version.
  public func snapshot(version: Int) throws(StoreError) -> SnapshotRecord? {
    try snapshots(where: "WHERE version = \(version)").first
  }

  /// Every published snapshot, oldest first.
  public func allSnapshots() throws(StoreError) -> [SnapshotRecord] {
    try snapshots(where: "ORDER BY version")
  }

  /// The sources recorded with a snapshot, in config order.
  public func sources(ofVersion version: Int) throws(StoreError) -> [SourceRecordRow] {
    try run {
      try database.query(
        "SELECT position, path, format, list, region, priority, bytes, modified_at, checksum, data_lines, accepted, rejected FROM snapshot_sources WHERE version = ? ORDER BY position",
        arguments: [.integer(Int64(version))]
      ).map { row in
        SourceRecordRow(
          position: Int(row[0].integerValue), path: row[1].textValue, format: row[2].textValue,
          list: row[3].textValue, region: row[4].textValue, priority: Int(row[5].integerValue),
          bytes: row[6].integerValue, modifiedAt: row[7].textValue, checksum: row[8].textValue,
          dataLines: Int(row[9].integerValue), accepted: Int(row[10].integerValue), rejected: Int(row[11].integerValue))
      }
    }
  }

  /// The deltas published towards `version`, newest base first.
  public func deltas(toVersion version: Int) throws(StoreError) -> [DeltaRecord] {
    try run {
      try database.query(
        "SELECT from_version, to_version, path, bytes, file_checksum FROM deltas WHERE to_version = ? ORDER BY from_version DESC",
        arguments: [.integer(Int64(version))]
      ).map { row in
        DeltaRecord(
          fromVersion: Int(row[0].integerValue), toVersion: Int(row[1].integerValue),
          path: row[2].textValue, bytes: row[3].integerValue, fileChecksum: row[4].textValue)
      }
    }
  }

  /// The shards of a snapshot, in order (empty when it was not sharded).
  public func shards(ofVersion version: Int) throws(StoreError) -> [ShardRecord] {
    try run {
      try database.query(
        "SELECT version, shard, lower_bound, upper_bound, path, bytes, digest, file_checksum, blocking, identification FROM shards WHERE version = ? ORDER BY shard",
        arguments: [.integer(Int64(version))]
      ).map { row in
        ShardRecord(
          version: Int(row[0].integerValue), shard: Int(row[1].integerValue), lowerBound: row[2].integerValue,
          upperBound: row[3].integerValue, path: row[4].textValue, bytes: row[5].integerValue,
          digest: row[6].textValue, fileChecksum: row[7].textValue, blocking: Int(row[8].integerValue),
          identification: Int(row[9].integerValue))
      }
    }
  }

  /// The shard deltas published towards `version`.
  public func shardDeltas(toVersion version: Int) throws(StoreError) -> [ShardDeltaRecord] {
    try run {
      try database.query(
        "SELECT from_version, to_version, shard, path, bytes, file_checksum FROM shard_deltas WHERE to_version = ? ORDER BY shard, from_version DESC",
        arguments: [.integer(Int64(version))]
      ).map { row in
        ShardDeltaRecord(
          fromVersion: Int(row[0].integerValue), toVersion: Int(row[1].integerValue), shard: Int(row[2].integerValue),
          path: row[3].textValue, bytes: row[4].integerValue, fileChecksum: row[5].textValue)
      }
    }
  }

  /// Records a published snapshot, its sources, deltas and shards in one transaction.
  public func record(
    _ snapshot: SnapshotRecord, sources: [SourceRecordRow], deltas: [DeltaRecord],
    shards: [ShardRecord] = [], shardDeltas: [ShardDeltaRecord] = []
  ) throws(StoreError) {
    try run {
      try database.withTransaction(.immediate) {
        try database.execute(
          """
          INSERT INTO snapshots (version, created_at, path, bytes, digest, file_checksum, blocking, identification,
            labels, rejected, conflicts, allowed, duplicates, rejects_path, config_path, forced,
            read_ms, compile_ms, write_ms, total_ms)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
          arguments: [
            .integer(Int64(snapshot.version)), .text(snapshot.createdAt), .text(snapshot.path),
            .integer(snapshot.bytes), .text(snapshot.digest), .text(snapshot.fileChecksum),
            .integer(Int64(snapshot.blocking)), .integer(Int64(snapshot.identification)),
            .integer(Int64(snapshot.labels)), .integer(Int64(snapshot.rejected)),
            .integer(Int64(snapshot.conflicts)), .integer(Int64(snapshot.allowed)),
            .integer(Int64(snapshot.duplicates)), .text(snapshot.rejectsPath), .text(snapshot.configPath),
            .integer(snapshot.forced ? 1 : 0), .integer(snapshot.timings.readMilliseconds),
            .integer(snapshot.timings.compileMilliseconds), .integer(snapshot.timings.writeMilliseconds),
            .integer(snapshot.timings.totalMilliseconds),
          ])
        for source in sources {
          try database.execute(
            """
            INSERT INTO snapshot_sources (version, position, path, format, list, region, priority, bytes,
              modified_at, checksum, data_lines, accepted, rejected)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            arguments: [
              .integer(Int64(snapshot.version)), .integer(Int64(source.position)), .text(source.path),
              .text(source.format), .text(source.list), .text(source.region), .integer(Int64(source.priority)),
              .integer(source.bytes), .text(source.modifiedAt), .text(source.checksum),
              .integer(Int64(source.dataLines)), .integer(Int64(source.accepted)), .integer(Int64(source.rejected)),
            ])
        }
        for delta in deltas {
          try database.execute(
            "INSERT INTO deltas (from_version, to_version, path, bytes, file_checksum) VALUES (?, ?, ?, ?, ?)",
            arguments: [
              .integer(Int64(delta.fromVersion)), .integer(Int64(delta.toVersion)), .text(delta.path),
              .integer(delta.bytes), .text(delta.fileChecksum),
            ])
        }
        for shard in shards {
          try database.execute(
            """
            INSERT INTO shards (version, shard, lower_bound, upper_bound, path, bytes, digest, file_checksum,
              blocking, identification)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            arguments: [
              .integer(Int64(shard.version)), .integer(Int64(shard.shard)), .integer(shard.lowerBound),
              .integer(shard.upperBound), .text(shard.path), .integer(shard.bytes), .text(shard.digest),
              .text(shard.fileChecksum), .integer(Int64(shard.blocking)), .integer(Int64(shard.identification)),
            ])
        }
        for delta in shardDeltas {
          try database.execute(
            "INSERT INTO shard_deltas (from_version, to_version, shard, path, bytes, file_checksum) VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [
              .integer(Int64(delta.fromVersion)), .integer(Int64(delta.toVersion)), .integer(Int64(delta.shard)),
              .text(delta.path), .integer(delta.bytes), .text(delta.fileChecksum),
            ])
        }
      }
    }
  }

  private func snapshots(where clause: String) throws(StoreError) -> [SnapshotRecord] {
    try run {
      try database.query(
        """
        SELECT version, created_at, path, bytes, digest, file_checksum, blocking, identification, labels,
          rejected, conflicts, allowed, duplicates, rejects_path, config_path, forced,
          read_ms, compile_ms, write_ms, total_ms
        FROM snapshots \(clause)
        """
      ).map { row in
        SnapshotRecord(
          version: Int(row[0].integerValue), createdAt: row[1].textValue, path: row[2].textValue,
          bytes: row[3].integerValue, digest: row[4].textValue, fileChecksum: row[5].textValue,
          blocking: Int(row[6].integerValue), identification: Int(row[7].integerValue),
          labels: Int(row[8].integerValue), rejected: Int(row[9].integerValue),
          conflicts: Int(row[10].integerValue), allowed: Int(row[11].integerValue),
          duplicates: Int(row[12].integerValue), rejectsPath: row[13].textValue, configPath: row[14].textValue,
          forced: row[15].integerValue != 0,
          timings: BuildTimings(
            readMilliseconds: row[16].integerValue, compileMilliseconds: row[17].integerValue,
            writeMilliseconds: row[18].integerValue, totalMilliseconds: row[19].integerValue))
      }
    }
  }

  private func run<T>(_ body: () throws -> T) throws(StoreError) -> T {
    do {
      return try body()
    } catch let error as SQLiteError {
      throw StoreError(error)
    } catch let error as StoreError {
      throw error
    } catch {
      throw .catalog("\(error)")
    }
  }
}

extension SQLiteValue {
  fileprivate var integerValue: Int64 {
    if case .integer(let value) = self { return value }
    return 0
  }

  fileprivate var textValue: String {
    if case .text(let value) = self { return value }
    return ""
  }
}
