/// Streams the entries of one number section in constant memory.
///
/// Reads the section in chunks into a fixed buffer, checks each frame's
/// CRC-32C before decoding any of it, decodes block by block (straight into
/// the caller's buffer when a whole block fits, otherwise through a small
/// staging area), and at the end checks the entry count and the section
/// checksum. The first error is sticky: later calls throw it again.
final class _SectionCursor {
  let info: BlobSectionInfo
  let hasLabels: Bool
  private let source: _ByteSource
  private let labelLimit: UInt64

  private static let padding = 32
  private let capacity = 4 * (BlobLimits.maxFramePayload + 16)
  private let buffer: UnsafeMutableRawPointer
  private var bufferStart = 0
  private var bufferEnd = 0
  private var readOffset: UInt64
  private let sectionEnd: UInt64
  private var checksum = CRC32C()
  private var unframedEntries: UInt64

  private var payload: UnsafeRawPointer?
  private var payloadPosition = 0
  private var payloadEnd = 0
  private var frameEntriesLeft: UInt64 = 0
  private var previous: UInt64 = 0

  private let staged: UnsafeMutablePointer<Int64>
  private let stagedLabels: UnsafeMutablePointer<UInt32>
  private var stagedPosition = 0
  private var stagedCount = 0
  private var runNext: UInt64 = 0
  private var runLeft: UInt64 = 0
  private var runLabel: UInt32 = 0

  private var finished = false
  private var failure: BlobError?

  /// Entries returned so far.
  private(set) var delivered: UInt64 = 0

  init(source: _ByteSource, info: BlobSectionInfo, labelCount: UInt64) {
    self.source = source
    self.info = info
    self.hasLabels = info.section.carriesLabels
    self.labelLimit = labelCount
    self.readOffset = info.offset
    self.sectionEnd = info.offset + info.length
    self.unframedEntries = info.entryCount
    buffer = UnsafeMutableRawPointer.allocate(
      byteCount: capacity + _SectionCursor.padding, alignment: 16)
    buffer.initializeMemory(as: UInt8.self, repeating: 0, count: capacity + _SectionCursor.padding)
    staged = UnsafeMutablePointer<Int64>.allocate(capacity: BlobLimits.maxBlockEntries)
    stagedLabels = UnsafeMutablePointer<UInt32>.allocate(capacity: BlobLimits.maxBlockEntries)
  }

