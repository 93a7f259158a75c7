import CallDirectoryCompiler

/// How big each shard's cuckoo table is, fixed so that every shard of a use
/// case gets the same PIR parameters, export after export.
///
/// Apple's keyword PIR (swift-homomorphic-encryption, `CuckooTable`,
/// `HashBucket`) stores a shard's rows in `bucketCount` buckets split
/// among `hashFunctionCount` (2) tables; a keyword may sit in one bucket
/// per table. A bucket serializes as one byte (its slot count, at most 255)
/// and, per row, 8 bytes of keyword hash, 2 of value length and the value;
/// it may take at most `maxSerializedBucketSize` bytes, which must hold a
/// bucket of the largest value alone. With a fixed bucket count the tool
/// never grows the table: a row it cannot place after `maxEvictionCount`
/// (100) evictions fails the shard. So:
///
/// - `maxSerializedBucketSize` is Apple's default for the use case's
///   largest value (`CuckooTableConfig.defaultMaxSerializedBucketSize`):
///   half a plaintext when a one-row bucket fits in it, else that bucket
///   rounded up to whole plaintexts.
/// - A shard's load is the larger of its rows' bytes over the buckets'
///   capacity and its rows over the rows of its average size the buckets
///   hold (at most 255 each).
/// - The most a shard may load is what two-choice cuckoo hashing fills
///   reliably for the rows a bucket holds (``maxLoad(slotsPerBucket:)``):
///   90% with four or more, less with fewer (50% is the limit with one).
/// - The bucket count is sized for the largest shard at three quarters of
///   that (``sizingShare``), so every shard may grow by a third before the
///   use case is re-sized.
public struct CuckooSizing: Sendable, Hashable {
  /// Hash functions (and tables): Apple's default.
  public static let hashFunctionCount = 2
  /// Evictions before an insertion fails: Apple's default.
  public static let maxEvictionCount = 100
  /// Slots a bucket may have (its count is one byte).
  public static let maxSlotCount = 255
  /// Bytes a value may have (its length is two bytes); a `CallIdentity`
  /// must stay under it.
  public static let maxValueSize = 65_535
  /// Bytes of a row in a bucket besides its value: the keyword's 8-byte
  /// hash and the value's 2-byte length.
  public static let rowOverhead = 10
  /// The share of ``maxLoad(slotsPerBucket:)`` a use case is sized at.
  public static let sizingShare = 0.75

  /// The bucket count of every shard (a multiple of ``hashFunctionCount``).
  public var bucketCount: Int
  /// The bytes a bucket may take.
  public var maxSerializedBucketSize: Int

  public init(bucketCount: Int, maxSerializedBucketSize: Int) {
    self.bucketCount = bucketCount
    self.maxSerializedBucketSize = maxSerializedBucketSize
  }

  /// What sizing needs of one shard's rows.
  public struct ShardLoad: Sendable, Hashable {
    public var rows = 0
    /// Σ (``rowOverhead`` + value bytes).
    public var bytes = 0
    public var maxValueSize = 0

    public init(rows: Int = 0, bytes: Int = 0, maxValueSize: Int = 0) {
      self.rows = rows
      self.bytes = bytes
      self.maxValueSize = maxValueSize
    }

    /// Adds a row whose value has `valueSize` bytes.
    public mutating func add(valueSize: Int) {
      rows += 1
      bytes += Self.rowBytes(valueSize)
      maxValueSize = max(maxValueSize, valueSize)
    }

    static func rowBytes(_ valueSize: Int) -> Int { CuckooSizing.rowOverhead + valueSize }
  }

  /// The bytes of a bucket holding one row of `valueSize` bytes
  /// (`HashBucket.serializedSize(singleValueSize:)`).
  public static func singleRowBucketSize(valueSize: Int) -> Int { 1 + rowOverhead + valueSize }

  /// Apple's `CuckooTableConfig.defaultMaxSerializedBucketSize`.
  public static func defaultMaxSerializedBucketSize(maxValueSize: Int, parameters: RLWEParameters) -> Int {
    let single = singleRowBucketSize(valueSize: maxValueSize)
    let plaintext = parameters.bytesPerPlaintext
    if single >= plaintext / 2 { return (single + plaintext - 1) / plaintext * plaintext }
    return plaintext / 2
  }

