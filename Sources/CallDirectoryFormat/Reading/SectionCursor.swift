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
  /// Where each frame read so far lies and what it holds, if the cursor was
  /// asked to record them (`nil` otherwise).
  private(set) var recordedFrames: [_FrameLocation]?

  /// Prepares to stream `info`'s section.
  /// - Parameters:
  ///   - formatVersion: The blob's format version, which decides the frame
  ///     header layout.
  ///   - recordingFrames: Whether to collect ``recordedFrames``.
  init(
    source: _ByteSource, info: BlobSectionInfo, labelCount: UInt64, formatVersion: UInt16,
    recordingFrames: Bool = false
  ) {
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

  /// Fills up to `capacity` entries; returns how many (0 at the end).
  func next(
    numbers: UnsafeMutablePointer<Int64>, labels: UnsafeMutablePointer<UInt32>?, capacity: Int
  ) throws -> Int {
    if let failure { throw failure }
    do {
      let count = try _fill(numbers, labels, capacity)
      delivered &+= UInt64(count)
      return count
    } catch let error as BlobError {
      failure = error
      throw error
    }
  }

  private func _corrupt(_ message: String) -> BlobError {
    BlobError.corrupt("\(info.section) section: \(message)")
  }

  private func _fill(
    _ numbers: UnsafeMutablePointer<Int64>, _ labels: UnsafeMutablePointer<UInt32>?, _ capacity: Int
  ) throws -> Int {
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
    return filled
  }

  private func _loadFrame() throws {
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
      base: previous))
    checksum.update(littleEndian: header.storedChecksum)
    frame = _FrameDecoder(
      payload: start + headerSize, header: header, base: previous, section: info.section,
      labelLimit: labelLimit)
    unframedEntries -= header.entryCount
    bufferStart += headerSize + header.payloadLength
  }

  private func _ensure(_ needed: Int) throws {
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
