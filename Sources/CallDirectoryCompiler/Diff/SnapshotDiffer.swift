import CallDirectoryFormat
import CalldirSystem

/// Computes the delta between two full snapshot blobs as a streaming merge
/// over their sorted lists, and writes it as a delta blob.
///
/// The merge goes run by run: a run of consecutive numbers, which a blob
/// stores as one block however long, is compared as one range, so two
/// snapshots that each hold a 10^9-number range diff in milliseconds
/// (O(runs), not O(numbers)). A changed label is a remove plus an add.
/// The blocking lists are merged stretch by stretch on every core
/// (``BlockingMerge``). Memory holds the two label dictionaries, a few
/// frames per core, the identification changes and at most
/// ``maximumHeldAdds`` blocking adds (as ranges), never the unchanged
/// entries.
public enum SnapshotDiffer {
  /// What a delta holds.
  public struct Summary: Sendable, Hashable {
    public var blockingAdded = 0
    public var blockingRemoved = 0
    /// Identification adds, relabels included.
    public var identificationAdded = 0
    /// Identification removes, relabels included.
    public var identificationRemoved = 0
    /// Numbers whose label changed.
    public var relabeled = 0
    /// The delta blob's size.
    public var bytes: Int64 = 0
    /// The delta's header.
    public var header: BlobHeader? = nil

    public var isEmpty: Bool {
      blockingAdded == 0 && blockingRemoved == 0 && identificationAdded == 0 && identificationRemoved == 0
    }
  }

  /// Writes the delta from `old` to `new` (both full snapshots) to `path`, atomically.
  /// - Throws: `BlobError` when a blob is corrupt or not a full snapshot, or
  ///   writing fails; no file is left at `path` then.
  /// - Complexity: O(runs and single entries of both blobs).
  public static func writeDelta(
    from old: BlobReader, to new: BlobReader, path: String,
    deferringSyncsTo deferredSyncs: FileSystem.DeferredSyncs? = nil
  ) throws(BlobError) -> Summary {
    guard old.header.kind == .full else { throw BlobError.wrongKind(expected: .full, actual: old.header.kind) }
    guard new.header.kind == .full else { throw BlobError.wrongKind(expected: .full, actual: new.header.kind) }
    // A delta joins two versions of one dataset (a snapshot from before
    // datasets, with none, may start one).
    guard old.header.dataset == new.header.dataset || old.header.dataset.isEmpty else {
      throw BlobError.datasetMismatch(expected: old.header.dataset, actual: new.header.dataset)
    }
    var summary = Summary()

    // Identification first: its adds decide the delta's label dictionary,
    // which the writer needs before anything else.
    let newLabels = try labels(of: new)
    let oldToNew = try labelMapping(from: old, to: newLabels)
    var identificationRemoves = RangeList()
    var identificationAdds = RangeList()
    var first = try MergeCursor(IdentificationIteratorPieces(try old.identification()))
    var second = try MergeCursor(IdentificationIteratorPieces(try new.identification()))
    try RangeMerge.merge(
      &first, &second, sameLabel: { oldToNew[Int($0)] == Int64($1) },
      onlyInFirst: { range, _ in identificationRemoves.append(range) },
      onlyInSecond: { range, label in identificationAdds.append(range, label: label) },
      relabeled: { range, label in
        identificationRemoves.append(range)
        identificationAdds.append(range, label: label)
        summary.relabeled += Int(range.count)
      })
    var used = [Bool](repeating: false, count: newLabels.count)
    for add in identificationAdds.ranges { used[Int(add.label)] = true }
    var deltaID = [UInt32](repeating: 0, count: newLabels.count)
    var deltaLabels: [String] = []
    for (id, label) in newLabels.enumerated() where used[id] {
      deltaID[id] = UInt32(deltaLabels.count)
      deltaLabels.append(label)
    }

    let writer = try DeltaWriter(
      sink: FileBlobSink(path: path, deferringSyncsTo: deferredSyncs),
      baseVersion: old.header.version, baseDigest: old.header.contentDigest,
      targetVersion: new.header.version, targetDigest: new.header.contentDigest, labels: deltaLabels,
      dataset: new.header.dataset)
    // The removes are written as the merge finds them; the adds, which
    // come after them in the delta, are kept meanwhile up to
    // `maximumHeldAdds` ranges, past which a second merge finds them again.
    let blockingAdds = _RangeBuffer()
    var addsOverflow = false
    var removes = _BlockingFeed(writer: writer, adds: false)
    try BlockingMerge.merge(
      old, new,
      onlyInOld: { (range) throws(BlobError) in
        try removes.append(range)
        summary.blockingRemoved += Int(range.count)
      },
      onlyInNew: { range in
        guard !addsOverflow else { return }
        if blockingAdds.count < maximumHeldAdds {
          blockingAdds.append(range.lowerBound, range.upperBound)
        } else {
          addsOverflow = true
          blockingAdds.release()
        }
      })
    try removes.flush()
    var adds = _BlockingFeed(writer: writer, adds: true)
    if addsOverflow {
      try BlockingMerge.merge(
        old, new, onlyInOld: { _ in },
        onlyInNew: { (range) throws(BlobError) in
          try adds.append(range)
          summary.blockingAdded += Int(range.count)
        })
    } else {
      for add in blockingAdds.ranges { try adds.append(add) }
      summary.blockingAdded = blockingAdds.numbers
    }
    try adds.flush()
    for remove in identificationRemoves.ranges { try writer.appendIdentificationRemove(remove.range) }
    for add in identificationAdds.ranges {
      try writer.appendIdentificationAdd(add.range, labelID: deltaID[Int(add.label)])
    }
    summary.identificationRemoved = identificationRemoves.count
    summary.identificationAdded = identificationAdds.count
    let header = try writer.finish()
    summary.header = header
    summary.bytes = Int64(header.fileSize)
    checkInvariants(summary, header: header, base: old.header, target: new.header)
    return summary
  }

