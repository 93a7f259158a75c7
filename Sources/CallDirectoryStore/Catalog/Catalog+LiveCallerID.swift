import CalldirSystem
import SQLiteDatabase

/// How a Live Caller ID Lookup use case of a store is sized: fixed for the
/// dataset's life, so that every shard's PIR parameters stay the same.
public struct LiveCallerIDUseCaseRecord: Sendable, Hashable {
  /// `block` or `identity`.
  public var useCase: String
  public var shardCount: Int
  public var bucketCount: Int
  public var maxSerializedBucketSize: Int
  /// The RLWE parameters' name it was sized for.
  public var rlweParameters: String
  public var sizedAt: String
  /// The export that sized it.
  public var sizedByExport: Int
  /// Why it was sized then (the first export, a shard that outgrew its buckets, …).
  public var reason: String

  public init(
    useCase: String, shardCount: Int, bucketCount: Int, maxSerializedBucketSize: Int, rlweParameters: String,
    sizedAt: String, sizedByExport: Int, reason: String
  ) {
    self.useCase = useCase
    self.shardCount = shardCount
    self.bucketCount = bucketCount
    self.maxSerializedBucketSize = maxSerializedBucketSize
    self.rlweParameters = rlweParameters
    self.sizedAt = sizedAt
    self.sizedByExport = sizedByExport
    self.reason = reason
  }
}

/// One finished export.
public struct LiveCallerIDExportRecord: Sendable, Hashable {
  public var id: Int
  public var exportedAt: String
  public var version: Int
  /// The output directory, absolute.
  public var output: String
  public var allShards: Bool

  public init(id: Int, exportedAt: String, version: Int, output: String, allShards: Bool) {
    self.id = id
    self.exportedAt = exportedAt
    self.version = version
    self.output = output
    self.allShards = allShards
  }
}

/// One shard of an export: what its files held.
public struct LiveCallerIDShardRecord: Sendable, Hashable {
  /// `block` or `identity`.
  public var useCase: String
  public var shard: Int
  public var rows: Int
  /// SHA-256 (hex) of its `KeywordDatabase` input file.
  public var rowsDigest: String
  /// SHA-256 (hex) of its `PIRProcessDatabase` config.
  public var configDigest: String
  /// Whether the export wrote its files.
  public var written: Bool

  public init(useCase: String, shard: Int, rows: Int, rowsDigest: String, configDigest: String, written: Bool) {
    self.useCase = useCase
    self.shard = shard
    self.rows = rows
    self.rowsDigest = rowsDigest
    self.configDigest = configDigest
    self.written = written
  }
}

extension Catalog {
  /// Each use case's sizing, by use case (`block`, `identity`); empty
  /// before the first export (or in a catalog older than schema 6).
  public func liveCallerIDUseCases() throws(StoreError) -> [String: LiveCallerIDUseCaseRecord] {
    guard fileVersion >= 6 else { return [:] }
    let found = try rows("SELECT * FROM live_caller_id_use_cases", table: "live_caller_id_use_cases", []) {
      row throws(StoreError) in
      LiveCallerIDUseCaseRecord(
        useCase: try row.text("use_case"), shardCount: try row.int("shard_count"),
        bucketCount: try row.int("bucket_count"), maxSerializedBucketSize: try row.int("max_serialized_bucket_size"),
        rlweParameters: try row.text("rlwe_parameters"), sizedAt: try row.text("sized_at"),
        sizedByExport: try row.int("sized_by_export"), reason: try row.text("reason"))
    }
    return Dictionary(found.map { ($0.useCase, $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// The last export that finished, with every shard's digests; nil before
  /// the first.
  public func lastLiveCallerIDExport() throws(StoreError) -> (
    export: LiveCallerIDExportRecord, shards: [LiveCallerIDShardRecord]
  )? {
    guard fileVersion >= 6 else { return nil }
    let exports = try rows(
      "SELECT * FROM live_caller_id_exports ORDER BY id DESC LIMIT 1", table: "live_caller_id_exports", []
    ) { row throws(StoreError) in
      LiveCallerIDExportRecord(
        id: try row.int("id"), exportedAt: try row.text("exported_at"), version: try row.int("version"),
        output: try row.text("output"), allShards: try row.int("all_shards") != 0)
    }
    guard let export = exports.first else { return nil }
    let shards = try rows(
      "SELECT * FROM live_caller_id_export_shards WHERE export_id = ? ORDER BY use_case, shard",
      table: "live_caller_id_export_shards", [export.id]
    ) { row throws(StoreError) in
      LiveCallerIDShardRecord(
        useCase: try row.text("use_case"), shard: try row.int("shard"), rows: try row.int("rows"),
        rowsDigest: try row.text("rows_digest"), configDigest: try row.text("config_digest"),
        written: try row.int("written") != 0)
    }
    return (export, shards)
  }

  /// Records a finished export, its shards and the use cases it (re)sized,
  /// in one transaction; returns the export's id.
  public func recordLiveCallerIDExport(
    exportedAt: String, version: Int, output: String, allShards: Bool, shards: [LiveCallerIDShardRecord],
    sizing: [LiveCallerIDUseCaseRecord]
  ) throws(StoreError) -> Int {
    try run {
      try database.withTransaction(.immediate) {
        try database.execute(
          "INSERT INTO live_caller_id_exports (exported_at, version, output, all_shards) VALUES (?, ?, ?, ?)",
          arguments: [.text(exportedAt), .integer(Int64(version)), .text(output), .integer(allShards ? 1 : 0)])
        let id = database.lastInsertRowID
        for shard in shards {
          try database.execute(
            """
            INSERT INTO live_caller_id_export_shards (export_id, use_case, shard, rows, rows_digest, config_digest,
              written)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            arguments: [
              .integer(id), .text(shard.useCase), .integer(Int64(shard.shard)), .integer(Int64(shard.rows)),
              .text(shard.rowsDigest), .text(shard.configDigest), .integer(shard.written ? 1 : 0),
            ])
        }
        for useCase in sizing {
          try database.execute(
            """
            INSERT OR REPLACE INTO live_caller_id_use_cases (use_case, shard_count, bucket_count,
              max_serialized_bucket_size, rlwe_parameters, sized_at, sized_by_export, reason)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            arguments: [
              .text(useCase.useCase), .integer(Int64(useCase.shardCount)), .integer(Int64(useCase.bucketCount)),
              .integer(Int64(useCase.maxSerializedBucketSize)), .text(useCase.rlweParameters),
              .text(useCase.sizedAt), .integer(id), .text(useCase.reason),
            ])
        }
        return Int(id)
      }
    }
  }
}
