/// Streams the numbers of one stretch of a number section: those above
/// `lowerBound` and at most `upperBound`, from the frames that may hold
/// them (found in the section's ``_FrameIndex``).
///
/// Every frame it reads is decoded completely and checked as a sequential
/// read checks it: the header against the index (payload length, count,
/// base and stored CRC, so the section checksum the index verified covers
/// it), the frame's CRC before any block, every block through
/// `_FrameDecoder` starting from the frame's base, the blocks' count, and
/// the frame's last number against the next frame's base. Numbers outside
/// the stretch are decoded and checked, then dropped. Stretches that tile
/// the number line therefore check every frame of the section at least
/// once between them. The first error is sticky.
///
/// One `pread` per frame into a fixed buffer; whole blocks are decoded
/// straight into the caller's buffer, never staged.
final class _StretchCursor {
  /// One piece of the stretch.
  enum Chunk {
    /// `first ... last`, all in the stretch; nothing was written.
    case run(first: UInt64, last: UInt64)
    /// `count` ascending numbers were written to the buffer.
    case values(count: Int)
    /// Nothing is left.
    case end
  }

  private static let padding = 32
  private let source: _ByteSource
  private let index: _FrameIndex
  private let lowerBound: UInt64
  private let upperBound: UInt64
  private let labelLimit: UInt64
  private let statistics: _DecodeStatistics?
  private let frameBuffer: UnsafeMutableRawPointer
  /// Room for the largest frame of the stretch.
  private let frameCapacity: Int
  private let staging = _BlockBuffer()
  /// The next frame to read, and the frame after the stretch's last one.
  private var nextFrame: Int
  private let endFrame: Int
  /// The frame being decoded (an empty placeholder before the first).
  private var frame: _FrameDecoder
  private var failure: BlobError?

  /// Prepares to stream the numbers `n` of `index`'s section with
  /// `lowerBound < n <= upperBound`.
  /// - Parameter labelLimit: The label dictionary's size (labelled
  ///   sections check their label ids against it; their labels are not
  ///   returned).
  init(
    source: _ByteSource, index: _FrameIndex, above lowerBound: UInt64, through upperBound: UInt64,
    labelLimit: UInt64, statistics: _DecodeStatistics?
  ) {
    self.source = source
    self.index = index
    self.lowerBound = lowerBound
    self.upperBound = upperBound
    self.labelLimit = labelLimit
    self.statistics = statistics
    if lowerBound < upperBound, let last = index.frame(containing: upperBound) {
      nextFrame = index.frame(containing: lowerBound &+ 1) ?? 0
      endFrame = last + 1
    } else {
      nextFrame = 0
      endFrame = 0
    }
    let largest = index.frames[nextFrame..<endFrame].reduce(0) { max($0, $1.payloadLength) }
    frameCapacity = _FrameHeader.maxSize + min(largest, BlobLimits.maxFramePayload)
    frameBuffer = .allocate(byteCount: frameCapacity + _StretchCursor.padding, alignment: 16)
    frameBuffer.initializeMemory(as: UInt8.self, repeating: 0, count: frameCapacity + _StretchCursor.padding)
    frame = _FrameDecoder(emptyAt: frameBuffer, section: index.info.section)
  }

  deinit {
    frameBuffer.deallocate()
  }

  /// The next run of the stretch, or whole blocks' numbers written to
  /// `numbers` while at least ``BlobLimits/maxBlockEntries`` of its
  /// `capacity` are free (stopping before a run), or the end.
  /// - Precondition: `capacity >= BlobLimits.maxBlockEntries`.
  func nextChunk(numbers: UnsafeMutablePointer<Int64>, capacity: Int) throws(BlobError) -> Chunk {
    if let failure { throw failure }
    do {
      let chunk = try _fill(numbers, capacity)
      if case .values(let count) = chunk { statistics?.counted &+= UInt64(count) }
      return chunk
    } catch {
      failure = error
      throw error
    }
  }

