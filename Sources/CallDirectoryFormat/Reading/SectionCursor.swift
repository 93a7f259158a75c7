/// Streams the entries of one number section in constant memory.
///
/// Reads the section in chunks into a fixed buffer, checks each frame's
/// CRC-32C before decoding any of it (and, in format version 2, that the
/// frame's base is the last number before it), decodes block by block with
/// `_FrameDecoder` (straight into the caller's buffer when a whole block
/// fits, otherwise through a small staging area), and at the end checks the
/// entry count and the section checksum. The first error is sticky: later
/// calls throw it again.
final class _SectionCursor {
  let info: BlobSectionInfo
  private let source: _ByteSource
  private let labelLimit: UInt64
  private let formatVersion: UInt16

  private static let padding = 32
  private let capacity = 4 * (BlobLimits.maxFramePayload + _FrameHeader.maxSize)
  private let buffer: UnsafeMutableRawPointer
  private var bufferStart = 0
  private var bufferEnd = 0
  private var readOffset: UInt64
  private let sectionEnd: UInt64
  private var checksum = CRC32C()
  private var unframedEntries: UInt64

  /// The frame being decoded (an empty placeholder before the first).
  private var frame: _FrameDecoder

  private let staging = _BlockBuffer()
  private var stagedPosition = 0
  private var stagedCount = 0
  private var runNext: UInt64 = 0
  private var runLeft: UInt64 = 0
  private var runLabel: UInt32 = 0

  private var finished = false
  private var failure: BlobError?

  /// Entries returned so far.
  private(set) var delivered: UInt64 = 0
  #if DEBUG
    /// The last number returned (0 before the first), for
    /// ``_checkInvariants(_:_:)``.
    private var lastDelivered: UInt64 = 0
  #endif
  /// Where each frame read so far lies and what it holds, if the cursor was
  /// asked to record them (`nil` otherwise).
  private(set) var recordedFrames: [_FrameLocation]?
  /// Where the entries written to buffers are counted, if anywhere.
  private let statistics: _DecodeStatistics?

  /// Prepares to stream `info`'s section.
  /// - Parameters:
  ///   - formatVersion: The blob's format version, which decides the frame
  ///     header layout.
  ///   - recordingFrames: Whether to collect ``recordedFrames``.
  ///   - statistics: Where to count the entries written to buffers.
  init(
    source: _ByteSource, info: BlobSectionInfo, labelCount: UInt64, formatVersion: UInt16,
    recordingFrames: Bool = false, statistics: _DecodeStatistics? = nil
  ) {
    self.statistics = statistics
    self.source = source
    self.info = info
    self.labelLimit = labelCount
    self.formatVersion = formatVersion
    self.readOffset = info.offset
    self.sectionEnd = info.offset + info.length
    self.unframedEntries = info.entryCount
    self.recordedFrames = recordingFrames ? [] : nil
    buffer = UnsafeMutableRawPointer.allocate(
      byteCount: capacity + _SectionCursor.padding, alignment: 16)
    buffer.initializeMemory(as: UInt8.self, repeating: 0, count: capacity + _SectionCursor.padding)
    frame = _FrameDecoder(emptyAt: buffer, section: info.section)
  }

  deinit {
    buffer.deallocate()
  }

  /// One piece of the section, as ``nextChunk(numbers:labels:capacity:)``
  /// returns it.
  enum Chunk {
    /// `first ... first + count - 1`, every entry with `label` (0 in
    /// unlabelled sections); nothing was written to the buffers.
    case run(first: UInt64, count: UInt64, label: UInt32)
    /// `count` entries were written to the buffers.
    case values(count: Int)
    /// The section is done (and its count and checksum checked).
    case end
  }

  /// Fills up to `capacity` entries, expanding run blocks; returns how
  /// many (0 at the end).
  func next(
    numbers: UnsafeMutablePointer<Int64>, labels: UnsafeMutablePointer<UInt32>?, capacity: Int
  ) throws(BlobError) -> Int {
    switch try _guardedFill(numbers, labels, capacity, expandingRuns: true) {
    case .values(let count): return count
    case .run, .end: return 0
    }
  }

  /// The next run block whole, or up to `capacity` entries of other
  /// blocks written to the buffers (stopping before a run block), or the
  /// end. A run costs O(1) however many numbers it holds.
  func nextChunk(
    numbers: UnsafeMutablePointer<Int64>, labels: UnsafeMutablePointer<UInt32>?, capacity: Int
  ) throws(BlobError) -> Chunk {
    try _guardedFill(numbers, labels, capacity, expandingRuns: false)
  }

  /// Runs `_fill`, counting what it delivers and making its first error sticky.
  private func _guardedFill(
    _ numbers: UnsafeMutablePointer<Int64>, _ labels: UnsafeMutablePointer<UInt32>?, _ capacity: Int,
    expandingRuns: Bool
  ) throws(BlobError) -> Chunk {
    if let failure { throw failure }
    do {
      let chunk = try _fill(numbers, labels, capacity, expandingRuns: expandingRuns)
      _checkInvariants(chunk, numbers)
      switch chunk {
      case .run(_, let count, _):
        delivered &+= count
      case .values(let count):
        delivered &+= UInt64(count)
        statistics?.counted &+= UInt64(count)
      case .end:
        break
      }
      return chunk
    } catch {
      failure = error
      throw error
    }
  }

