/// Decodes the blocks of one frame's payload, one block per call, checking
/// each completely: block header fields, the numbers' range, bitmap and
/// Elias–Fano structure (through `_BlockDecoder`), label ids, and the
/// entries against the frame's declared count.
///
/// The one decoder of frame payloads: the sequential `_SectionCursor` and the
/// random-access `_FrameReader` both use it, so a frame is validated the same
/// way whichever path reads it. The caller has checked the frame's CRC and
/// keeps at least 16 readable bytes after the payload (see `_BlockDecoder`).
struct _FrameDecoder {
  /// One decoded block.
  enum Block {
    /// `first ... first + count - 1`, every entry with `label` (0 in
    /// unlabelled sections). Nothing was written.
    case run(first: UInt64, count: UInt64, label: UInt32)
    /// `count` numbers (and label ids) were written to the output buffers.
    case values(count: Int)
    /// `count` numbers (and label ids) were written to the staging buffer,
    /// because the output had less room than the block holds.
    case staged(count: Int)
  }

  let section: BlobSection
  private let hasLabels: Bool
  private let labelLimit: UInt64
  private let payload: UnsafeRawPointer
  private var position = 0
  private let end: Int
  private var entriesLeft: UInt64
  /// The last number decoded so far: the frame's base before the first block.
  private(set) var last: UInt64

  /// Prepares to decode a frame.
  /// - Parameters:
  ///   - payload: The frame's payload (its CRC already checked).
  ///   - header: The frame's header.
  ///   - base: The last number before the frame (the first block's gap is
  ///     relative to it).
  ///   - labelLimit: The label dictionary's size; label ids must be below it.
  init(
    payload: UnsafeRawPointer, header: _FrameHeader, base: UInt64, section: BlobSection,
    labelLimit: UInt64
  ) {
    self.section = section
    self.hasLabels = section.carriesLabels
    self.labelLimit = labelLimit
    self.payload = payload
    self.end = header.payloadLength
    self.entriesLeft = header.entryCount
    self.last = base
  }

  /// A decoder with nothing to decode, as a placeholder before the first frame.
  init(emptyAt payload: UnsafeRawPointer, section: BlobSection) {
    self.section = section
    self.hasLabels = false
    self.labelLimit = 0
    self.payload = payload
    self.end = 0
    self.entriesLeft = 0
    self.last = 0
  }

  /// Whether blocks remain in the payload.
  var hasMoreBlocks: Bool { position < end }

  /// Throws unless the blocks decoded so far hold exactly the frame's
  /// declared count; call it once ``hasMoreBlocks`` is `false`.
  func finish() throws(BlobError) {
    guard entriesLeft == 0 else {
      throw _corrupt("a frame's blocks hold fewer entries than the frame declares")
    }
  }

  private func _corrupt(_ message: String) -> BlobError {
    BlobError.corrupt("\(section) section: \(message)")
  }

  /// Decodes the next block.
  ///
  /// A bitmap or Elias–Fano block is written to `numbers` (and `labels`,
  /// in labelled sections) if it fits in `room`, else to `staging`; a run
  /// is returned as its bounds.
  /// - Precondition: ``hasMoreBlocks``.
  /// - Throws: `BlobError.corrupt` for any invalid block.
  mutating func nextBlock(
    into numbers: UnsafeMutablePointer<Int64>, labels: UnsafeMutablePointer<UInt32>?, room: Int,
    staging: _BlockBuffer
  ) throws(BlobError) -> Block {
    var cursor = _ByteCursor(base: payload, position: position, end: end)
    let header = try readBlockHeader(&cursor)
    if header.kind == .run { return try finishRun(header, &cursor) }

    let count = header.countMinusOne + 1
    guard count >= 2 && count <= UInt64(BlobLimits.maxBlockEntries) else {
      throw _corrupt("\(header.kind) block of \(count) entries")
    }
    let n = Int(count)
    let direct = room >= n
    let target = direct ? numbers : staging.numbers
    let blockLast: UInt64
    switch header.kind {
    case .bitmap: blockLast = try decodeBitmap(header, &cursor, into: target)
    case .eliasFano: blockLast = try decodeEliasFano(header, &cursor, into: target)
    case .run: blockLast = 0
    }
    if hasLabels {
      try decodeLabels(count: n, &cursor, into: direct ? (labels ?? staging.labels) : staging.labels)
    }

    position = cursor.position
    entriesLeft -= count
    last = blockLast
    return direct ? .values(count: n) : .staged(count: n)
  }

  /// A block's header fields, checked against the frame's count and the
  /// numbers' range.
  private struct BlockHeader {
    let kind: _BlockKind
    /// The tag's low bits: the Elias–Fano low width (0 for other kinds).
    let l: Int
    let countMinusOne: UInt64
    /// The block's first number.
    let first: UInt64
  }

  @inline(__always) private static var maxNumber: UInt64 { UInt64(BlobLimits.maxNumber) }

