import CallDirectoryFormat
import CalldirHost
import CalldirSystem

/// The blocking numbers only one of two full snapshots holds, found on
/// every core.
///
/// The number line is cut at frame bases into stretches holding about
/// equal shares of both blobs' bytes (format version 2 frames record their
/// base, so a stretch of each blob decodes on its own, see
/// ``BlobReader/numbers(_:above:through:)``); each stretch of the old blob
/// is merged with the same stretch of the new one on a worker thread, and
/// the stretches' changes are handed over in order. Version 1 blobs, and
/// blobs too small to be worth a thread, are merged on the calling thread.
enum BlockingMerge {
  /// Below this many bytes of both blocking sections, one thread merges.
  static let parallelThreshold = 1 << 20

  /// Calls `onlyInOld` and `onlyInNew` with the blocking numbers only one
  /// of the blobs holds, each with ascending ranges (the calls to the two
  /// closures interleave stretch by stretch). Every frame of both
  /// sections is checked as a sequential read checks it.
  /// - Parameters:
  ///   - parts: How many stretches at most (default: four per core).
  ///   - threshold: Below this many bytes of both sections, one stretch.
  /// - Throws: The first error of a stretch in number order, or of a
  ///   closure; nothing is left running then.
  static func merge(
    _ old: BlobReader, _ new: BlobReader, parts: Int = 4 * Parallel.coreCount, threshold: Int = parallelThreshold,
    onlyInOld: (ClosedRange<Int64>) throws(BlobError) -> Void,
    onlyInNew: (ClosedRange<Int64>) throws(BlobError) -> Void
  ) throws(BlobError) {
    guard old.header.formatVersion >= 2 && new.header.formatVersion >= 2 else {
      try sequential(try old.blocking(), try new.blocking(), onlyInOld: onlyInOld, onlyInNew: onlyInNew)
      return
    }
    let oldFrames = try old.frames(of: .blocking)
    let newFrames = try new.frames(of: .blocking)
    let bytes = (oldFrames + newFrames).reduce(0) { $0 + $1.byteCount }
    let cuts = bytes < threshold || parts < 2 ? [0, BlobLimits.maxNumber] : cuts(oldFrames, newFrames, parts: parts)
    if cuts.count == 2 {
      let job = _StretchMergeJob()
      job.load(old, new, above: 0, through: BlobLimits.maxNumber)
      job.run()
      try job.hand(onlyInOld: onlyInOld, onlyInNew: onlyInNew)
      return
    }
    let pipeline = OrderedPipeline(
      window: Parallel.coreCount + 1, makeJob: { _StretchMergeJob() }, work: { $0.run() })
    for part in 0..<(cuts.count - 1) {
      let job = try pipeline.nextJob { (job: _StretchMergeJob) throws(BlobError) in
        try job.hand(onlyInOld: onlyInOld, onlyInNew: onlyInNew)
      }
      job.load(old, new, above: cuts[part], through: cuts[part + 1])
      pipeline.submit()
    }
    try pipeline.finish { (job: _StretchMergeJob) throws(BlobError) in
      try job.hand(onlyInOld: onlyInOld, onlyInNew: onlyInNew)
    }
  }

  /// Merges two whole sections (or two stretches) on the calling thread,
  /// handing the changes on ``_ChunkMerge/fullCount`` at a time.
  static func sequential<Old: NumberChunkSource, New: NumberChunkSource>(
    _ old: Old, _ new: New,
    onlyInOld: (ClosedRange<Int64>) throws(BlobError) -> Void,
    onlyInNew: (ClosedRange<Int64>) throws(BlobError) -> Void
  ) throws(BlobError) {
    let removes = _RangeBuffer()
    let adds = _RangeBuffer()
    func hand() throws(BlobError) -> Bool {
      for remove in removes.ranges { try onlyInOld(remove) }
      for add in adds.ranges { try onlyInNew(add) }
      removes.removeAll()
      adds.removeAll()
      return true
    }
    try _ChunkMerge.merge(
      old, new, onlyInFirst: removes, onlyInSecond: adds, full: _ChunkMerge.fullCount, whenFull: hand)
    _ = try hand()
  }

