import CallDirectoryCompiler
import CallDirectorySources

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
  /// Changes against the previous version; nil when the catalog did not
  /// record them (versions published by a calldir before catalog schema 2).
  public var changes: ListChanges? = nil
  /// The label conflicts report, relative to the store; nil when none was kept.
  public var conflictsPath: String? = nil
  /// The config's `maxRangeSize` (nil when not recorded).
  public var maxRangeSize: Int64? = nil
  /// The dataset the version's blobs carry (empty before datasets).
  public var dataset: String = ""
  /// When `calldir prune` removed the version's files (nil while kept).
  public var prunedAt: String? = nil
  /// The build's reference date, `YYYY-MM-DD` (`--as-of`); nil when not
  /// recorded (versions published before catalog schema 3, or rebuilt by
  /// `calldir repair`).
  public var asOf: String? = nil
  /// The config's `defaultRegion` (`ZZ` for none): how the build read
  /// national numbers of sources without a region of their own, and how
  /// `explain` reads its inputs. Nil when not recorded (versions published
  /// before catalog schema 5, or rebuilt by `calldir repair` from blobs).
  public var defaultRegion: String? = nil
  /// The config's `liveCallerID` settings (``LiveCallerIDSettings/json``'s
  /// text), nil for a version built without them.
  public var liveCallerID: String? = nil
  /// The version's identity details (``IdentityDetails``), relative to the
  /// store; nil without `liveCallerID`.
  public var identitiesPath: String? = nil
  /// `crc32c:<hex>` of that file.
  public var identitiesChecksum: String? = nil
  /// ``IdentityDetails/digest``: what the entries carry, whatever the version.
  public var identitiesDigest: String? = nil
}

/// How a version's lists changed against the version before it.
public struct ListChanges: Sendable, Hashable {
  public var blockingAdded: Int
  public var blockingRemoved: Int
  /// Identification numbers added and removed; a relabelled number is neither.
  public var identificationAdded: Int
  public var identificationRemoved: Int

  public init(blockingAdded: Int = 0, blockingRemoved: Int = 0, identificationAdded: Int = 0, identificationRemoved: Int = 0) {
    self.blockingAdded = blockingAdded
    self.blockingRemoved = blockingRemoved
    self.identificationAdded = identificationAdded
    self.identificationRemoved = identificationRemoved
  }
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
  /// The absolute path.
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
  /// The path as the config writes it (the absolute path for versions
  /// recorded before catalog schema 2).
  public var writtenPath: String
  /// The format's options (empty for versions before catalog schema 2).
  public var options: SourceOptions
  /// The source's own `maxRemovalRatio`, when the config set one.
  public var maxRemovalRatio: Double?
  /// Distinct numbers, repeats and entries only it gives; nil before
  /// catalog schema 2.
  public var contribution: SourceContribution?
  /// Whether the file was missing (published with `--force`).
  public var isAbsent: Bool
  /// The source's evidence rules; nil for versions before catalog schema 4.
  public var evidence: EvidenceRules?

  public init(
    position: Int, path: String, format: String, list: String, region: String, priority: Int, bytes: Int64,
    modifiedAt: String, checksum: String, dataLines: Int, accepted: Int, rejected: Int, writtenPath: String,
    options: SourceOptions = [:], maxRemovalRatio: Double? = nil, contribution: SourceContribution? = nil,
    isAbsent: Bool = false, evidence: EvidenceRules? = nil
  ) {
    self.evidence = evidence
    self.position = position
    self.path = path
    self.format = format
    self.list = list
    self.region = region
    self.priority = priority
    self.bytes = bytes
    self.modifiedAt = modifiedAt
    self.checksum = checksum
    self.dataLines = dataLines
    self.accepted = accepted
    self.rejected = rejected
    self.writtenPath = writtenPath
    self.options = options
    self.maxRemovalRatio = maxRemovalRatio
    self.contribution = contribution
    self.isAbsent = isAbsent
  }
}

/// A build that a guard refused: nothing was published.
public struct RefusalRecord: Sendable, Hashable {
  /// ISO 8601 UTC.
  public var attemptedAt: String
  /// The version the build would have published.
  public var version: Int
  /// What refused it (``BuildRefusal/Kind``'s raw value).
  public var kind: String
  public var message: String
  /// The source at fault, as the config writes it.
  public var source: String?
  /// The refused build's rejects report, relative to the store.
  public var rejectsPath: String?

  public init(attemptedAt: String, version: Int, kind: String, message: String, source: String?, rejectsPath: String?) {
    self.attemptedAt = attemptedAt
    self.version = version
    self.kind = kind
    self.message = message
    self.source = source
    self.rejectsPath = rejectsPath
  }
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
