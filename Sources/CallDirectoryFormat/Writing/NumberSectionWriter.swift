import CalldirSystem

#if os(Linux)
  import CVectorCodec
#endif

/// Partitions one ascending stream of numbers into blocks and frames and
/// writes them to the sink, holding at most one block and one frame.
///
/// Partitioning (see `blob-format.md`, "Writer choices"):
/// - a streak of ``runThreshold`` or more consecutive numbers (with the same
///   label) becomes a run block, however long, even amid scattered numbers;
/// - other numbers collect into a pending block of at most
///   ``BlobLimits/maxBlockEntries``, which is cut early before a gap more
///   than 64 times the block's average gap (so one jump between ranges does
///   not inflate a block);
/// - each block takes the smallest of run, bitmap and Elias–Fano coding;
/// - blocks fill frames of at most ``BlobLimits/maxFramePayload`` bytes;
///   each frame header records the frame's base, the last number before it.
final class _NumberSectionWriter {
  static let runThreshold = 64
  static let minimumEntriesBeforeCut = 8
  static let gapCutFactor: UInt64 = 64

  let section: BlobSection
  let hasLabels: Bool
  private let sink: any BlobSink

  /// The pending block: `values[0..<pending]` (and their labels), held in
  /// fixed storage so the per-number path does no array bookkeeping.
  private let values: UnsafeMutablePointer<UInt64>
  private let labels: UnsafeMutablePointer<UInt32>
  private var pending = 0
  private var streak = 0
  private var runFirst: UInt64 = 0
  private var runCount: UInt64 = 0
  private var runLabel: UInt32 = 0
  private var previous: UInt64 = 0
  private var lastAppended: Int64 = 0

  /// The frame being filled: `frame[0..<frameLength]`, with room after it
  /// for one more block (see ``_addBlock(length:entries:after:)``).
  private let frame: UnsafeMutablePointer<UInt8>
  private var frameLength = 0
  private var frameCount: UInt64 = 0
  /// The last number before the current frame's first block (0 for the first frame).
  private var frameBase: UInt64 = 0
  /// A labelled block, encoded before it is copied into the frame.
  private var block = [UInt8]()
  private var checksum = CRC32C()
  /// Blocks and runs written so far.
  private var blocksEmitted = 0

  /// Entries appended so far.
  private(set) var count: UInt64 = 0
  /// Bytes written to the sink so far.
  private(set) var length: UInt64 = 0

  init(section: BlobSection, sink: any BlobSink) {
    self.section = section
    self.hasLabels = section.carriesLabels
    self.sink = sink
    values = .allocate(capacity: BlobLimits.maxBlockEntries)
    labels = .allocate(capacity: BlobLimits.maxBlockEntries)
    frame = .allocate(capacity: BlobLimits.maxFramePayload + _BlockEncoder.maxBlockBytes)
  }

  deinit {
    values.deallocate()
    labels.deallocate()
    frame.deallocate()
  }

  /// Throws unless `number` may follow the numbers appended so far (a
  /// number at or below the last one is a repeat or out of order, as in
  /// ``check(contentsOf:)``, even when it is also out of range).
  func check(_ number: Int64) throws(BlobError) {
    if count > 0 {
      if number == lastAppended { throw BlobError.duplicateEntry(section: section, number: number) }
      if number < lastAppended {
        throw BlobError.outOfOrder(section: section, previous: lastAppended, number: number)
      }
    }
    guard number >= 1 && number <= BlobLimits.maxNumber else {
      throw BlobError.numberOutOfRange(section: section, number: number)
    }
  }

  /// Throws unless every number of `range` may follow.
  func check(_ range: ClosedRange<Int64>) throws(BlobError) {
    try check(range.lowerBound)
    guard range.upperBound <= BlobLimits.maxNumber else {
      throw BlobError.numberOutOfRange(section: section, number: range.upperBound)
    }
  }