  /// Checks, in debug builds, that a delta just written joins its base to
  /// its target: it names the base's and the target's versions and
  /// digests, its sections hold what the merge counted, and the base's
  /// entries less its removes plus its adds are the target's (both blobs
  /// were read to the end, where each section's count is checked, so this
  /// holds whatever they hold). Release builds compile none of it.
  static func checkInvariants(_ summary: Summary, header: BlobHeader, base: BlobHeader, target: BlobHeader) {
    #if DEBUG
      precondition(header.kind == .delta && header.baseVersion == base.version && header.version == target.version)
      precondition(header.baseDigest == base.contentDigest && header.contentDigest == target.contentDigest)
      precondition(header.entryCount(.blockingRemoves) == UInt64(summary.blockingRemoved))
      precondition(header.entryCount(.blockingAdds) == UInt64(summary.blockingAdded))
      precondition(header.entryCount(.identificationRemoves) == UInt64(summary.identificationRemoved))
      precondition(header.entryCount(.identificationAdds) == UInt64(summary.identificationAdded))
      precondition(
        Int64(base.entryCount(.blocking)) - Int64(summary.blockingRemoved) + Int64(summary.blockingAdded)
          == Int64(target.entryCount(.blocking)), "blocking: base − removes + adds is not the target")
      precondition(
        Int64(base.entryCount(.identification)) - Int64(summary.identificationRemoved)
          + Int64(summary.identificationAdded) == Int64(target.entryCount(.identification)),
        "identification: base − removes + adds is not the target")
    #endif
  }

  /// The most blocking adds (ranges, 16 bytes each: 2 MiB) a delta
  /// keeps while it writes its removes; a delta with more merges the
  /// blobs twice instead of holding them.
  static let maximumHeldAdds = 1 << 17

