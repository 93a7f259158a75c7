import CallDirectoryCompiler
import CallDirectorySources
import CalldirSystem
import SQLiteDatabase

/// The store's history: every published snapshot with its sources, counts,
/// digests and deltas, in `STORE/catalog.sqlite` (schema: `schemas/catalog.sql`).
public final class Catalog {
  let database: Database
  /// The schema version of the file: ``schemaVersion`` once opened for
  /// publishing; an older one when a store of an older calldir is only
  /// read (its rows then lack what that calldir did not record).
  let fileVersion: Int32

  /// Opens (creating when needed) the catalog of a store, for publishing; a
  /// catalog of an older schema version is migrated in place, in one
  /// transaction.
  ///
  /// To read an existing store, use ``openForReading(_:)``.
  /// - Throws: `StoreError` when the database cannot be opened or is of an
  ///   unknown schema version.
  public init(path: String) throws(StoreError) {
    fileVersion = Self.schemaVersion
    do {
      database = try Database(path: path, mode: .create)
      try database.setUpWALMode(synchronous: .full)
      guard try database.userVersion() != Self.schemaVersion else { return }
      try database.withTransaction(.immediate) {
        let version = try database.userVersion()
        switch version {
        case 0:
          try database.execute(sql: Self.schemaSQL)
        case Self.schemaVersion:
          return
        case let older where older < Self.schemaVersion:
          var from = older
          while from < Self.schemaVersion {
            guard let migration = Self.migrationSQL(from: from) else {
              throw StoreError.catalog("catalog schema version \(older) cannot be migrated")
            }
            try database.execute(sql: migration)
            from += 1
          }
        default:
          throw StoreError.catalog(
            "catalog schema version \(version) is newer than this calldir supports (\(Self.schemaVersion))")
        }
        try database.setUserVersion(Self.schemaVersion)
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
  init(checkedReadOnly database: Database, fileVersion: Int32) {
    self.database = database
    self.fileVersion = fileVersion
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
    try rows("SELECT * FROM snapshot_sources WHERE version = ? ORDER BY position", table: "snapshot_sources", [version]) {
      row throws(StoreError) in
      let path = try row.text("path")
      var contribution: SourceContribution?
      if let numbers = try row.optionalInt("numbers") {
        contribution = SourceContribution(
          numbers: numbers, duplicates: try row.optionalInt("duplicates") ?? 0,
          unique: try row.optionalInt("unique_entries") ?? 0)
      }
      return SourceRecordRow(
        position: try row.int("position"), path: path, format: try row.text("format"), list: try row.text("list"),
        region: try row.text("region"), priority: try row.int("priority"), bytes: try row.int64("bytes"),
        modifiedAt: try row.text("modified_at"), checksum: try row.text("checksum"),
        dataLines: try row.int("data_lines"), accepted: try row.int("accepted"), rejected: try row.int("rejected"),
        writtenPath: try row.optionalText("written_path") ?? path,
        options: try Self.decodeOptions(row.optionalText("options")),
        maxRemovalRatio: try row.optionalReal("max_removal_ratio"), contribution: contribution,
        isAbsent: try row.int("absent") != 0, evidence: try Self.evidence(row))
    }
  }

  /// Each source's rejected lines by reason, for one version, by position.
  public func rejectReasons(ofVersion version: Int) throws(StoreError) -> [Int: [String: Int]] {
    guard fileVersion >= 2 else { return [:] }
    var reasons: [Int: [String: Int]] = [:]
    let counted = try rows(
      "SELECT position, reason, count FROM source_rejects WHERE version = ?", table: "source_rejects", [version]
    ) { row throws(StoreError) in (try row.int("position"), try row.text("reason"), try row.int("count")) }
    for (position, reason, count) in counted { reasons[position, default: [:]][reason] = count }
    return reasons
  }

  /// The deltas published towards `version`, newest base first.
  public func deltas(toVersion version: Int) throws(StoreError) -> [DeltaRecord] {
    try rows("SELECT * FROM deltas WHERE to_version = ? ORDER BY from_version DESC", table: "deltas", [version]) {
      row throws(StoreError) in
      DeltaRecord(
        fromVersion: try row.int("from_version"), toVersion: try row.int("to_version"), path: try row.text("path"),
        bytes: try row.int64("bytes"), fileChecksum: try row.text("file_checksum"))
    }
  }

  /// The shards of a snapshot, in order (empty when it was not sharded).
  public func shards(ofVersion version: Int) throws(StoreError) -> [ShardRecord] {
    try rows("SELECT * FROM shards WHERE version = ? ORDER BY shard", table: "shards", [version]) {
      row throws(StoreError) in
      ShardRecord(
        version: try row.int("version"), shard: try row.int("shard"), lowerBound: try row.int64("lower_bound"),
        upperBound: try row.int64("upper_bound"), path: try row.text("path"), bytes: try row.int64("bytes"),
        digest: try row.text("digest"), fileChecksum: try row.text("file_checksum"),
        blocking: try row.int("blocking"), identification: try row.int("identification"))
    }
  }

  /// The shard deltas published towards `version`.
  public func shardDeltas(toVersion version: Int) throws(StoreError) -> [ShardDeltaRecord] {
    try rows(
      "SELECT * FROM shard_deltas WHERE to_version = ? ORDER BY shard, from_version DESC", table: "shard_deltas",
      [version]
    ) { row throws(StoreError) in
      ShardDeltaRecord(
        fromVersion: try row.int("from_version"), toVersion: try row.int("to_version"), shard: try row.int("shard"),
        path: try row.text("path"), bytes: try row.int64("bytes"), fileChecksum: try row.text("file_checksum"))
    }
  }

  /// Every refused build, oldest first.
  public func refusals() throws(StoreError) -> [RefusalRecord] {
    guard fileVersion >= 2 else { return [] }
    return try rows("SELECT * FROM refusals ORDER BY id", table: "refusals", []) { row throws(StoreError) in
      RefusalRecord(
        attemptedAt: try row.text("attempted_at"), version: try row.int("version"), kind: try row.text("kind"),
        message: try row.text("message"), source: try row.optionalText("source"),
        rejectsPath: try row.optionalText("rejects_path"))
    }
  }

  /// The versions retired without a snapshot (``retire(version:reason:)``), ascending.
  public func retiredVersions() throws(StoreError) -> [(version: Int, reason: String)] {
    guard fileVersion >= 2 else { return [] }
    return try rows("SELECT * FROM retired_versions ORDER BY version", table: "retired_versions", []) {
      row throws(StoreError) in (try row.int("version"), try row.text("reason"))
    }
  }

  /// The highest version the catalog knows, published or retired (0 for none):
  /// the next version is always above it.
  public func highestVersion() throws(StoreError) -> Int {
    max(try latest()?.version ?? 0, try retiredVersions().last?.version ?? 0)
  }

  /// Marks `version` as used for good although no snapshot of it is recorded.
  public func retire(version: Int, reason: String) throws(StoreError) {
    try run {
      try database.execute(
        "INSERT OR REPLACE INTO retired_versions (version, retired_at, reason) VALUES (?, ?, ?)",
        arguments: [.integer(Int64(version)), .text(UTCTime.iso8601(UTCTime.now())), .text(reason)])
    }
  }

  /// Folds the write-ahead log into the database file and empties it, so
  /// that the file alone holds every committed transaction (before it is
  /// copied or renamed).
  public func checkpoint() throws(StoreError) {
    try run { try database.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
  }

  /// Folds the write-ahead log of the catalog at `path` into its database
  /// file, so that the file alone holds every committed transaction (to be
  /// copied, or to have its `-wal` removed); nothing else changes.
  /// - Throws: ``StoreError``: `database` with `busy` when another
  ///   connection keeps frames from being folded; `catalogDamaged` when
  ///   SQLite finds the file damaged.
  static func foldWriteAheadLog(path: String) throws(StoreError) {
    do {
      let database = try Database(path: path, mode: .readWrite)
      // busy, frames in the log, frames folded (-1 when there is no log).
      let row = try database.query("PRAGMA wal_checkpoint(TRUNCATE)").first
      let values = (0..<3).map { row?[$0].int64 ?? -1 }
      guard values[0] == 0 || values[1] == values[2] else {
        throw StoreError.database(
          message: "another connection keeps \(path)'s write-ahead log from being folded into it", busy: true)
      }
    } catch let error as SQLiteError {
      throw StoreError(error)
    } catch let error as StoreError {
      throw error
    } catch {
      throw .catalog("\(error)")
    }
  }

  /// Marks the files of `versions` as removed by `calldir prune`, in one
  /// transaction (before the files go, so that a crash between leaves the
  /// catalog saying what the next prune finishes).
  public func markPruned(versions: [Int], at time: String) throws(StoreError) {
    try run {
      try database.withTransaction(.immediate) {
        for version in versions {
          try database.execute(
            "UPDATE snapshots SET pruned_at = ? WHERE version = ? AND pruned_at IS NULL",
            arguments: [.text(time), .integer(Int64(version))])
        }
      }
    }
  }

  /// Records a build a guard refused.
  public func record(refusal: RefusalRecord) throws(StoreError) {
    try run {
      try database.execute(
        "INSERT INTO refusals (attempted_at, version, kind, message, source, rejects_path) VALUES (?, ?, ?, ?, ?, ?)",
        arguments: [
          .text(refusal.attemptedAt), .integer(Int64(refusal.version)), .text(refusal.kind), .text(refusal.message),
          refusal.source.map { .text($0) } ?? .null, refusal.rejectsPath.map { .text($0) } ?? .null,
        ])
    }
  }

  /// Records a published snapshot, its sources (with their rejects by
  /// reason, by position), deltas and shards in one transaction.
  public func record(
    _ snapshot: SnapshotRecord, sources: [SourceRecordRow], rejectReasons: [Int: [String: Int]] = [:],
    deltas: [DeltaRecord], shards: [ShardRecord] = [], shardDeltas: [ShardDeltaRecord] = []
  ) throws(StoreError) {
    Self.checkRecordInvariants(snapshot, deltas: deltas, shards: shards, shardDeltas: shardDeltas)
    try run {
      try database.withTransaction(.immediate) {
        try insert(snapshot)
        for source in sources {
          try insert(source, version: snapshot.version, rejectReasons: rejectReasons[source.position] ?? [:])
        }
        try insert(deltas: deltas, shards: shards, shardDeltas: shardDeltas)
      }
    }
  }

  /// The `snapshots` row of `snapshot`, in the transaction that records it.
  private func insert(_ snapshot: SnapshotRecord) throws {
    let changes = snapshot.changes
    try database.execute(
      """
      INSERT INTO snapshots (version, created_at, path, bytes, digest, file_checksum, blocking, identification,
        labels, rejected, conflicts, allowed, duplicates, rejects_path, config_path, forced,
        read_ms, compile_ms, write_ms, total_ms, blocking_added, blocking_removed, identification_added,
        identification_removed, conflicts_path, max_range_size, dataset, pruned_at, as_of, default_region,
        live_caller_id, identities_path, identities_checksum, identities_digest)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
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
        Self.optional(changes?.blockingAdded), Self.optional(changes?.blockingRemoved),
        Self.optional(changes?.identificationAdded), Self.optional(changes?.identificationRemoved),
        snapshot.conflictsPath.map { .text($0) } ?? .null,
        snapshot.maxRangeSize.map { .integer($0) } ?? .null,
        .text(snapshot.dataset), snapshot.prunedAt.map { .text($0) } ?? .null,
        snapshot.asOf.map { .text($0) } ?? .null, snapshot.defaultRegion.map { .text($0) } ?? .null,
        Self.optional(snapshot.liveCallerID), Self.optional(snapshot.identitiesPath),
        Self.optional(snapshot.identitiesChecksum), Self.optional(snapshot.identitiesDigest),
      ])
  }

  /// The `snapshot_sources` row of `source` and its `source_rejects` rows.
  private func insert(_ source: SourceRecordRow, version: Int, rejectReasons: [String: Int]) throws {
    try database.execute(
      """
      INSERT INTO snapshot_sources (version, position, path, format, list, region, priority, bytes,
        modified_at, checksum, data_lines, accepted, rejected, written_path, options, max_removal_ratio,
        numbers, duplicates, unique_entries, absent, min_reports, max_age_days, label_policy)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """,
      arguments: [
        .integer(Int64(version)), .integer(Int64(source.position)), .text(source.path),
        .text(source.format), .text(source.list), .text(source.region), .integer(Int64(source.priority)),
        .integer(source.bytes), .text(source.modifiedAt), .text(source.checksum),
        .integer(Int64(source.dataLines)), .integer(Int64(source.accepted)), .integer(Int64(source.rejected)),
        .text(source.writtenPath), .text(Self.encodeOptions(source.options)),
        source.maxRemovalRatio.map { .real($0) } ?? .null,
        Self.optional(source.contribution?.numbers), Self.optional(source.contribution?.duplicates),
        Self.optional(source.contribution?.unique), .integer(source.isAbsent ? 1 : 0),
        Self.optional(source.evidence?.minReports), Self.optional(source.evidence?.maxAgeDays),
        source.evidence.map { .text($0.labelPolicy.rawValue) } ?? .null,
      ])
    for (reason, count) in rejectReasons.sorted(by: { $0.key < $1.key }) {
      try database.execute(
        "INSERT INTO source_rejects (version, position, reason, count) VALUES (?, ?, ?, ?)",
        arguments: [
          .integer(Int64(version)), .integer(Int64(source.position)), .text(reason),
          .integer(Int64(count)),
        ])
    }
  }

  /// The rows of the version's deltas, shards and shard deltas.
  private func insert(deltas: [DeltaRecord], shards: [ShardRecord], shardDeltas: [ShardDeltaRecord]) throws {
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

  private func snapshots(where clause: String) throws(StoreError) -> [SnapshotRecord] {
    try rows("SELECT * FROM snapshots \(clause)", table: "snapshots", []) { row throws(StoreError) in
      var changes: ListChanges?
      if let added = try row.optionalInt("blocking_added") {
        changes = ListChanges(
          blockingAdded: added, blockingRemoved: try row.optionalInt("blocking_removed") ?? 0,
          identificationAdded: try row.optionalInt("identification_added") ?? 0,
          identificationRemoved: try row.optionalInt("identification_removed") ?? 0)
      }
      return SnapshotRecord(
        version: try row.int("version"), createdAt: try row.text("created_at"), path: try row.text("path"),
        bytes: try row.int64("bytes"), digest: try row.text("digest"), fileChecksum: try row.text("file_checksum"),
        blocking: try row.int("blocking"), identification: try row.int("identification"),
        labels: try row.int("labels"), rejected: try row.int("rejected"), conflicts: try row.int("conflicts"),
        allowed: try row.int("allowed"), duplicates: try row.int("duplicates"),
        rejectsPath: try row.text("rejects_path"), configPath: try row.text("config_path"),
        forced: try row.int("forced") != 0,
        timings: BuildTimings(
          readMilliseconds: try row.int64("read_ms"), compileMilliseconds: try row.int64("compile_ms"),
          writeMilliseconds: try row.int64("write_ms"), totalMilliseconds: try row.int64("total_ms")),
        changes: changes, conflictsPath: try row.optionalText("conflicts_path"),
        maxRangeSize: try row.optionalInt64("max_range_size"), dataset: try row.optionalText("dataset") ?? "",
        prunedAt: try row.optionalText("pruned_at"), asOf: try row.optionalText("as_of"),
        defaultRegion: try row.optionalText("default_region"), liveCallerID: try row.optionalText("live_caller_id"),
        identitiesPath: try row.optionalText("identities_path"),
        identitiesChecksum: try row.optionalText("identities_checksum"),
        identitiesDigest: try row.optionalText("identities_digest"))
    }
  }

  /// Runs a query and turns each row into a value with `make`.
  func rows<T>(
    _ sql: String, table: String, _ arguments: [Int], _ make: (_CatalogRow) throws(StoreError) -> T
  ) throws(StoreError) -> [T] {
    let found = try run { try database.query(sql, arguments: arguments.map { .integer(Int64($0)) }) }
    var result: [T] = []
    result.reserveCapacity(found.count)
    let older = fileVersion < Self.schemaVersion
    for row in found { result.append(try make(_CatalogRow(row: row, table: table, isOlderSchema: older))) }
    return result
  }

  func run<T>(_ body: () throws -> T) throws(StoreError) -> T {
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

  static func optional(_ value: Int?) -> SQLiteValue {
    value.map { .integer(Int64($0)) } ?? .null
  }

  static func optional(_ value: String?) -> SQLiteValue {
    value.map { .text($0) } ?? .null
  }

  /// A source row's evidence rules: nil when the row predates them (or
  /// holds values this calldir does not know).
  private static func evidence(_ row: _CatalogRow) throws(StoreError) -> EvidenceRules? {
    guard let minReports = try row.optionalInt("min_reports"), minReports >= 1,
      let policy = LabelPolicy(rawValue: try row.optionalText("label_policy") ?? "")
    else { return nil }
    return EvidenceRules(minReports: minReports, maxAgeDays: try row.optionalInt("max_age_days"), labelPolicy: policy)
  }

  /// Format options as a JSON object with sorted keys.
  static func encodeOptions(_ options: SourceOptions) -> String {
    options.json.serialized()
  }

  /// Format options as ``encodeOptions(_:)`` recorded them.
  /// - Throws: ``StoreError/catalog(_:)`` naming the value at fault
  ///   (`snapshot_sources.options.where.op[1]: expected a string (the
  ///   column holds …)`).
  static func decodeOptions(_ text: String?) throws(StoreError) -> SourceOptions {
    guard let text else { return [:] }
    let json: JSONValue
    do {
      json = try JSONParser.parse(text)
    } catch {
      throw .catalog("snapshot_sources.options is not json: \(error.description) (the column holds \(text))")
    }
    return try SourceOptions(json: LocatedJSON(json, path: "snapshot_sources.options") {
      StoreError.catalog("\($0.description) (the column holds \(text))")
    })
  }
}

/// One catalog row, read through ``Row``'s typed getters: a schema that
/// drifted is a ``StoreError/catalog(_:)`` naming the table and column.
struct _CatalogRow {
  let row: Row
  let table: String
  /// The row comes from an older schema: a column it lacks reads as NULL.
  var isOlderSchema = false

  func int64(_ column: String) throws(StoreError) -> Int64 { try read(column) { row throws(RowDecodingError) in try row.int64(column) } }
  func int(_ column: String) throws(StoreError) -> Int { try read(column) { row throws(RowDecodingError) in try row.int(column) } }
  func optionalInt64(_ column: String) throws(StoreError) -> Int64? {
    try read(column) { row throws(RowDecodingError) in try row.optionalInt64(column) }
  }
  func optionalInt(_ column: String) throws(StoreError) -> Int? {
    try read(column) { row throws(RowDecodingError) in try row.optionalInt(column) }
  }
  func text(_ column: String) throws(StoreError) -> String { try read(column) { row throws(RowDecodingError) in try row.text(column) } }
  func optionalText(_ column: String) throws(StoreError) -> String? {
    try read(column) { row throws(RowDecodingError) in try row.optionalText(column) }
  }
  func optionalReal(_ column: String) throws(StoreError) -> Double? {
    try read(column) { row throws(RowDecodingError) in try row.optionalDouble(column) }
  }

  /// Reads `column` with `decode`; in a row of an older schema, a column
  /// it lacks is NULL.
  private func read<Value>(
    _ column: String, _ decode: (Row) throws(RowDecodingError) -> Value
  ) throws(StoreError) -> Value {
    let source = isOlderSchema && row[column] == nil ? Row(columnNames: [column], values: [.null]) : row
    do {
      return try decode(source)
    } catch {
      throw .catalog("column \(table).\(error) (a damaged catalog, or one of another schema)")
    }
  }
}