  /// Appends a number checked with ``check(_:)-(Int64)``.
  func append(_ number: Int64, label: UInt32) throws(BlobError) {
    try _add(UInt64(number), label)
    count += 1
    lastAppended = number
    _checkInvariants()
  }

  /// Appends numbers checked with ``check(contentsOf:)`` (unlabelled
  /// sections). Produces the same bytes as appending them one by one.
  ///
  /// Blocks are cut by the same rules as ``_add(_:_:)`` applies number by
  /// number, but found by scanning the buffer and encoded straight from it:
  /// a pending block is only copied aside when the buffer ends inside it.
  func append(contentsOf numbers: UnsafeBufferPointer<Int64>) throws(BlobError) {
    guard let last = numbers.last, let start = numbers.baseAddress else { return }
    let values = UnsafeRawPointer(start).assumingMemoryBound(to: UInt64.self)
    let total = numbers.count
    let next = try _sendOutEarlierPending(values, total: total)
    // Otherwise the buffer was too short to send them out: added whole.
    if pending <= next { try _partition(values, from: next, total: total) }
    count += UInt64(total)
    lastAppended = last
    _checkInvariants()
  }

  /// Numbers pending from an earlier call are in `values`: goes number by
  /// number until they have gone out in a block of their own (or into a
  /// run), so that what is pending is always a stretch of this buffer.
  /// (Until then, some pending numbers may come from the earlier call: a
  /// buffer too short to send them out is added whole, one by one.)
  /// Returns how many numbers of `buffer` were added.
  @inline(__always)
  private func _sendOutEarlierPending(_ buffer: UnsafePointer<UInt64>, total: Int) throws(BlobError) -> Int {
    var next = 0
    let emitted = blocksEmitted
    while next < total, pending > 0, blocksEmitted == emitted || pending > next {
      try _add(buffer[next], 0)
      next &+= 1
    }
    return next
  }

  /// Partitions `values[next..<total]` into runs and blocks, the pending
  /// block (`values[next - pending..<next]`) first; what the buffer ends
  /// inside (a run, or a block) is held back for the next call.
  @inline(__always)
  private func _partition(_ values: UnsafePointer<UInt64>, from start: Int, total: Int) throws(BlobError) {
    var next = start
    var blockStart = next &- pending
    var streak = self.streak
    // Read once: the scan below runs after every number that is not quiet.
    let vectorized = _VectorLoops.available
    // The run's state in locals (stored back before anything reads it).
    var runFirst = self.runFirst
    var runCount = self.runCount
    while next < total {
      if runCount == 0, next > blockStart {
        let quiet = next
        next = Self._skipQuiet(values, from: quiet, blockStart: blockStart, total: total, vectorized: vectorized)
        // No number passed over continued a streak: the last one starts one.
        if next > quiet { streak = 1 }
        if next == total { break }
      }
      let value = values[next]
      if runCount > 0 {
        if value == runFirst &+ runCount {
          runCount &+= 1
          next &+= 1
          continue
        }
        self.runCount = runCount
        try _emitRun()
        runCount = 0
        blockStart = next
        streak = 1
        next &+= 1
        continue
      }
      let held = next &- blockStart
      if held > 0 {
        let previous = values[next &- 1]
        if held == BlobLimits.maxBlockEntries
          || (held >= _NumberSectionWriter.minimumEntriesBeforeCut
            && _bulkGapCuts(value: value, first: values[blockStart], last: previous, count: held))
        {
          try _emitBlock(values + blockStart, count: held)
          blockStart = next
          streak = 1
          next &+= 1
          continue
        }
        streak = value == previous &+ 1 ? streak &+ 1 : 1
      } else {
        streak = 1
      }
      next &+= 1
      if streak >= _NumberSectionWriter.runThreshold {
        (runFirst, runCount) = try _startRun(values, streak: streak, endingBefore: next, blockStart: blockStart)
        streak = 0
        blockStart = next
      }
    }
    self.runCount = runCount
    _holdBack(values, blockStart: blockStart, total: total, streak: streak)
  }