  /// Checks, in debug builds, that what the cursor returns is what it
  /// promises whatever the blob holds (the decoder rejects with a
  /// ``BlobError`` any block that would break it): a section's numbers
  /// strictly ascending across calls, each in `1...BlobLimits.maxNumber`.
  /// O(count), like decoding them. Release builds compile none of it.
  @inline(__always)
  private func _checkInvariants(_ chunk: Chunk, _ numbers: UnsafeMutablePointer<Int64>) {
    #if DEBUG
      let maxNumber = UInt64(BlobLimits.maxNumber)
      switch chunk {
      case .run(let first, let count, _):
        precondition(count >= 1 && first > lastDelivered, "a run not above the numbers returned")
        precondition(count - 1 <= maxNumber - first, "a run beyond the largest number")
        lastDelivered = first + count - 1
      case .values(let count):
        for index in 0..<count {
          let number = UInt64(bitPattern: numbers[index])
          precondition(number > lastDelivered && number <= maxNumber, "numbers returned out of order or range")
          lastDelivered = number
        }
      case .end:
        break
      }
    #endif
  }

  private func _corrupt(_ message: String) -> BlobError {
    BlobError.corrupt("\(info.section) section: \(message)")
  }

  private func _fill(
    _ numbers: UnsafeMutablePointer<Int64>, _ labels: UnsafeMutablePointer<UInt32>?, _ capacity: Int,
    expandingRuns: Bool
  ) throws(BlobError) -> Chunk {
    var filled = 0
    while filled < capacity {
      if stagedPosition < stagedCount {
        let take = min(capacity - filled, stagedCount - stagedPosition)
        (numbers + filled).update(from: staging.numbers + stagedPosition, count: take)
        if let labels { (labels + filled).update(from: staging.labels + stagedPosition, count: take) }
        stagedPosition += take
        filled += take
        continue
      }
      if runLeft > 0 {
        if !expandingRuns {
          // Values already written go first; the run comes whole next time.
          if filled > 0 { break }
          let run = Chunk.run(first: runNext, count: runLeft, label: runLabel)
          runNext &+= runLeft
          runLeft = 0
          return run
        }
        let take = Int(min(UInt64(capacity - filled), runLeft))
        let out = numbers + filled
        let start = runNext
        for j in 0..<take { out[j] = Int64(bitPattern: start &+ UInt64(j)) }
        if let labels { (labels + filled).update(repeating: runLabel, count: take) }
        runNext &+= UInt64(take)
        runLeft &-= UInt64(take)
        filled += take
        continue
      }
      if frame.hasMoreBlocks {
        let block = try frame.nextBlock(
          into: numbers + filled, labels: labels.map { $0 + filled }, room: capacity - filled,
          staging: staging)
        switch block {
        case .run(let first, let count, let label):
          runNext = first
          runLeft = count
          runLabel = label
        case .values(let count):
          filled += count
        case .staged(let count):
          stagedPosition = 0
          stagedCount = count
        }
        continue
      }
      if finished { break }
      try frame.finish()
      if bufferStart == bufferEnd && readOffset == sectionEnd {
        guard unframedEntries == 0 else {
          throw _corrupt("frames hold fewer entries than the header records")
        }
        guard checksum.value == info.checksum else {
          throw BlobError.checksumMismatch(section: info.section)
        }
        finished = true
        break
      }
      try _loadFrame()
    }
    return filled > 0 ? .values(count: filled) : .end
  }

  private func _loadFrame() throws(BlobError) {
    let headerSize = _FrameHeader.size(formatVersion: formatVersion)
    try _ensure(headerSize)
    let header = try _FrameHeader.parse(
      UnsafeRawBufferPointer(start: buffer + bufferStart, count: bufferEnd - bufferStart),
      formatVersion: formatVersion, section: info.section)
    guard header.entryCount <= unframedEntries else {
      throw _corrupt("frame declares \(header.entryCount) entries, \(unframedEntries) remain")
    }
    try _ensure(headerSize + header.payloadLength)
    let start = UnsafeRawPointer(buffer + bufferStart)
    try header.verifyChecksum(
      UnsafeRawBufferPointer(start: start, count: bufferEnd - bufferStart), section: info.section)
    let previous = frame.last
    if let base = header.base, base != previous {
      throw _corrupt("frame base \(base) is not the last number before the frame, \(previous)")
    }
    let frameOffset = readOffset - UInt64(bufferEnd - bufferStart)
    recordedFrames?.append(_FrameLocation(
      offset: frameOffset, payloadLength: header.payloadLength, entryCount: header.entryCount,
      base: previous, checksum: header.storedChecksum))
    checksum.update(littleEndian: header.storedChecksum)
    frame = _FrameDecoder(
      payload: start + headerSize, header: header, base: previous, section: info.section,
      labelLimit: labelLimit)
    unframedEntries -= header.entryCount
    bufferStart += headerSize + header.payloadLength
  }

  private func _ensure(_ needed: Int) throws(BlobError) {
    if bufferEnd - bufferStart >= needed { return }
    if bufferStart > 0 {
      let kept = bufferEnd - bufferStart
      if kept > 0 { buffer.copyMemory(from: buffer + bufferStart, byteCount: kept) }
      bufferEnd = kept
      bufferStart = 0
    }
    while bufferEnd < needed {
      let sectionLeft = sectionEnd - readOffset
      guard sectionLeft > 0 else { throw _corrupt("a frame runs past the end of the section") }
      let want = Int(min(UInt64(capacity - bufferEnd), sectionLeft))
      let got = try source.read(
        at: readOffset, into: UnsafeMutableRawBufferPointer(start: buffer + bufferEnd, count: want))
      guard got > 0 else { throw BlobError.truncated(section: info.section) }
      bufferEnd += got
      readOffset += UInt64(got)
    }
    // Keep the bytes after the valid data deterministic for masked loads.
    (buffer + bufferEnd).initializeMemory(as: UInt8.self, repeating: 0, count: min(16, capacity + _SectionCursor.padding - bufferEnd))
  }
}

@available(*, unavailable)
extension _SectionCursor: Sendable {}
