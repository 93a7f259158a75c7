import CallDirectoryCompiler
import CallDirectoryStore
import CalldirSystem
import Sodium

/// Pass 2 of an export for one use case, each shard alone: its rows read
/// back, encoded and hashed (``encodeShards()``), the use case's buckets
/// sized (``sizing(for:)``), and the shards that changed staged with their
/// configs (``stageShards(_:sizing:resized:)``).
struct UseCaseJob {
  /// A row's PIR value.
  typealias RowValue = (ScratchRow) throws(LiveCallerIDExportError) -> [UInt8]

  let plan: UseCasePlan
  let spill: ScratchSpill
  let settings: LiveCallerIDSettings
  let value: RowValue
  let paddingValue: [UInt8]
  /// Every shard is written (the first time, with --all, or when the
  /// shard count changed).
  let writeAll: Bool
  /// The last export's shard records, by `useCase-shard`.
  let lastShards: [String: LiveCallerIDShardRecord]
  let staged: StagedFiles
  let progress: ((String) -> Void)?

  /// What the first pass over the shards found.
  struct EncodedShards {
    var loads: [CuckooSizing.ShardLoad] = []
    /// Each shard's rows digest, hex.
    var digests: [String] = []
    var rowCounts: [Int] = []
    /// The inputs staged so far, by shard.
    var inputFiles: [Int: LiveCallerIDExport.File] = [:]
    var e164Rows = 0
    var nationalRows = 0
    var sharedNational = 0
    var paddingRows = 0
  }

  /// What the second pass staged.
  struct StagedShards {
    var files: [LiveCallerIDExport.File] = []
    var written: [Int] = []
    /// A shard whose rows are as before was written for its config.
    var configChanged = false
    var records: [LiveCallerIDShardRecord] = []
  }

  private var kind: UseCaseKind { plan.kind }

  /// Reads, encodes and hashes every shard; stages the input of each one
  /// written anyway, and of each one whose rows differ from the last
  /// export's.
  func encodeShards() throws(LiveCallerIDExportError) -> EncodedShards {
    var found = EncodedShards()
    for shard in 0..<plan.shardCount {
      if shard % 64 == 0 { progress?("\(kind.rawValue): shard \(shard) of \(plan.shardCount)") }
      let rows = try readShard(shard)
      found.e164Rows += rows.e164Rows
      found.nationalRows += rows.nationalRows
      found.sharedNational += rows.sharedNational
      found.paddingRows += rows.padding == nil ? 0 : 1
      let previous = lastShards["\(kind.rawValue)-\(shard)"]
      let encoded: ShardRows.Encoded
      if writeAll || previous == nil {
        (encoded, found.inputFiles[shard]) = try stageInput(rows)
      } else {
        encoded = try rows.encode(value: value, paddingValue: paddingValue, into: { _ in })
        if previous?.rowsDigest != LiveCallerIDExporter.hex(encoded.sha256) {
          (_, found.inputFiles[shard]) = try stageInput(rows)
        }
      }
      found.loads.append(encoded.load)
      found.digests.append(LiveCallerIDExporter.hex(encoded.sha256))
      found.rowCounts.append(rows.rowCount)
    }
    return found
  }

  /// The buckets: as recorded, unless the shards outgrew them (or the use
  /// case is sized for the first time, or its shard count or RLWE
  /// parameters changed); with why it was (re)sized, nil when it kept its
  /// sizing.
  func sizing(for loads: [CuckooSizing.ShardLoad]) -> (sizing: CuckooSizing, reason: String?) {
    let maxValue = loads.map(\.maxValueSize).max() ?? 0
    var reason = plan.resizeReason
    let recordedSizing = plan.recorded.map {
      CuckooSizing(bucketCount: $0.bucketCount, maxSerializedBucketSize: $0.maxSerializedBucketSize)
    }
    if reason == nil, let recordedSizing, let outgrown = recordedSizing.outgrown(by: loads, maxValueSize: maxValue) {
      reason = "re-sized: \(outgrown)"
    }
    if reason == nil, let recordedSizing { return (recordedSizing, nil) }
    return (CuckooSizing.sized(for: loads, parameters: settings.rlweParameters), reason ?? "sized at the first export")
  }

  /// Stages the config of each shard written (and its input when the
  /// first pass did not), and records every shard.
  func stageShards(
    _ encoded: inout EncodedShards, sizing: CuckooSizing, resized: Bool
  ) throws(LiveCallerIDExportError) -> StagedShards {
    var staged = StagedShards()
    for shard in 0..<plan.shardCount {
      try stageShard(shard, &encoded, sizing: sizing, resized: resized, into: &staged)
    }
    return staged
  }

  /// One shard of ``stageShards(_:sizing:resized:)``: written when every
  /// shard is, when the use case was re-sized, when its rows changed or
  /// when its config did.
  private func stageShard(
    _ shard: Int, _ encoded: inout EncodedShards, sizing: CuckooSizing, resized: Bool,
    into result: inout StagedShards
  ) throws(LiveCallerIDExportError) {
    let config = ExportLayout.fileBytes(
      ExportLayout.processConfig(kind, shard: shard, shardCount: plan.shardCount, sizing: sizing, settings: settings))
    let configDigest = LiveCallerIDExporter.hex(SodiumSHA256.hash(config))
    let previous = lastShards["\(kind.rawValue)-\(shard)"]
    let changedConfig = previous?.configDigest != configDigest
    let write = writeAll || resized || encoded.inputFiles[shard] != nil || changedConfig
    if write {
      if encoded.inputFiles[shard] == nil {
        // Its rows are as before but its parameters are not: processing
        // it again needs its input beside its config.
        result.configChanged = result.configChanged || changedConfig
        (_, encoded.inputFiles[shard]) = try stageInput(try readShard(shard))
      }
      if let input = encoded.inputFiles[shard] { result.files.append(input) }
      result.files.append(try staged.stage(ExportLayout.config(kind, shard: shard), bytes: config))
      result.written.append(shard)
    }
    result.records.append(LiveCallerIDShardRecord(
      useCase: kind.rawValue, shard: shard, rows: encoded.rowCounts[shard], rowsDigest: encoded.digests[shard],
      configDigest: configDigest, written: write))
  }

  /// A shard's rows, read back from its scratch file.
  private func readShard(_ shard: Int) throws(LiveCallerIDExportError) -> ShardRows {
    try ShardRows(useCase: kind, shard: shard, shardCount: plan.shardCount, scratch: try spill.rows(shard: shard))
  }

  /// Writes a shard's input under a temporary name, hashing it as it goes.
  private func stageInput(_ rows: ShardRows) throws(LiveCallerIDExportError) -> (
    ShardRows.Encoded, LiveCallerIDExport.File
  ) {
    let path = ExportLayout.input(kind, shard: rows.shard)
    let file = try staged.open(path)
    let encoded = try rows.encode(value: value, paddingValue: paddingValue) { (bytes) throws(LiveCallerIDExportError) in
      do throws(FileError) {
        try file.writer.write(bytes)
      } catch {
        throw LiveCallerIDExportError.file(error)
      }
    }
    try staged.keep(file)
    return (encoded, LiveCallerIDExport.File(path: path, bytes: encoded.bytes, sha256: LiveCallerIDExporter.hex(encoded.sha256)))
  }
}