  /// A streak of `streak` consecutive numbers ending before `end` becomes
  /// the run (unlabelled); the block before it, `values[blockStart...]`,
  /// goes out. Returns the run's first number and count.
  @inline(__always)
  private func _startRun(
    _ values: UnsafePointer<UInt64>, streak: Int, endingBefore end: Int, blockStart: Int
  ) throws(BlobError) -> (first: UInt64, count: UInt64) {
    let runStart = end &- streak
    if runStart > blockStart { try _emitBlock(values + blockStart, count: runStart &- blockStart) }
    runFirst = values[runStart]
    runCount = UInt64(streak)
    runLabel = 0
    return (runFirst, runCount)
  }

  /// At the end of a buffer: a run stays as it is (nothing pending);
  /// otherwise `values[blockStart..<total]` is copied aside as the pending
  /// block, with its streak.
  @inline(__always)
  private func _holdBack(_ values: UnsafePointer<UInt64>, blockStart: Int, total: Int, streak: Int) {
    if runCount > 0 {
      _clearPending()
    } else {
      pending = total &- blockStart
      self.streak = streak
      self.values.update(from: values + blockStart, count: pending)
    }
  }

  /// The index of the first of `values[from..<total]` that may change the
  /// pending block `values[blockStart..<from]` other than by joining it:
  /// one that continues a streak of consecutive numbers, may cut the block
  /// (``_cannotCut(jump:span:)`` does not hold), or would be its
  /// ``BlobLimits/maxBlockEntries``-th entry or a later one. Amid scattered
  /// numbers most are quiet: they are passed over eight at a time, with one
  /// branch for the eight.
  /// (With AVX-512 when `vectorized`, eight numbers to one compare.)
  @inline(__always)
  static func _skipQuiet(
    _ values: UnsafePointer<UInt64>, from: Int, blockStart: Int, total: Int,
    vectorized: Bool = _VectorLoops.available
  ) -> Int {
    let first = values[blockStart]
    let limit = min(total, blockStart &+ BlobLimits.maxBlockEntries)
    #if os(Linux)
      if vectorized {
        return Int(cvectorcodec_skip_quiet(values, Int64(from), Int64(blockStart), Int64(limit)))
      }
    #endif
    var next = from
    while next &+ 8 <= limit {
      var loud: UInt8 = 0
      for offset in 0..<8 {
        let last = values[next &+ offset &- 1]
        let jump = values[next &+ offset] &- last
        loud |= (jump == 1 ? 1 : 0) | (_cannotCut(jump: jump, span: last &- first) ? 0 : 1)
      }
      if loud != 0 { break }
      next &+= 8
    }
    return next
  }

  /// Throws unless `numbers` are in range, strictly ascending and may follow
  /// the numbers appended so far. Reports the first offending number.
  func check(contentsOf numbers: UnsafeBufferPointer<Int64>) throws(BlobError) {
    guard let first = numbers.first, let base = numbers.baseAddress else { return }
    try check(first)
    // Ascending order and the upper bound (the lower bound follows from
    // order once `first >= 1`), a block at a time without a branch: the
    // sign bit of `number - previous - 1` is set when a number does not
    // rise (both at least 1), that of `number + 1` when it is Int64.max,
    // the one number above the largest; a block with either is searched.
    var bad = -1
    var start = 1
    while start < numbers.count, bad < 0 {
      let end = min(numbers.count, start &+ 1024)
      var flags: Int64 = 0
      // Each step from the loaded pair, not a carried `previous`: the loop
      // then runs several numbers to an instruction.
      for index in start..<end {
        let number = base[index]
        flags |= (number &- base[index &- 1] &- 1) | (number &+ 1)
      }
      if flags < 0 {
        for index in start..<end where base[index] <= base[index &- 1] || base[index] > BlobLimits.maxNumber {
          bad = index
          break
        }
      }
      start = end
    }
    guard bad >= 0 else { return }
    let number = numbers[bad]
    let before = numbers[bad - 1]
    if number > BlobLimits.maxNumber {
      throw BlobError.numberOutOfRange(section: section, number: number)
    }
    if number == before { throw BlobError.duplicateEntry(section: section, number: number) }
    throw BlobError.outOfOrder(section: section, previous: before, number: number)
  }

