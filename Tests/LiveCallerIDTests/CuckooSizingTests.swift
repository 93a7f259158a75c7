import CallDirectoryCompiler
import Testing

@testable import LiveCallerID

@Suite struct CuckooSizingTests {
  let parameters = RLWEParameters.default

  @Test func plaintextsHoldWhatApplesParametersSay() {
    // N × floor(log2 t) / 8: t = 17 gives 4 bits a coefficient.
    #expect(parameters.name == "n_4096_logq_27_28_28_logt_5")
    #expect(parameters.bytesPerPlaintext == 2048)
    #expect(RLWEParameters(name: "n_8192_logq_3x55_logt_42")?.bytesPerPlaintext == 8192 * 41 / 8)
    #expect(RLWEParameters(name: "n_4096_logq_16_33_33_logt_4")?.bytesPerPlaintext == 4096 * 3 / 8)
    #expect(RLWEParameters(name: "insecure_n_16_logq_60_logt_15") == nil)
  }

  /// `CuckooTableConfig.defaultMaxSerializedBucketSize`: half a plaintext
  /// when a one-row bucket fits in it, else that bucket rounded up to
  /// whole plaintexts.
  @Test(arguments: [(1, 1024), (100, 1024), (1012, 1024), (1013, 2048), (2037, 2048), (2038, 4096), (60_000, 61_440)])
  func bucketSizeIsApplesDefault(value: Int, bucket: Int) {
    #expect(CuckooSizing.defaultMaxSerializedBucketSize(maxValueSize: value, parameters: parameters) == bucket)
  }

  @Test func blockShardsAreSizedAtThreeQuartersOfTheirLimit() {
    // 60,000 one-byte values: 11 bytes a row, 93 rows a 1024-byte bucket.
    let shards = [
      CuckooSizing.ShardLoad(rows: 60_000, bytes: 660_000, maxValueSize: 1),
      CuckooSizing.ShardLoad(rows: 40_000, bytes: 440_000, maxValueSize: 1),
    ]
    let sizing = CuckooSizing.sized(for: shards, parameters: parameters)
    #expect(sizing.maxSerializedBucketSize == 1024)
    #expect(sizing.slotsPerBucket(maxValueSize: 1) == 93)
    #expect(sizing.slotsPerBucket(of: shards[0]) == 93)
    #expect(sizing.bucketCount % CuckooSizing.hashFunctionCount == 0)
    let load = sizing.load(of: shards[0])
    #expect(load <= 0.9 * 0.75 + 0.001)
    #expect(load > 0.9 * 0.75 - 0.01)
    #expect(sizing.outgrown(by: shards, maxValueSize: 1) == nil)
    // A third more rows still fit; half as many again do not.
    let grown = CuckooSizing.ShardLoad(rows: 79_000, bytes: 869_000, maxValueSize: 1)
    #expect(sizing.outgrown(by: [grown], maxValueSize: 1) == nil)
    let outgrown = CuckooSizing.ShardLoad(rows: 90_000, bytes: 990_000, maxValueSize: 1)
    let why = sizing.outgrown(by: [shards[1], outgrown], maxValueSize: 1)
    #expect(why?.hasPrefix("shard 1 holds 90000 rows") == true)
  }

  @Test func aValueLargerThanTheBucketsOutgrowsThem() {
    let sizing = CuckooSizing(bucketCount: 100, maxSerializedBucketSize: 1024)
    #expect(sizing.outgrown(by: [], maxValueSize: 1013)?.contains("needs buckets of 1024 bytes") == nil)
    #expect(sizing.outgrown(by: [], maxValueSize: 1014)?.contains("a value of 1014 bytes needs buckets of 1025 bytes") == true)
  }

  /// Buckets holding one row each fill reliably only below half.
  @Test func largeValuesLowerTheLoadLimit() {
    let rows = 1_000
    let value = 9_000
    let shard = CuckooSizing.ShardLoad(rows: rows, bytes: rows * (10 + value), maxValueSize: value)
    let sizing = CuckooSizing.sized(for: [shard], parameters: parameters)
    #expect(sizing.maxSerializedBucketSize == 10_240)
    #expect(sizing.slotsPerBucket(maxValueSize: value) == 1)
    #expect(CuckooSizing.maxLoad(slotsPerBucket: 1) == 0.40)
    #expect(sizing.load(of: shard) <= 0.40 * 0.75 + 0.001)
    #expect(sizing.bucketCount >= Int(Double(rows) / 0.30))
  }

  /// Past 255 rows a bucket, slots bound the load, not bytes.
  @Test func slotsBoundTheLoadOfTinyRowsInLargeBuckets() throws {
    let wide = try #require(RLWEParameters(name: "n_8192_logq_3x55_logt_42"))
    let shard = CuckooSizing.ShardLoad(rows: 100_000, bytes: 1_100_000, maxValueSize: 1)
    let sizing = CuckooSizing.sized(for: [shard], parameters: wide)
    #expect(sizing.slotsPerBucket(of: shard) == 255)
    let bySlots = Double(shard.rows) / (Double(sizing.bucketCount) * 255)
    #expect(sizing.load(of: shard) == bySlots)
    #expect(bySlots <= 0.9 * 0.75 + 0.001)
  }

  @Test func theProcessedSizeCountsPlaintextsOfTheQuerysModuli() {
    // 2 buckets: one entry of 1024 bytes a table, one plaintext each.
    let tiny = CuckooSizing(bucketCount: 2, maxSerializedBucketSize: 1024)
    #expect(ProcessingEstimate.plaintextsPerShard(sizing: tiny, parameters: parameters) == 2)
    // 800 buckets: 400 entries a table, two a plaintext.
    let block = CuckooSizing(bucketCount: 800, maxSerializedBucketSize: 1024)
    #expect(ProcessingEstimate.plaintextsPerShard(sizing: block, parameters: parameters) == 400)
    // Entries of 4096 bytes take two plaintexts each.
    let large = CuckooSizing(bucketCount: 10, maxSerializedBucketSize: 4096)
    #expect(ProcessingEstimate.plaintextsPerShard(sizing: large, parameters: parameters) == 20)
    // Measured: one plaintext of n_4096_logq_27_28_28 is 28,160 bytes (27 + 28 bits a coefficient).
    #expect(ProcessingEstimate.processedPlaintextBytes(parameters) == 28_160)
  }
}