  deinit {
    buffer.deallocate()
    staged.deallocate()
    stagedLabels.deallocate()
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
        (numbers + filled).update(from: staged + stagedPosition, count: take)
        if let labels { (labels + filled).update(from: stagedLabels + stagedPosition, count: take) }
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
      if payloadPosition < payloadEnd {
        filled += try _decodeBlock(
          numbers + filled, labels.map { $0 + filled }, room: capacity - filled)
        continue
      }
      if finished { break }
      guard frameEntriesLeft == 0 else {
        throw _corrupt("a frame's blocks hold fewer entries than the frame declares")
      }
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
    try _ensure(16)
    var frame = UnsafeRawPointer(buffer + bufferStart)
    let stored = UInt32(littleEndian: frame.loadUnaligned(as: UInt32.self))
    let length = Int(UInt32(littleEndian: frame.loadUnaligned(fromByteOffset: 4, as: UInt32.self)))
    let count = UInt64(littleEndian: frame.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
    guard length >= 1 && length <= BlobLimits.maxFramePayload else {
      throw _corrupt("frame payload length \(length) is outside 1...\(BlobLimits.maxFramePayload)")
    }
    guard count >= 1 && count <= unframedEntries else {
      throw _corrupt("frame declares \(count) entries, \(unframedEntries) remain")
    }
    try _ensure(16 + length)
    frame = UnsafeRawPointer(buffer + bufferStart)
    let computed = CRC32C.checksum(UnsafeRawBufferPointer(start: frame + 4, count: 12 + length))
    guard computed == stored else { throw BlobError.checksumMismatch(section: info.section) }
    checksum.update(littleEndian: stored)
    payload = frame + 16
    payloadPosition = 0
    payloadEnd = length
    frameEntriesLeft = count
    unframedEntries -= count
    bufferStart += 16 + length
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

  /// Parses one block at the payload cursor; returns entries written to `numbers`.
  private func _decodeBlock(
    _ numbers: UnsafeMutablePointer<Int64>, _ labels: UnsafeMutablePointer<UInt32>?, room: Int
  ) throws -> Int {
    guard let payload else { throw _corrupt("no frame loaded") }
    var cursor = _ByteCursor(base: payload, position: payloadPosition, end: payloadEnd)
    guard let tag = cursor.readByte(), let gap = cursor.readVarint(),
      let countMinusOne = cursor.readVarint()
    else { throw _corrupt("block header runs past the end of its frame") }
    guard let kind = _BlockKind(rawValue: tag >> 6) else {
      throw _corrupt("unknown block kind \(tag >> 6)")
    }
    let l = Int(tag & 0x3F)
    guard countMinusOne < frameEntriesLeft else {
      throw _corrupt("block of \(countMinusOne &+ 1) entries exceeds its frame's count")
    }
    let count = countMinusOne + 1
    let maxNumber = UInt64(BlobLimits.maxNumber)
    guard previous < maxNumber, gap <= maxNumber - previous - 1 else {
      throw _corrupt("block starts beyond \(maxNumber)")
    }
    let first = previous + 1 + gap

    if kind == .run {
      guard l == 0 else { throw _corrupt("run block with nonzero width bits") }
      guard countMinusOne <= maxNumber - first else { throw _corrupt("run ends beyond \(maxNumber)") }
      var label: UInt32 = 0
      if hasLabels {
        guard let id = cursor.readVarint() else { throw _corrupt("run label runs past its frame") }
        guard id < labelLimit else { throw _corrupt("label id \(id) is not below \(labelLimit)") }
        label = UInt32(id)
      }
      payloadPosition = cursor.position
      frameEntriesLeft -= count
      previous = first + countMinusOne
      runNext = first
      runLeft = count
      runLabel = label
      return 0
    }

    guard count >= 2 && count <= UInt64(BlobLimits.maxBlockEntries) else {
      throw _corrupt("\(kind) block of \(count) entries")
    }
    let n = Int(count)
    let direct = room >= n
    let target = direct ? numbers : staged
    let last: UInt64
    switch kind {
    case .bitmap:
      guard l == 0 else { throw _corrupt("bitmap block with nonzero width bits") }
      guard let extra = cursor.readVarint() else { throw _corrupt("bitmap header runs past its frame") }
      guard extra <= UInt64(BlobLimits.maxBitmapSpan) - count else {
        throw _corrupt("bitmap span exceeds \(BlobLimits.maxBitmapSpan)")
      }
      let span = Int(count + extra)
      let bytes = (span + 7) / 8
      guard bytes <= cursor.remaining else { throw _corrupt("bitmap runs past its frame") }
      guard UInt64(span - 1) <= maxNumber - first else { throw _corrupt("bitmap ends beyond \(maxNumber)") }
      guard _BlockDecoder.bitmap(
        payload + cursor.position, span: span, count: n, first: first, into: target)
      else { throw _corrupt("invalid bitmap block") }
      cursor.position += bytes
      last = first + UInt64(span - 1)
    case .eliasFano:
      guard l <= 62 else { throw _corrupt("elias-fano low width \(l) exceeds 62") }
      guard let upper = cursor.readVarint() else { throw _corrupt("elias-fano header runs past its frame") }
      let m = countMinusOne
      guard upper <= maxNumber - first, m <= maxNumber - first - upper else {
        throw _corrupt("elias-fano block ends beyond \(maxNumber)")
      }
      let highBits = (upper >> UInt64(l)) + m
      let bits = m * UInt64(l) + highBits
      guard highBits <= UInt64(8 * BlobLimits.maxFramePayload), (bits + 7) / 8 <= UInt64(cursor.remaining) else {
        throw _corrupt("elias-fano block runs past its frame")
      }
      guard _BlockDecoder.eliasFano(
        payload + cursor.position, m: Int(m), l: l, upper: upper, first: first, into: target)
      else { throw _corrupt("invalid elias-fano block") }
      cursor.position += Int((bits + 7) / 8)
      last = first + m + upper
    case .run:
      last = 0
    }

    if hasLabels {
      let labelTarget = direct ? (labels ?? stagedLabels) : stagedLabels
      guard let minimum = cursor.readVarint(), let width = cursor.readByte() else {
        throw _corrupt("label header runs past its frame")
      }
      guard width <= 32 else { throw _corrupt("label width \(width) exceeds 32") }
      let bytes = (n * Int(width) + 7) / 8
      guard bytes <= cursor.remaining else { throw _corrupt("labels run past their frame") }
      guard _BlockDecoder.labels(
        payload + cursor.position, count: n, width: Int(width), minimum: minimum,
        limit: labelLimit, into: labelTarget)
      else { throw _corrupt("label id is not below \(labelLimit)") }
      cursor.position += bytes
    }

    payloadPosition = cursor.position
    frameEntriesLeft -= count
    previous = last
    if direct { return n }
    stagedPosition = 0
    stagedCount = n
    return 0
  }
}

@available(*, unavailable)
extension _SectionCursor: Sendable {}
