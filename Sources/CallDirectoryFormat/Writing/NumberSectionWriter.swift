import CalldirSystem

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

  private var frame = [UInt8]()
  private var frameCount: UInt64 = 0
  /// The last number before the current frame's first block (0 for the first frame).
  private var frameBase: UInt64 = 0
  private var block = [UInt8]()
  private var checksum = CRC32C()

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
    frame.reserveCapacity(BlobLimits.maxFramePayload)
  }

  deinit {
    values.deallocate()
    labels.deallocate()
  }

  /// Throws unless `number` may follow the numbers appended so far.
  func check(_ number: Int64) throws(BlobError) {
    guard number >= 1 && number <= BlobLimits.maxNumber else {
      throw BlobError.numberOutOfRange(section: section, number: number)
    }
    if count > 0 {
      if number == lastAppended { throw BlobError.duplicateEntry(section: section, number: number) }
      if number < lastAppended {
        throw BlobError.outOfOrder(section: section, previous: lastAppended, number: number)
      }
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
  }

  /// Appends numbers checked with ``check(contentsOf:)`` (unlabelled
  /// sections). Produces the same bytes as appending them one by one.
  func append(contentsOf numbers: UnsafeBufferPointer<Int64>) throws(BlobError) {
    guard let last = numbers.last else { return }
    for number in numbers { try _add(UInt64(bitPattern: number), 0) }
    count += UInt64(numbers.count)
    lastAppended = last
  }

  /// Throws unless `numbers` are in range, strictly ascending and may follow
  /// the numbers appended so far. Reports the first offending number.
  func check(contentsOf numbers: UnsafeBufferPointer<Int64>) throws(BlobError) {
    guard let first = numbers.first else { return }
    try check(first)
    var previous = first
    var bad = -1
    for index in 1..<numbers.count {
      let number = numbers[index]
      // Ascending order and the upper bound; the lower bound follows from
      // order once `first >= 1`.
      if number <= previous || number > BlobLimits.maxNumber {
        bad = index
        break
      }
      previous = number
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
  }

  /// Flushes everything; returns the section's count, length and checksum.
  func finish() throws(BlobError) -> (count: UInt64, length: UInt64, checksum: UInt32) {
    if runCount > 0 { try _emitRun() }
    if pending > 0 { try _emitPending(upTo: pending) }
    try _flushFrame()
    return (count, length, count == 0 ? CRC32C().value : checksum.value)
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

  private func _clearPending() {
    pending = 0
    streak = 0
  }

  private func _emitRun() throws(BlobError) {
    block.removeAll(keepingCapacity: true)
    block.append(_BlockKind.run.rawValue << 6)
    Varint.append(runFirst - previous - 1, to: &block)
    Varint.append(runCount - 1, to: &block)
    if hasLabels { Varint.append(UInt64(runLabel), to: &block) }
    let before = previous
    previous = runFirst + runCount - 1
    let entries = runCount
    runCount = 0
    try _addBlock(entries: entries, after: before)
  }

  /// Encodes `values[0..<end]` as one block; keeps the rest pending.
  private func _emitPending(upTo end: Int) throws(BlobError) {
    block.removeAll(keepingCapacity: true)
    let slice = UnsafeBufferPointer(start: values, count: end)
    _BlockEncoder.encode(
      values: slice, labels: hasLabels ? UnsafeBufferPointer(start: labels, count: end) : nil,
      previous: previous, into: &block)
    let before = previous
    previous = values[end - 1]
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
    try _addBlock(entries: UInt64(end), after: before)
  }

  /// Appends the encoded `block` of `entries` numbers, all above `before`
  /// (the last number of the block preceding it), starting a new frame when
  /// the current one is full.
  private func _addBlock(entries: UInt64, after before: UInt64) throws(BlobError) {
    if frame.count + block.count > BlobLimits.maxFramePayload { try _flushFrame() }
    if frame.isEmpty { frameBase = before }
    frame.append(contentsOf: block)
    frameCount += entries
  }

  private func _flushFrame() throws(BlobError) {
    guard !frame.isEmpty else { return }
    let (header, value) = frame.withUnsafeBytes {
      _FrameHeader.serialized(payload: $0, entryCount: frameCount, base: frameBase)
    }
    try sink.write(header)
    try sink.write(frame)
    checksum.update(littleEndian: value)
    length += UInt64(header.count + frame.count)
    frame.removeAll(keepingCapacity: true)
    frameCount = 0
  }
}

@available(*, unavailable)
extension _NumberSectionWriter: Sendable {}