  /// Rows of the largest value one bucket holds (at least 1).
  public func slotsPerBucket(maxValueSize: Int) -> Int {
    max(1, min(Self.maxSlotCount, (maxSerializedBucketSize - 1) / ShardLoad.rowBytes(maxValueSize)))
  }

  /// Rows of a shard's average size one bucket holds (at least 1, at most
  /// 255): what its cuckoo table's reliable fill depends on.
  public func slotsPerBucket(of shard: ShardLoad) -> Int {
    guard shard.rows > 0 else { return Self.maxSlotCount }
    let average = (shard.bytes + shard.rows - 1) / shard.rows
    return max(1, min(Self.maxSlotCount, (maxSerializedBucketSize - 1) / max(1, average)))
  }

  /// The most a shard may load with buckets of `slots` rows each.
  public static func maxLoad(slotsPerBucket slots: Int) -> Double {
    switch slots {
    case ...1: 0.40
    case 2: 0.75
    case 3: 0.85
    default: 0.90
    }
  }

  /// A shard's load: the larger of its bytes over the buckets' capacity
  /// and its rows over the rows of its average size they hold.
  public func load(of shard: ShardLoad) -> Double {
    let bytes = Double(shard.bytes) / (Double(bucketCount) * Double(maxSerializedBucketSize - 1))
    let slots = Double(shard.rows) / (Double(bucketCount) * Double(slotsPerBucket(of: shard)))
    return max(bytes, slots)
  }

  /// The most `shard` may load in these buckets.
  public func maxLoad(of shard: ShardLoad) -> Double {
    Self.maxLoad(slotsPerBucket: slotsPerBucket(of: shard))
  }

  /// Why these buckets no longer hold `shards` (the use case's largest
  /// value is `maxValueSize`), nil when every shard fits.
  public func outgrown(by shards: [ShardLoad], maxValueSize: Int) -> String? {
    let single = Self.singleRowBucketSize(valueSize: maxValueSize)
    if single > maxSerializedBucketSize {
      return "a value of \(maxValueSize) bytes needs buckets of \(single) bytes, above the "
        + "\(maxSerializedBucketSize) bytes they were sized for"
    }
    for (index, shard) in shards.enumerated() where load(of: shard) > maxLoad(of: shard) {
      return "shard \(index) holds \(shard.rows) rows (\(shard.bytes) bytes of buckets), "
        + "\(Self.percent(load(of: shard))) of its \(bucketCount) buckets, above the \(Self.percent(maxLoad(of: shard))) "
        + "a cuckoo table with \(slotsPerBucket(of: shard)) rows a bucket fills reliably"
    }
    return nil
  }

  /// The sizing for `shards` with `parameters`: the largest shard at
  /// ``sizingShare`` of the load its buckets allow.
  public static func sized(for shards: [ShardLoad], parameters: RLWEParameters) -> CuckooSizing {
    let maxValue = shards.map(\.maxValueSize).max() ?? 0
    let bucketSize = defaultMaxSerializedBucketSize(maxValueSize: maxValue, parameters: parameters)
    var sizing = CuckooSizing(bucketCount: hashFunctionCount, maxSerializedBucketSize: bucketSize)
    var needed = 1
    for shard in shards {
      let target = sizing.maxLoad(of: shard) * sizingShare
      let byBytes = Double(shard.bytes) / (Double(bucketSize - 1) * target)
      let bySlots = Double(shard.rows) / (Double(sizing.slotsPerBucket(of: shard)) * target)
      needed = max(needed, Int(max(byBytes, bySlots).rounded(.up)))
    }
    sizing.bucketCount = max(hashFunctionCount, (needed + hashFunctionCount - 1) / hashFunctionCount * hashFunctionCount)
    return sizing
  }

  private static func percent(_ value: Double) -> String {
    "\(Int((value * 100).rounded()))%"
  }
}