  /// Appends a range checked with ``check(_:)-(ClosedRange<Int64>)``.
  func append(_ range: ClosedRange<Int64>, label: UInt32) throws(BlobError) {
    let low = UInt64(range.lowerBound)
    let high = UInt64(range.upperBound)
    let size = high - low + 1
    if runCount > 0 && low == runFirst + runCount && label == runLabel {
      runCount += size
    } else if size >= UInt64(_NumberSectionWriter.runThreshold) {
      if runCount > 0 { try _emitRun() }
      if pending > 0, low == values[pending - 1] + 1, _sameLabel(label) {
        let keep = pending - streak
        let start = values[keep]
        if keep > 0 { try _emitPending(upTo: keep) }
        runFirst = start
        runCount = UInt64(streak) + size
      } else {
        if pending > 0 { try _emitPending(upTo: pending) }
        runFirst = low
        runCount = size
      }
      runLabel = label
      _clearPending()
    } else {
      for value in low...high { try _add(value, label) }
    }
    count += size
    lastAppended = range.upperBound
    _checkInvariants()
  }

  /// Flushes everything; returns the section's count, length and checksum.
  func finish() throws(BlobError) -> (count: UInt64, length: UInt64, checksum: UInt32) {
    if runCount > 0 { try _emitRun() }
    if pending > 0 { try _emitPending(upTo: pending) }
    try _flushFrame()
    frameLength = 0
    _checkInvariants()
    #if DEBUG
      precondition(pending == 0 && runCount == 0 && frameCount == 0, "a finished section holds nothing back")
    #endif
    return (count, length, count == 0 ? CRC32C().value : checksum.value)
  }

  /// Checks, in debug builds, what the writer keeps true between calls
  /// (never what its input is: ``check(_:)-(Int64)`` and
  /// ``check(contentsOf:)`` reject that with a ``BlobError`` before it
  /// gets here): the numbers held back are the last ones appended, above
  /// every number written (which start above 0), strictly ascending at
  /// their end; a pending
  /// block and a run are never held together; the frame fits its buffer.
  /// O(1); the blocks themselves are checked whole as they go out
  /// (``_checkBlock(_:count:)``). Release builds compile none of it.
  @inline(__always)
  func _checkInvariants() {
    #if DEBUG
      precondition(pending <= BlobLimits.maxBlockEntries, "pending block over its capacity: \(pending)")
      precondition(runCount == 0 || pending == 0, "a run and a pending block held together")
      precondition(streak < _NumberSectionWriter.runThreshold, "a streak long enough for a run stayed pending")
      precondition(frameLength <= BlobLimits.maxFramePayload + _BlockEncoder.maxBlockBytes, "frame over its buffer")
      precondition((frameLength == 0) == (frameCount == 0), "frame bytes without entries, or entries without bytes")
      precondition(previous >= frameBase, "the last number written is below its frame's base")
      guard count > 0 else {
        precondition(pending == 0 && runCount == 0 && previous == 0, "numbers held before any was appended")
        return
      }
      precondition(lastAppended >= 1 && lastAppended <= BlobLimits.maxNumber, "last number out of range")
      let last = UInt64(lastAppended)
      if runCount > 0 {
        precondition(runFirst > previous, "a run not above the numbers written")
        precondition(runFirst &+ runCount &- 1 == last, "the run does not end at the last number appended")
      } else if pending > 0 {
        precondition(values[0] > previous, "pending numbers not above those written")
        precondition(values[pending - 1] == last, "the pending block does not end at the last number appended")
        precondition(pending < 2 || values[pending - 2] < values[pending - 1], "pending numbers do not ascend")
      } else {
        precondition(previous == last, "nothing held back, but the last number written is not the last appended")
      }
    #endif
  }