  private func _fill(_ numbers: UnsafeMutablePointer<Int64>, _ capacity: Int) throws(BlobError) -> Chunk {
    if let run = pendingRun {
      pendingRun = nil
      return .run(first: run.first, last: run.last)
    }
    var filled = 0
    while capacity - filled >= BlobLimits.maxBlockEntries {
      guard frame.hasMoreBlocks else {
        if hasFrame {
          try _finishFrame()
          hasFrame = false
        }
        guard nextFrame < endFrame else { break }
        try _loadFrame()
        continue
      }
      let block = try frame.nextBlock(
        into: numbers + filled, labels: nil, room: capacity - filled, staging: staging)
      switch block {
      case .run(let first, let count, _):
        let low = max(first, lowerBound &+ 1)
        let high = min(first &+ (count &- 1), upperBound)
        guard low <= high else { continue }
        guard filled == 0 else {
          // Values already written go first; the run comes next time.
          pendingRun = (low, high)
          return .values(count: filled)
        }
        return .run(first: low, last: high)
      case .values(let count):
        filled += _clip(numbers + filled, count)
      case .staged(let count):
        // Not reached (`room` holds any block), but kept exact.
        (numbers + filled).update(from: staging.numbers, count: count)
        filled += _clip(numbers + filled, count)
      }
    }
    return filled > 0 ? .values(count: filled) : .end
  }

  /// A run found after values were written, returned by the next call.
  private var pendingRun: (first: UInt64, last: UInt64)?
  /// Whether `frame` is a frame read from the section (not the placeholder).
  private var hasFrame = false

  /// Keeps the numbers of `count` just written at `start` that lie in the
  /// stretch, moved to `start`; returns how many.
  private func _clip(_ start: UnsafeMutablePointer<Int64>, _ count: Int) -> Int {
    let low = Int64(bitPattern: lowerBound)
    let high = Int64(bitPattern: upperBound)
    if start[0] > low && start[count - 1] <= high { return count }
    var from = 0
    while from < count && start[from] <= low { from += 1 }
    var to = count
    while to > from && start[to - 1] > high { to -= 1 }
    if from > 0 {
      // Moving down, front to back: the overlap is read before it is written.
      for i in 0..<(to - from) { start[i] = start[from + i] }
    }
    return to - from
  }

  /// Checks that the frame just decoded held its count and ends at the
  /// next frame's base.
  private func _finishFrame() throws(BlobError) {
    try frame.finish()
    let decoded = nextFrame - 1
    if decoded + 1 < index.frames.count {
      let next = index.frames[decoded + 1].base
      guard frame.last == next else {
        throw BlobError.corrupt(
          "\(index.info.section) section: frame ends at \(frame.last), the next frame's base is \(next)")
      }
    }
  }

  private func _loadFrame() throws(BlobError) {
    let position = nextFrame
    let location = index.frames[position]
    let section = index.info.section
    let headerSize = _FrameHeader.size(formatVersion: index.formatVersion)
    let size = headerSize + location.payloadLength
    guard size <= frameCapacity else { throw BlobError.corrupt("\(section) section: frame too large") }
    let got = try source.read(
      at: location.offset, into: UnsafeMutableRawBufferPointer(start: frameBuffer, count: size))
    guard got == size else { throw BlobError.truncated(section: section) }
    // Keep the bytes after the frame deterministic for the decoders' masked loads.
    (frameBuffer + size).initializeMemory(as: UInt8.self, repeating: 0, count: _StretchCursor.padding)
    let bytes = UnsafeRawBufferPointer(start: frameBuffer, count: size)
    let header = try _FrameHeader.parse(bytes, formatVersion: index.formatVersion, section: section)
    guard header.payloadLength == location.payloadLength, header.entryCount == location.entryCount,
      header.storedChecksum == location.checksum, (header.base ?? location.base) == location.base
    else { throw BlobError.corrupt("\(section) section: frame at \(location.offset) differs from its index entry") }
    try header.verifyChecksum(bytes, section: section)
    frame = _FrameDecoder(
      payload: frameBuffer + headerSize, header: header, base: location.base, section: section,
      labelLimit: labelLimit)
    nextFrame = position + 1
    hasFrame = true
  }
}

@available(*, unavailable)
extension _StretchCursor: Sendable {}
