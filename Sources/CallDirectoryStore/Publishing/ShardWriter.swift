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
    let numbers = identification.map(\.number)
    var written: [Written] = []
    var current = -1
    var writer: FullSnapshotWriter?
    var entries: [LabeledNumber] = []
    var blockingCount = 0
    // Spilled entries are read twice per shard: once for the labels it
    // uses (`scan`), once as they are written (`feed`).
    let scan = try spilled?.cursor()
    let feed = try spilled?.cursor()
    var shardLabels = RankSet(count: 0)

    func open(_ shard: Int) throws {
      if let spilled, let scan {
        shardLabels = RankSet(count: spilled.used.capacity)
        while let number = scan.number, number <= bounds[shard].upperBound {
          shardLabels.insert(scan.rank)
          try scan.advance()
        }
        shardLabels.index()
        writer = try FullSnapshotWriter(
          sink: FileBlobSink(path: paths[shard], deferringSyncsTo: deferredSyncs), version: UInt64(version),
          dataset: dataset)
        try writer?.setLabels(streaming: spilled.labels(shardLabels))
        blockingCount = 0
        current = shard
        return
      }
      let slice = identification[
        NumberSet.lowerBound(numbers, bounds[shard].lowerBound)..<NumberSet.upperBound(numbers, bounds[shard].upperBound)]
      let (subset, remapped) = Self.labelSubset(slice, labels: labels)
      writer = try FullSnapshotWriter(
        sink: FileBlobSink(path: paths[shard], deferringSyncsTo: deferredSyncs), version: UInt64(version),
        labels: subset, dataset: dataset)
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
      written.append(Written(header: try open.finish(), blocking: blockingCount, identification: identificationCount))
      writer = nil
    }
    /// Moves on to the shard that holds `value`.
    func advance(to value: Int64) throws {
      while current < 0 || value > bounds[current].upperBound {
        try close()
        try open(current + 1)
      }
    }

    try blocking.forEachChunk(
      singles: { buffer in
        var start = 0
        while start < buffer.count {
          try advance(to: buffer[start])
          let upper = bounds[current].upperBound
          let end = buffer[start...].partitionPoint { $0 <= upper }
          try writer?.appendBlocking(ascending: UnsafeBufferPointer(rebasing: buffer[start..<end]), hashingAside: false)
          blockingCount += end - start
          start = end
        }
      },
      range: { range in
        var lower = range.lowerBound
        while true {
          try advance(to: lower)
          let upper = min(range.upperBound, bounds[current].upperBound)
          try writer?.appendBlocking(lower...upper)
          blockingCount += Int(upper - lower) + 1
          if upper == range.upperBound { return }
          lower = upper + 1
        }
      })
    // The shards after the last blocking number (identification only, or empty).
    while current + 1 < bounds.count {
      try close()
      try open(current + 1)
    }
    try close()
    return written
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