  // MARK: - Merging

  /// Calls the closures with the numbers only one of two ascending streams
  /// holds, as ascending ranges (first all of `onlyInFirst`'s, then all of
  /// `onlyInSecond`'s), merging on the calling thread.
  ///
  /// ``BlockingMerge`` merges two blobs' blocking sections on every core.
  /// An error in either stream, or in a closure, ends the merge.
  /// - Complexity: O(runs and single numbers of both streams).
  static func mergeNumbers(
    _ first: NumberIterator, _ second: NumberIterator,
    onlyInFirst: (ClosedRange<Int64>) throws(BlobError) -> Void,
    onlyInSecond: (ClosedRange<Int64>) throws(BlobError) -> Void
  ) throws(BlobError) {
    try BlockingMerge.sequential(first, second, onlyInOld: onlyInFirst, onlyInNew: onlyInSecond)
  }

  private static func labels(of reader: BlobReader) throws(BlobError) -> [String] {
    var labels: [String] = []
    labels.reserveCapacity(reader.labelCount)
    for id in 0..<reader.labelCount { labels.append(try reader.label(UInt32(id))) }
    return labels
  }

  /// For each label id of `old`, the id of the byte-identical label in
  /// `newLabels`, or -1.
  private static func labelMapping(from old: BlobReader, to newLabels: [String]) throws(BlobError) -> [Int64] {
    var index: [[UInt8]: Int64] = [:]
    for (id, label) in newLabels.enumerated() { index[Array(label.utf8)] = Int64(id) }
    var mapping: [Int64] = []
    mapping.reserveCapacity(old.labelCount)
    for id in 0..<old.labelCount { mapping.append(index[Array(try old.label(UInt32(id)).utf8)] ?? -1) }
    return mapping
  }
}

/// Ascending, disjoint ranges of numbers with label ids, appended in
/// order; a range that continues the last one with the same label joins it.
struct RangeList {
  private(set) var ranges: [(range: ClosedRange<Int64>, label: UInt32)] = []
  /// The numbers the ranges hold.
  private(set) var count = 0

  @inline(__always)
  mutating func append(_ range: ClosedRange<Int64>, label: UInt32 = 0) {
    count += Int(range.count)
    if let last = ranges.last, last.label == label, last.range.upperBound + 1 == range.lowerBound {
      ranges[ranges.count - 1].range = last.range.lowerBound...range.upperBound
    } else {
      ranges.append((range, label))
    }
  }
}

/// One blocking section of a delta as the differ feeds it, in order: lone
/// numbers (most changes of a scattered list) gathered and appended a
/// batch at a time, longer ranges appended as ranges. The same bytes as
/// appending each range on its own.
private struct _BlockingFeed {
  let writer: DeltaWriter
  /// The adds section, else the removes.
  let adds: Bool
  private var batch: [Int64] = []

  static let batchSize = 4096

  init(writer: DeltaWriter, adds: Bool) {
    self.writer = writer
    self.adds = adds
    batch.reserveCapacity(Self.batchSize)
  }

  mutating func append(_ range: ClosedRange<Int64>) throws(BlobError) {
    if range.lowerBound == range.upperBound {
      batch.append(range.lowerBound)
      if batch.count == Self.batchSize { try flush() }
      return
    }
    try flush()
    if adds { try writer.appendBlockingAdd(range) } else { try writer.appendBlockingRemove(range) }
  }

  /// Appends the numbers gathered so far.
  mutating func flush() throws(BlobError) {
    guard !batch.isEmpty else { return }
    let (writer, adds) = (self.writer, self.adds)
    try batch.withUnsafeBufferPointer { (numbers) throws(BlobError) in
      if adds { try writer.appendBlockingAdds(contentsOf: numbers) } else { try writer.appendBlockingRemoves(contentsOf: numbers) }
    }
    batch.removeAll(keepingCapacity: true)
  }
}
