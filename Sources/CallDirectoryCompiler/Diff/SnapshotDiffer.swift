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
/// (``BlockingMerge``). Memory holds a few frames per core, at most
/// ``maximumHeldAdds`` blocking adds (as ranges), and for the labels 4
/// bytes for each of the old dictionary's and a bit for each of the new
/// one's (``LabelMapping``; the delta's dictionary is streamed from the
/// new blob), never the unchanged entries nor the identification changes
/// (the identification sections are merged twice: removes, then adds).
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

    // The labels both dictionaries hold, joined once: the delta's adds name
    // the new blob's labels.
    let labels = try LabelMapping(from: old, to: new)
    let writer = try DeltaWriter(
      sink: FileBlobSink(path: path, deferringSyncsTo: deferredSyncs),
      baseVersion: old.header.version, baseDigest: old.header.contentDigest,
      targetVersion: new.header.version, targetDigest: new.header.contentDigest, dataset: new.header.dataset)
    try writeBlockingChanges(from: old, to: new, into: writer, summary: &summary)
    try writeIdentificationChanges(from: old, to: new, labels: labels, into: writer, summary: &summary)
    let header = try writer.finish()
    summary.header = header
    summary.bytes = Int64(header.fileSize)
    checkInvariants(summary, header: header, base: old.header, target: new.header)
    return summary
  }

  /// The blocking changes of ``writeDelta(from:to:path:deferringSyncsTo:)``:
  /// the removes, then the adds.
  private static func writeBlockingChanges(
    from old: BlobReader, to new: BlobReader, into writer: DeltaWriter, summary: inout Summary
  ) throws(BlobError) {
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
  }

  /// The identification changes of ``writeDelta(from:to:path:deferringSyncsTo:)``
  /// and the delta's dictionary.
  private static func writeIdentificationChanges(
    from old: BlobReader, to new: BlobReader, labels: LabelMapping, into writer: DeltaWriter, summary: inout Summary
  ) throws(BlobError) {
    // Identification, merged twice, holding none of its changes: the first
    // merge writes the removes and marks the labels the adds use; the
    // delta's dictionary is those labels (in the new blob's order), and the
    // second merge writes the adds.
    var used = RankSet(count: new.labelCount)
    var identificationRemoves = _RangeJoiner { (range, _) throws(BlobError) in
      try writer.appendIdentificationRemove(range)
    }
    try mergeIdentification(
      old, new, labels: labels,
      remove: { (range) throws(BlobError) in
        try identificationRemoves.append(range)
        summary.identificationRemoved += Int(range.count)
      },
      add: { range, label in
        used.insert(label)
        summary.identificationAdded += Int(range.count)
      },
      relabeled: { summary.relabeled += Int($0.count) })
    try identificationRemoves.flush()
    used.index()
    if labels.newAscend {
      try writer.setLabels(streaming: _UsedLabels(reader: new, used: used))
    } else {
      var held: [String] = []
      for id in 0..<new.labelCount where used.contains(UInt32(id)) { held.append(try new.label(UInt32(id))) }
      try writer.setLabels(held)
    }
    if used.count > 0 {
      var identificationAdds = _RangeJoiner { (range, label) throws(BlobError) in
        try writer.appendIdentificationAdd(range, labelID: used.place(of: label))
      }
      try mergeIdentification(
        old, new, labels: labels, remove: { _ in },
        add: { (range, label) throws(BlobError) in try identificationAdds.append(range, label: label) }, relabeled: { _ in })
      try identificationAdds.flush()
    }
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

  /// Merges the identification sections of `old` and `new`, in ascending
  /// order: `remove` gets the numbers only `old` lists or whose label
  /// changed, `add` those only `new` lists or whose label changed (with
  /// their label id in `new`), and `relabeled` those whose label changed.
  private static func mergeIdentification(
    _ old: BlobReader, _ new: BlobReader, labels: LabelMapping,
    remove: (ClosedRange<Int64>) throws(BlobError) -> Void,
    add: (ClosedRange<Int64>, UInt32) throws(BlobError) -> Void,
    relabeled: (ClosedRange<Int64>) -> Void
  ) throws(BlobError) {
    var first = try MergeCursor(IdentificationIteratorPieces(try old.identification()))
    var second = try MergeCursor(IdentificationIteratorPieces(try new.identification()))
    try RangeMerge.merge(
      &first, &second, sameLabel: { labels.oldToNew[Int($0)] == Int32(bitPattern: $1) },
      onlyInFirst: { (range, _) throws(BlobError) in try remove(range) },
      onlyInSecond: { (range, label) throws(BlobError) in try add(range, label) },
      relabeled: { (range, label) throws(BlobError) in
        try remove(range)
        try add(range, label)
        relabeled(range)
      })
  }
}

