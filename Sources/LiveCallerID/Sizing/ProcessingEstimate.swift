import CallDirectoryCompiler

/// What processing a use case's shards with `PIRProcessDatabase` will
/// take, estimated: the processed files' bytes and the time to make them.
///
/// Size: a shard's processed database is the index-PIR database of its
/// cuckoo table, `hashFunctionCount` tables of `bucketCount / 2` entries of
/// `maxSerializedBucketSize` bytes, packed into plaintexts of
/// `bytesPerPlaintext` bytes (several entries a plaintext, or several
/// plaintexts an entry), each stored in evaluation form
/// (``processedPlaintextBytes``). Time: from measurements of the tool
/// (swift-homomorphic-encryption 6867588): 1M block rows in 20 shards
/// processed in about 11 s with `trialsPerShard` 0, and each trial adds
/// about 2 s a shard. Both are estimates.
public struct ProcessingEstimate: Sendable, Hashable {
  /// Bytes of the processed files (`.bin`) of the shards counted.
  public var processedBytes: Int
  /// Seconds `PIRProcessDatabase` takes for them, one after another.
  public var seconds: Double

  /// The plaintexts of one shard's processed database.
  public static func plaintextsPerShard(sizing: CuckooSizing, parameters: RLWEParameters) -> Int {
    let entries = sizing.bucketCount / CuckooSizing.hashFunctionCount
    let plaintext = parameters.bytesPerPlaintext
    let entry = sizing.maxSerializedBucketSize
    let perTable =
      entry <= plaintext
      ? (entries + plaintext / entry - 1) / (plaintext / entry)
      : entries * ((entry + plaintext - 1) / plaintext)
    return perTable * CuckooSizing.hashFunctionCount
  }

  /// Bytes of one processed plaintext: its N coefficients in evaluation
  /// form over every coefficient modulus but the last, each in its bits
  /// (measured: 28,160 bytes for `n_4096_logq_27_28_28_logt_5`, 4096 × 55
  /// bits).
  public static func processedPlaintextBytes(_ parameters: RLWEParameters) -> Int {
    parameters.polyDegree * parameters.coefficientModulusBits.dropLast().reduce(0, +) / 8
  }

  /// Processed bytes a second (1M rows, about 160 MB, in 11 s).
  public static let bytesPerSecond = 160.0e6 / 11.0
  /// Seconds one self-test query adds to a shard.
  public static let secondsPerTrial = 2.0

  /// The estimate for `shards` shards of `sizing`.
  public init(shards: Int, sizing: CuckooSizing, settings: LiveCallerIDSettings) {
    processedBytes =
      shards * Self.plaintextsPerShard(sizing: sizing, parameters: settings.rlweParameters)
      * Self.processedPlaintextBytes(settings.rlweParameters)
    seconds =
      Double(processedBytes) / Self.bytesPerSecond + Double(shards * settings.trialsPerShard) * Self.secondsPerTrial
  }
}
