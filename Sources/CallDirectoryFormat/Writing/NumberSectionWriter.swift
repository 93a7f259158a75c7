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
/// - blocks fill frames of at most ``BlobLimits/maxFramePayload`` bytes.
final class _NumberSectionWriter {
  static let runThreshold = 64
  static let minimumEntriesBeforeCut = 8
  static let gapCutFactor: UInt64 = 64

  let section: BlobSection
  let hasLabels: Bool
  private let sink: any BlobSink

  private var values = [UInt64]()
  private var labels = [UInt32]()
  private var streak = 0
  private var runFirst: UInt64 = 0
  private var runCount: UInt64 = 0
  private var runLabel: UInt32 = 0
  private var previous: UInt64 = 0
  private var lastAppended: Int64 = 0

  private var frame = [UInt8]()
  private var frameCount: UInt64 = 0
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
    values.reserveCapacity(BlobLimits.maxBlockEntries)
    if hasLabels { labels.reserveCapacity(BlobLimits.maxBlockEntries) }
    frame.reserveCapacity(BlobLimits.maxFramePayload)
  }

  /// Throws unless `number` may follow the numbers appended so far.
  func check(_ number: Int64) throws {
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
  func check(_ range: ClosedRange<Int64>) throws {
    try check(range.lowerBound)
    guard range.upperBound <= BlobLimits.maxNumber else {
      throw BlobError.numberOutOfRange(section: section, number: range.upperBound)
    }
  }

  /// Appends a number checked with ``check(_:)-(Int64)``.
  func append(_ number: Int64, label: UInt32) throws {
    try _add(UInt64(number), label)
    count += 1
    lastAppended = number
  }

  /// Appends a range checked with ``check(_:)-(ClosedRange<Int64>)``.
  func append(_ range: ClosedRange<Int64>, label: UInt32) throws {
    let low = UInt64(range.lowerBound)
    let high = UInt64(range.upperBound)
    let size = high - low + 1
    if runCount > 0 && low == runFirst + runCount && label == runLabel {
      runCount += size
    } else if size >= UInt64(_NumberSectionWriter.runThreshold) {
      if runCount > 0 { try _emitRun() }
      if let last = values.last, low == last + 1, _sameLabel(label) {
        let keep = values.count - streak
        let start = values[keep]
        if keep > 0 { try _emitPending(upTo: keep) }
        runFirst = start
        runCount = UInt64(streak) + size
      } else {
        if !values.isEmpty { try _emitPending(upTo: values.count) }
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
  func finish() throws -> (count: UInt64, length: UInt64, checksum: UInt32) {
    if runCount > 0 { try _emitRun() }
    if !values.isEmpty { try _emitPending(upTo: values.count) }
    try _flushFrame()
    return (count, length, count == 0 ? CRC32C().value : checksum.value)
  }

  private func _sameLabel(_ label: UInt32) -> Bool {
    !hasLabels || labels.last == label
  }

  private func _add(_ value: UInt64, _ label: UInt32) throws {
    if runCount > 0 {
      if value == runFirst + runCount && label == runLabel {
        runCount += 1
        return
      }
      try _emitRun()
    }
    if let first = values.first, let last = values.last {
      if values.count == BlobLimits.maxBlockEntries {
        try _emitPending(upTo: values.count)
      } else if values.count >= _NumberSectionWriter.minimumEntriesBeforeCut {
        let averageGap = (last - first) / UInt64(values.count - 1)
        if (value - last) / _NumberSectionWriter.gapCutFactor > averageGap {
          try _emitPending(upTo: values.count)
        }
      }
    }
    if let last = values.last, value == last + 1, _sameLabel(label) {
      streak += 1
    } else {
      streak = 1
    }
    values.append(value)
    if hasLabels { labels.append(label) }
    if streak >= _NumberSectionWriter.runThreshold {
      let keep = values.count - streak
      let start = values[keep]
      if keep > 0 { try _emitPending(upTo: keep) }
      runFirst = start
      runCount = UInt64(streak)
      runLabel = label
      _clearPending()
    }
  }

  private func _clearPending() {
    values.removeAll(keepingCapacity: true)
    labels.removeAll(keepingCapacity: true)
    streak = 0
  }

  private func _emitRun() throws {
    block.removeAll(keepingCapacity: true)
    block.append(_BlockKind.run.rawValue << 6)
    _Varint.append(runFirst - previous - 1, to: &block)
    _Varint.append(runCount - 1, to: &block)
    if hasLabels { _Varint.append(UInt64(runLabel), to: &block) }
    previous = runFirst + runCount - 1
    let entries = runCount
    runCount = 0
    try _addBlock(entries: entries)
  }

  /// Encodes `values[0..<end]` as one block; keeps the rest pending.
  private func _emitPending(upTo end: Int) throws {
    block.removeAll(keepingCapacity: true)
    values.withUnsafeBufferPointer { valueBuffer in
      let slice = UnsafeBufferPointer(rebasing: valueBuffer[0..<end])
      if hasLabels {
        labels.withUnsafeBufferPointer { labelBuffer in
          _BlockEncoder.encode(
            values: slice, labels: UnsafeBufferPointer(rebasing: labelBuffer[0..<end]),
            previous: previous, into: &block)
        }
      } else {
        _BlockEncoder.encode(values: slice, labels: nil, previous: previous, into: &block)
      }
    }
    previous = values[end - 1]
    if end == values.count {
      _clearPending()
    } else {
      values.removeFirst(end)
      if hasLabels { labels.removeFirst(end) }
    }
    try _addBlock(entries: UInt64(end))
  }

  private func _addBlock(entries: UInt64) throws {
    if frame.count + block.count > BlobLimits.maxFramePayload { try _flushFrame() }
    frame.append(contentsOf: block)
    frameCount += entries
  }

  private func _flushFrame() throws {
    guard !frame.isEmpty else { return }
    var head = [UInt8]()
    head.reserveCapacity(16)
    _appendLE(UInt32(frame.count), to: &head)
    _appendLE(frameCount, to: &head)
    var crc = CRC32C()
    head.withUnsafeBytes { crc.update($0) }
    frame.withUnsafeBytes { crc.update($0) }
    let value = crc.value
    var header = [UInt8]()
    header.reserveCapacity(16)
    _appendLE(value, to: &header)
    header.append(contentsOf: head)
    try header.withUnsafeBytes { try sink.write($0) }
    try frame.withUnsafeBytes { try sink.write($0) }
    checksum.update(littleEndian: value)
    length += UInt64(16 + frame.count)
    frame.removeAll(keepingCapacity: true)
    frameCount = 0
  }
}

@available(*, unavailable)
extension _NumberSectionWriter: Sendable {}
