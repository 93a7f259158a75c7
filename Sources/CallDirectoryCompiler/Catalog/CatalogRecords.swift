/// One published snapshot, as the catalog records it.
public struct SnapshotRecord: Sendable, Hashable {
  public var version: Int
  /// ISO 8601 UTC.
  public var createdAt: String
  /// The blob, relative to the store.
  public var path: String
  public var bytes: Int64
  /// The content digest, lowercase hex.
  public var digest: String
  /// `crc32c:<hex>` of the blob file.
  public var fileChecksum: String
  public var blocking: Int
  public var identification: Int
  public var labels: Int
  public var rejected: Int
  public var conflicts: Int
  public var allowed: Int
  public var duplicates: Int
  /// The rejects report, relative to the store.
  public var rejectsPath: String
  public var configPath: String
  /// Published with `--force` past the removal guard.
  public var forced: Bool
  public var timings: BuildTimings
}

/// How long the phases of a build took.
public struct BuildTimings: Sendable, Hashable {
  public var readMilliseconds: Int64 = 0
  public var compileMilliseconds: Int64 = 0
  public var writeMilliseconds: Int64 = 0
  public var totalMilliseconds: Int64 = 0

  public init(readMilliseconds: Int64 = 0, compileMilliseconds: Int64 = 0, writeMilliseconds: Int64 = 0, totalMilliseconds: Int64 = 0) {
    self.readMilliseconds = readMilliseconds
    self.compileMilliseconds = compileMilliseconds
    self.writeMilliseconds = writeMilliseconds
    self.totalMilliseconds = totalMilliseconds
  }
}

/// One source of a snapshot, as the catalog records it.
public struct SourceRecordRow: Sendable, Hashable {
  public var position: Int
  public var path: String
  public var format: String
  public var list: String
  public var region: String
  public var priority: Int
  public var bytes: Int64
  public var modifiedAt: String
  /// `crc32c:<hex>` of the file as read.
  public var checksum: String
  public var dataLines: Int
  public var accepted: Int
  public var rejected: Int
}

/// One published delta.
public struct DeltaRecord: Sendable, Hashable {
  public var fromVersion: Int
  public var toVersion: Int
  /// The blob, relative to the store.
  public var path: String
  public var bytes: Int64
  public var fileChecksum: String
}

/// One shard of a published snapshot.
public struct ShardRecord: Sendable, Hashable {
  public var version: Int
  /// 1-based.
  public var shard: Int
  public var lowerBound: Int64
  public var upperBound: Int64
  /// The blob, relative to the store.
  public var path: String
  public var bytes: Int64
  public var digest: String
  public var fileChecksum: String
  public var blocking: Int
  public var identification: Int
}

/// One published delta of a shard.
public struct ShardDeltaRecord: Sendable, Hashable {
  public var fromVersion: Int
  public var toVersion: Int
  public var shard: Int
  /// The blob, relative to the store.
  public var path: String
  public var bytes: Int64
  public var fileChecksum: String
}
