import CallDirectoryCompiler
import CallDirectoryFormat
import CalldirSystem

/// Writes the shard blobs of a snapshot in one ascending walk over its
/// blocking entries, one blob open at a time, on one thread (the full
/// blob is written on the other cores meanwhile).
struct ShardWriter {
  /// What one written shard holds.
  struct Written {
    var header: BlobHeader
    var blocking: Int
    var identification: Int
  }

  let version: Int
  let identification: [LabeledNumber]
  let labels: [String]
  /// The dataset every shard carries.
  var dataset = ""
  /// Where the syncs of the shards' directory are left, if not done at once.
  var deferredSyncs: FileSystem.DeferredSyncs?
  /// The identification entries, when they were spilled (then
  /// `identification` and `labels` are empty).
  var spilled: SpilledIdentification?

  /// Writes shard k's entries (those inside `bounds[k]`) to `paths[k]`.
  func write(blocking: BlockingEntries, bounds: [ClosedRange<Int64>], paths: [String]) throws -> [Written] {
    let walk = try _ShardWalk(self, bounds: bounds, paths: paths)
    try blocking.forEachChunk(
      singles: { buffer in try walk.appendBlocking(buffer) },
      range: { range in try walk.appendBlocking(range) })
    // The shards after the last blocking number (identification only, or empty).
    while walk.current + 1 < bounds.count {
      try walk.close()
      try walk.open(walk.current + 1)
    }
    try walk.close()
    return walk.written
  }

  /// The labels a slice of identification entries uses, and the entries
  /// renumbered into that smaller dictionary (order kept).
  static func labelSubset(_ entries: ArraySlice<LabeledNumber>, labels: [String]) -> ([String], [LabeledNumber]) {
    var newID = [UInt32?](repeating: nil, count: labels.count)
    for entry in entries { newID[Int(entry.labelID)] = 0 }
    var subset: [String] = []
    for index in labels.indices where newID[index] != nil {
      newID[index] = UInt32(subset.count)
      subset.append(labels[index])
    }
    let remapped = entries.map { LabeledNumber(number: $0.number, labelID: newID[Int($0.labelID)] ?? 0) }
    return (subset, remapped)
  }
}

/// One ascending walk of ``ShardWriter/write(blocking:bounds:paths:)``:
/// the shard open (its writer and what it holds so far) and the shards
/// written.
private final class _ShardWalk {
  let shards: ShardWriter
  let bounds: [ClosedRange<Int64>]
  let paths: [String]
  let numbers: [Int64]
  private(set) var written: [ShardWriter.Written] = []
  /// The shard open, -1 before the first.
  private(set) var current = -1
  private var writer: FullSnapshotWriter?
  private var entries: [LabeledNumber] = []
  private var blockingCount = 0
  // Spilled entries are read twice per shard: once for the labels it
  // uses (`scan`), once as they are written (`feed`).
  private let scan: SpilledEntryCursor?
  private let feed: SpilledEntryCursor?
  private var shardLabels = RankSet(count: 0)

  init(_ shards: ShardWriter, bounds: [ClosedRange<Int64>], paths: [String]) throws {
    self.shards = shards
    self.bounds = bounds
    self.paths = paths
    numbers = shards.identification.map(\.number)
    scan = try shards.spilled?.cursor()
    feed = try shards.spilled?.cursor()
  }

  func open(_ shard: Int) throws {
    if let spilled = shards.spilled, let scan {
      shardLabels = RankSet(count: spilled.used.capacity)
      while let number = scan.number, number <= bounds[shard].upperBound {
        shardLabels.insert(scan.rank)
        try scan.advance()
      }
      shardLabels.index()
      writer = try FullSnapshotWriter(
        sink: FileBlobSink(path: paths[shard], deferringSyncsTo: shards.deferredSyncs),
        version: UInt64(shards.version), dataset: shards.dataset)
      try writer?.setLabels(streaming: spilled.labels(shardLabels))
      blockingCount = 0
      current = shard
      return
    }
    let slice = shards.identification[
      NumberSet.lowerBound(numbers, bounds[shard].lowerBound)..<NumberSet.upperBound(numbers, bounds[shard].upperBound)]
    let (subset, remapped) = ShardWriter.labelSubset(slice, labels: shards.labels)
    writer = try FullSnapshotWriter(
      sink: FileBlobSink(path: paths[shard], deferringSyncsTo: shards.deferredSyncs),
      version: UInt64(shards.version), labels: subset, dataset: shards.dataset)
    entries = remapped
    blockingCount = 0
    current = shard
  }

  func close() throws {
    guard let open = writer else { return }
    var identificationCount = entries.count
    if let feed {
      identificationCount = 0
      while let number = feed.number, number <= bounds[current].upperBound {
        try open.appendIdentification(number, labelID: shardLabels.place(of: feed.rank), label: feed.label)
        identificationCount += 1
        try feed.advance()
      }
    }
    for entry in entries { try open.appendIdentification(entry.number, labelID: entry.labelID) }
    written.append(
      ShardWriter.Written(header: try open.finish(), blocking: blockingCount, identification: identificationCount))
    writer = nil
  }

  /// Moves on to the shard that holds `value`.
  func advance(to value: Int64) throws {
    while current < 0 || value > bounds[current].upperBound {
      try close()
      try open(current + 1)
    }
  }

  /// Single blocking numbers, ascending, into the shards that hold them.
  func appendBlocking(_ buffer: UnsafeBufferPointer<Int64>) throws {
    var start = 0
    while start < buffer.count {
      try advance(to: buffer[start])
      let upper = bounds[current].upperBound
      let end = buffer[start...].partitionPoint { $0 <= upper }
      try writer?.appendBlocking(ascending: UnsafeBufferPointer(rebasing: buffer[start..<end]), hashingAside: false)
      blockingCount += end - start
      start = end
    }
  }

  /// A blocking range, cut at the shards' bounds.
  func appendBlocking(_ range: ClosedRange<Int64>) throws {
    var lower = range.lowerBound
    while true {
      try advance(to: lower)
      let upper = min(range.upperBound, bounds[current].upperBound)
      try writer?.appendBlocking(lower...upper)
      blockingCount += Int(upper - lower) + 1
      if upper == range.upperBound { return }
      lower = upper + 1
    }
  }
}