  /// Checks, in debug builds, that a block going out is strictly
  /// ascending and above every number written before it: a section's
  /// numbers are sorted and unique. O(count), like encoding it.
  @inline(__always)
  func _checkBlock(_ values: UnsafePointer<UInt64>, count: Int) {
    #if DEBUG
      precondition(count >= 1 && count <= BlobLimits.maxBlockEntries, "a block of \(count) entries")
      precondition(values[0] > previous, "a block not above the numbers written")
      for index in 1..<count {
        precondition(values[index - 1] < values[index], "a block's numbers do not ascend at \(index)")
      }
    #endif
  }

  private func _sameLabel(_ label: UInt32) -> Bool {
    !hasLabels || (pending > 0 && labels[pending - 1] == label)
  }

  @inline(__always)
  private func _add(_ value: UInt64, _ label: UInt32) throws(BlobError) {
    if runCount > 0 {
      if value == runFirst &+ runCount && label == runLabel {
        runCount &+= 1
        return
      }
      try _emitRun()
    }
    var n = pending
    if n > 0 {
      if n == BlobLimits.maxBlockEntries {
        try _emitPending(upTo: n)
      } else if n >= _NumberSectionWriter.minimumEntriesBeforeCut
        && _gapCuts(value: value, first: values[0], last: values[n &- 1], count: n)
      {
        try _emitPending(upTo: n)
      }
      n = pending
    }
    if n > 0, value == values[n &- 1] &+ 1, !hasLabels || labels[n &- 1] == label {
      streak &+= 1
    } else {
      streak = 1
    }
    values[n] = value
    if hasLabels { labels[n] = label }
    pending = n &+ 1
    if streak >= _NumberSectionWriter.runThreshold {
      let keep = pending &- streak
      let start = values[keep]
      if keep > 0 { try _emitPending(upTo: keep) }
      runFirst = start
      runCount = UInt64(streak)
      runLabel = label
      _clearPending()
    }
  }

  /// Whether `value` jumps more than ``gapCutFactor`` times the average gap
  /// of a pending block of `count` (≥ 2) entries from `first` to `last`:
  /// `(value − last) / 64 > (last − first) / (count − 1)`, evaluated without
  /// division as `(last − first) < ((value − last) / 64) · (count − 1)`
  /// (for integers `q`, `⌊s / k⌋ < q ⇔ s < q · k`).
  @inline(__always)
  private func _gapCuts(value: UInt64, first: UInt64, last: UInt64, count: Int) -> Bool {
    let jump = (value &- last) / _NumberSectionWriter.gapCutFactor
    let (product, overflow) = jump.multipliedReportingOverflow(by: UInt64(count &- 1))
    return overflow || last &- first < product
  }

  /// ``_gapCuts(value:first:last:count:)`` with a cheap test first
  /// (``_cannotCut(jump:span:)``), which settles all but a block's first
  /// few entries without the multiplication.
  @inline(__always)
  private func _bulkGapCuts(value: UInt64, first: UInt64, last: UInt64, count: Int) -> Bool {
    if Self._cannotCut(jump: value &- last, span: last &- first) { return false }
    return _gapCuts(value: value, first: first, last: last, count: count)
  }

  /// Whether a jump of `jump` after a pending block spanning `span` surely
  /// does not cut it: a jump of no more than 64 times a 2048th of the span
  /// cannot cut a block of at most 2048 (``BlobLimits/maxBlockEntries``)
  /// entries.
  @inline(__always)
  private static func _cannotCut(jump: UInt64, span: UInt64) -> Bool {
    jump / _NumberSectionWriter.gapCutFactor <= span >> 11
  }