  /// Reads a block's tag, gap and count.
  @inline(__always)
  private func readBlockHeader(_ cursor: inout _ByteCursor) throws(BlobError) -> BlockHeader {
    guard let tag = cursor.readByte(), let gap = cursor.readVarint(),
      let countMinusOne = cursor.readVarint()
    else { throw _corrupt("block header runs past the end of its frame") }
    guard let kind = _BlockKind(rawValue: tag >> 6) else {
      throw _corrupt("unknown block kind \(tag >> 6)")
    }
    guard countMinusOne < entriesLeft else {
      throw _corrupt("block of \(countMinusOne &+ 1) entries exceeds its frame's count")
    }
    let maxNumber = Self.maxNumber
    guard last < maxNumber, gap <= maxNumber - last - 1 else {
      throw _corrupt("block starts beyond \(maxNumber)")
    }
    return BlockHeader(kind: kind, l: Int(tag & 0x3F), countMinusOne: countMinusOne, first: last + 1 + gap)
  }

  /// A run block: its label (in labelled sections), then the decoder moves
  /// past it.
  @inline(__always)
  private mutating func finishRun(_ header: BlockHeader, _ cursor: inout _ByteCursor) throws(BlobError) -> Block {
    let maxNumber = Self.maxNumber
    guard header.l == 0 else { throw _corrupt("run block with nonzero width bits") }
    guard header.countMinusOne <= maxNumber - header.first else { throw _corrupt("run ends beyond \(maxNumber)") }
    var label: UInt32 = 0
    if hasLabels {
      guard let id = cursor.readVarint() else { throw _corrupt("run label runs past its frame") }
      guard id < labelLimit else { throw _corrupt("label id \(id) is not below \(labelLimit)") }
      label = UInt32(id)
    }
    let count = header.countMinusOne + 1
    position = cursor.position
    entriesLeft -= count
    last = header.first + header.countMinusOne
    return .run(first: header.first, count: count, label: label)
  }

  /// A bitmap block's numbers into `target`; returns its last number.
  @inline(__always)
  private func decodeBitmap(
    _ header: BlockHeader, _ cursor: inout _ByteCursor, into target: UnsafeMutablePointer<Int64>
  ) throws(BlobError) -> UInt64 {
    let maxNumber = Self.maxNumber
    let count = header.countMinusOne + 1
    let first = header.first
    guard header.l == 0 else { throw _corrupt("bitmap block with nonzero width bits") }
    guard let extra = cursor.readVarint() else { throw _corrupt("bitmap header runs past its frame") }
    guard extra <= UInt64(BlobLimits.maxBitmapSpan) - count else {
      throw _corrupt("bitmap span exceeds \(BlobLimits.maxBitmapSpan)")
    }
    let span = Int(count + extra)
    let bytes = (span + 7) / 8
    guard bytes <= cursor.remaining else { throw _corrupt("bitmap runs past its frame") }
    guard UInt64(span - 1) <= maxNumber - first else { throw _corrupt("bitmap ends beyond \(maxNumber)") }
    guard _BlockDecoder.bitmap(
      payload + cursor.position, span: span, count: Int(count), first: first, into: target)
    else { throw _corrupt("invalid bitmap block") }
    cursor.position += bytes
    return first + UInt64(span - 1)
  }

  /// An Elias–Fano block's numbers into `target`; returns its last number.
  @inline(__always)
  private func decodeEliasFano(
    _ header: BlockHeader, _ cursor: inout _ByteCursor, into target: UnsafeMutablePointer<Int64>
  ) throws(BlobError) -> UInt64 {
    let maxNumber = Self.maxNumber
    let l = header.l
    let first = header.first
    guard l <= 62 else { throw _corrupt("elias-fano low width \(l) exceeds 62") }
    guard let upper = cursor.readVarint() else { throw _corrupt("elias-fano header runs past its frame") }
    let m = header.countMinusOne
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
    return first + m + upper
  }

  /// A block's `count` label ids into `target`, each checked below the
  /// label dictionary's size.
  @inline(__always)
  private func decodeLabels(
    count n: Int, _ cursor: inout _ByteCursor, into target: UnsafeMutablePointer<UInt32>
  ) throws(BlobError) {
    guard let minimum = cursor.readVarint(), let width = cursor.readByte() else {
      throw _corrupt("label header runs past its frame")
    }
    guard width <= 32 else { throw _corrupt("label width \(width) exceeds 32") }
    let bytes = (n * Int(width) + 7) / 8
    guard bytes <= cursor.remaining else { throw _corrupt("labels run past their frame") }
    guard _BlockDecoder.labels(
      payload + cursor.position, count: n, width: Int(width), minimum: minimum,
      limit: labelLimit, into: target)
    else { throw _corrupt("label id is not below \(labelLimit)") }
    cursor.position += bytes
  }
}