  /// Cut points `0 = c_0 < c_1 < … < c_k = Int64.max - 1`, at frame bases
  /// of either blob, such that the frames of both blobs below each cut
  /// hold about `i / parts` of their bytes.
  static func cuts(_ old: [SectionFrame], _ new: [SectionFrame], parts: Int) -> [Int64] {
    // Every frame base of either blob, with the bytes of both blobs'
    // frames that start below it.
    var candidates: [(base: Int64, before: Int)] = []
    candidates.reserveCapacity(old.count + new.count)
    var i = 0
    var j = 0
    var before = 0
    while i < old.count || j < new.count {
      let takeOld = j == new.count || (i < old.count && old[i].base <= new[j].base)
      let frame = takeOld ? old[i] : new[j]
      if takeOld { i += 1 } else { j += 1 }
      if frame.base > 0 && frame.base != candidates.last?.base { candidates.append((frame.base, before)) }
      before += frame.byteCount
    }
    var cuts: [Int64] = [0]
    var next = 0
    for part in 1..<parts {
      let target = before * part / parts
      while next < candidates.count && candidates[next].before < target { next += 1 }
      guard next < candidates.count else { break }
      if candidates[next].base > cuts[cuts.count - 1] { cuts.append(candidates[next].base) }
    }
    cuts.append(BlobLimits.maxNumber)
    return cuts
  }
}

/// One stretch of a ``BlockingMerge``: both blobs' iterators over it, and
/// what the merge found.
///
/// A worker keeps at most ``_ChunkMerge/fullCount`` changes of its
/// stretch: a stretch that has more (a dense blob changed throughout) is
/// merged again on the caller's thread when it is handed over, its changes
/// handed on as they are found, so that memory holds a few stretches'
/// worth of changes whatever the blobs.
///
/// `@unchecked Sendable`: the pipeline hands a job to one worker at a time
/// and orders ``run()`` between ``load(_:_:above:through:)`` and
/// ``hand(onlyInOld:onlyInNew:)``, both on the caller's thread.
final class _StretchMergeJob: @unchecked Sendable {
  private var readers: (old: BlobReader, new: BlobReader)?
  private var bounds: (above: Int64, through: Int64) = (0, 0)
  private var old: NumberStretchIterator?
  private var new: NumberStretchIterator?
  private let removes = _RangeBuffer()
  private let adds = _RangeBuffer()
  private var error: BlobError?
  /// Whether the stretch had too many changes to keep.
  private var isOverfull = false

  /// Sets the stretch of `old` and `new` above `above` through `through`
  /// to merge next.
  func load(_ old: BlobReader, _ new: BlobReader, above: Int64, through: Int64) {
    readers = (old, new)
    bounds = (above, through)
    do throws(BlobError) {
      self.old = try old.numbers(.blocking, above: above, through: through)
      self.new = try new.numbers(.blocking, above: above, through: through)
    } catch {
      self.error = error
    }
  }

  /// Merges the stretch (on a worker thread), up to ``_ChunkMerge/fullCount`` changes.
  func run() {
    guard let old, let new, error == nil else { return }
    do throws(BlobError) {
      try _ChunkMerge.merge(old, new, onlyInFirst: removes, onlyInSecond: adds, full: _ChunkMerge.fullCount) {
        [self] () -> Bool in
        isOverfull = true
        removes.release()
        adds.release()
        return false
      }
    } catch {
      self.error = error
    }
    self.old = nil
    self.new = nil
  }

  /// Hands the stretch's changes over (or throws its error), and resets
  /// the job for the next stretch.
  func hand(
    onlyInOld: (ClosedRange<Int64>) throws(BlobError) -> Void,
    onlyInNew: (ClosedRange<Int64>) throws(BlobError) -> Void
  ) throws(BlobError) {
    defer {
      removes.removeAll()
      adds.removeAll()
      error = nil
      isOverfull = false
      readers = nil
    }
    if let error { throw error }
    if isOverfull, let readers {
      // Again, handing the changes on as they come.
      try BlockingMerge.sequential(
        try readers.old.numbers(.blocking, above: bounds.above, through: bounds.through),
        try readers.new.numbers(.blocking, above: bounds.above, through: bounds.through),
        onlyInOld: onlyInOld, onlyInNew: onlyInNew)
      return
    }
    for remove in removes.ranges { try onlyInOld(remove) }
    for add in adds.ranges { try onlyInNew(add) }
  }
}