  private func _clearPending() {
    pending = 0
    streak = 0
  }

  private func _emitRun() throws(BlobError) {
    #if DEBUG
      precondition(runCount >= 1 && runFirst > previous, "an empty run, or one not above the numbers written")
    #endif
    let out = frame + frameLength
    out[0] = _BlockKind.run.rawValue << 6
    var length = 1 &+ Varint.write(runFirst - previous - 1, to: out + 1)
    length &+= Varint.write(runCount - 1, to: out + length)
    if hasLabels { length &+= Varint.write(UInt64(runLabel), to: out + length) }
    let before = previous
    previous = runFirst + runCount - 1
    let entries = runCount
    runCount = 0
    try _addBlock(length: length, entries: entries, after: before)
  }

  /// Encodes `values[0..<end]` as one block; keeps the rest pending.
  private func _emitPending(upTo end: Int) throws(BlobError) {
    if hasLabels {
      _checkBlock(values, count: end)
      block.removeAll(keepingCapacity: true)
      _BlockEncoder.encode(
        values: UnsafeBufferPointer(start: values, count: end),
        labels: UnsafeBufferPointer(start: labels, count: end), previous: previous, into: &block)
      block.withUnsafeBufferPointer { encoded in
        if let source = encoded.baseAddress { (frame + frameLength).update(from: source, count: encoded.count) }
      }
      let before = previous
      previous = values[end - 1]
      try _addBlock(length: block.count, entries: UInt64(end), after: before)
    } else {
      try _emitBlock(UnsafePointer(values), count: end)
    }
    if end == pending {
      _clearPending()
    } else {
      let rest = pending - end
      UnsafeMutableRawPointer(values).copyMemory(
        from: values + end, byteCount: rest * MemoryLayout<UInt64>.stride)
      if hasLabels {
        UnsafeMutableRawPointer(labels).copyMemory(
          from: labels + end, byteCount: rest * MemoryLayout<UInt32>.stride)
      }
      pending = rest
    }
  }

  /// Encodes the unlabelled block `values[0..<count]` after the frame's
  /// blocks.
  private func _emitBlock(_ values: UnsafePointer<UInt64>, count: Int) throws(BlobError) {
    _checkBlock(values, count: count)
    let length = _BlockEncoder.encodeUnlabeled(values, count: count, previous: previous, into: frame + frameLength)
    let before = previous
    previous = values[count &- 1]
    try _addBlock(length: length, entries: UInt64(count), after: before)
  }

  /// Takes the block of `length` bytes just encoded after the frame's
  /// blocks (`entries` numbers, all above `before`, the last number of the
  /// block preceding it); when it does not fit, the frame goes out first
  /// and the block starts the next one.
  private func _addBlock(length: Int, entries: UInt64, after before: UInt64) throws(BlobError) {
    blocksEmitted &+= 1
    if frameLength + length > BlobLimits.maxFramePayload, frameLength > 0 {
      try _flushFrame()
      UnsafeMutableRawPointer(frame).copyMemory(from: frame + frameLength, byteCount: length)
      frameLength = 0
    }
    if frameLength == 0 { frameBase = before }
    frameLength += length
    frameCount += entries
  }

  /// Writes the frame; the block after it (`frame[frameLength...]`), if
  /// any, is left where it is.
  private func _flushFrame() throws(BlobError) {
    guard frameLength > 0 else { return }
    let payload = UnsafeRawBufferPointer(start: frame, count: frameLength)
    let (header, value) = _FrameHeader.serialized(payload: payload, entryCount: frameCount, base: frameBase)
    try sink.write(header)
    try sink.write(payload)
    checksum.update(littleEndian: value)
    length += UInt64(header.count + frameLength)
    frameCount = 0
  }
}

@available(*, unavailable)
extension _NumberSectionWriter: Sendable {}