/// The labels two full snapshots' dictionaries share: for each label id of
/// the old one, the id of the byte-identical label of the new one, or -1.
///
/// A compiler's dictionaries ascend by bytes: they are joined in one walk
/// of each, label by label, holding no label. Others (a blob written in
/// another order) are joined through a table of the new labels.
struct LabelMapping {
  /// By old label id: the new id, or -1.
  private(set) var oldToNew: [Int32]
  /// Whether the new dictionary ascends strictly by bytes (then a delta
  /// streams its labels from it).
  private(set) var newAscend: Bool

  init(from old: BlobReader, to new: BlobReader) throws(BlobError) {
    oldToNew = [Int32](repeating: -1, count: old.labelCount)
    newAscend = true
    var oldAscend = true
    var next: UInt32 = 0
    var newLabel: String? = new.labelCount > 0 ? try new.label(0) : nil
    // Moves to the next new label, checking that it ascends.
    func advance() throws(BlobError) {
      next += 1
      guard Int(next) < new.labelCount else {
        newLabel = nil
        return
      }
      let label = try new.label(next)
      if let previous = newLabel, !IdentificationResolver.bytesPrecede(previous, label) { newAscend = false }
      newLabel = label
    }
    var previousOld: String?
    for id in 0..<old.labelCount {
      let label = try old.label(UInt32(id))
      if let previousOld, !IdentificationResolver.bytesPrecede(previousOld, label) { oldAscend = false }
      guard oldAscend, newAscend else { break }
      previousOld = label
      while let candidate = newLabel, IdentificationResolver.bytesPrecede(candidate, label), newAscend {
        try advance()
      }
      if let candidate = newLabel, candidate.utf8.elementsEqual(label.utf8) { oldToNew[id] = Int32(next) }
    }
    // The rest of the new dictionary must ascend too, for a delta to stream it.
    while newLabel != nil, newAscend { try advance() }
    guard !(oldAscend && newAscend) else { return }
    var index: [[UInt8]: Int32] = [:]
    for id in 0..<new.labelCount { index[Array(try new.label(UInt32(id)).utf8)] = Int32(id) }
    for id in 0..<old.labelCount { oldToNew[id] = index[Array(try old.label(UInt32(id)).utf8)] ?? -1 }
  }
}

/// Ranges appended in ascending order, with label ids, handed on with the
/// ranges that continue one another under one label joined: the same
/// ranges as a delta's lists always held.
private struct _RangeJoiner {
  private let write: (ClosedRange<Int64>, UInt32) throws(BlobError) -> Void
  private var pending: (range: ClosedRange<Int64>, label: UInt32)?

  init(_ write: @escaping (ClosedRange<Int64>, UInt32) throws(BlobError) -> Void) {
    self.write = write
  }

  mutating func append(_ range: ClosedRange<Int64>, label: UInt32 = 0) throws(BlobError) {
    if let last = pending, last.label == label, last.range.upperBound + 1 == range.lowerBound {
      pending = (last.range.lowerBound...range.upperBound, label)
      return
    }
    try flush()
    pending = (range, label)
  }

  /// Hands on the last range.
  mutating func flush() throws(BlobError) {
    guard let last = pending else { return }
    pending = nil
    try write(last.range, last.label)
  }
}

/// The labels of a new snapshot that a delta's adds use, streamed from its
/// blob (in id order, which ascends by bytes) as the delta's dictionary.
private struct _UsedLabels: LabelStream {
  let reader: BlobReader
  let used: RankSet

  var labelCount: Int { used.count }

  func forEachLabel(_ body: (UnsafeRawBufferPointer) throws(BlobError) -> Void) throws(BlobError) {
    for id in 0..<reader.labelCount where used.contains(UInt32(id)) {
      var label = try reader.label(UInt32(id))
      try label.withUTF8 { utf8 in Result { () throws(BlobError) in try body(UnsafeRawBufferPointer(utf8)) } }.get()
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
