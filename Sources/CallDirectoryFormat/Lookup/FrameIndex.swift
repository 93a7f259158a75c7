/// Where one frame of a number section lies and what it holds.
struct _FrameLocation: Equatable {
  /// Offset of the frame's header from the start of the file.
  var offset: UInt64
  /// Payload bytes after the header.
  var payloadLength: Int
  /// Entries the frame holds.
  var entryCount: UInt64
  /// The last number of the previous frame (0 for the first frame): every
  /// number of the frame is above it.
  var base: UInt64
  /// The CRC-32C stored in the frame's header.
  var checksum: UInt32 = 0
}

/// The frames of one number section, in order, for finding the frame that
/// may hold a number by binary search over the frames' bases.
///
/// In format version 2 it is built from the frame headers alone: one
/// `pread` of ``_FrameHeader/maxSize`` bytes per frame, payloads skipped.
/// The headers are checked as far as they can be without the payloads: the
/// frames tile the section, the first base is 0, every base leaves room for
/// the entries of the frame before it (so the bases strictly increase),
/// the counts add up to the section's count, and the stored frame CRCs give
/// the section checksum. Format version 1 frames do not store their base,
/// so the index is built by decoding the whole section once, sequentially,
/// with every check a `_SectionCursor` makes.
struct _FrameIndex {
  let info: BlobSectionInfo
  let formatVersion: UInt16
  let frames: [_FrameLocation]

  /// Indexes `info`'s section.
  /// - Throws: `BlobError` for inconsistent frame headers or, in version 1,
  ///   for anything the sequential decode finds.
  init(source: _ByteSource, info: BlobSectionInfo, formatVersion: UInt16, labelCount: UInt64) throws(BlobError) {
    self.info = info
    self.formatVersion = formatVersion
    if formatVersion >= 2 {
      frames = try _FrameIndex._readHeaders(source, info, formatVersion)
    } else {
      frames = try _FrameIndex._decodeSequentially(source, info, formatVersion, labelCount)
    }
  }

  /// The position of the frame that holds `number` if any frame does: the
  /// last frame whose base is below `number`; `nil` if there is none.
  func frame(containing number: UInt64) -> Int? {
    let above = frames._partitionPoint { $0.base < number }
    return above == 0 ? nil : above - 1
  }

  /// The largest number frame `position` may hold: the next frame's base,
  /// or ``BlobLimits/maxNumber`` for the last frame.
  func upperBound(ofFrame position: Int) -> UInt64 {
    position + 1 < frames.count ? frames[position + 1].base : UInt64(BlobLimits.maxNumber)
  }

  private static func _corrupt(_ section: BlobSection, _ message: String) -> BlobError {
    BlobError.corrupt("\(section) section: \(message)")
  }

  private static func _readHeaders(
    _ source: _ByteSource, _ info: BlobSectionInfo, _ formatVersion: UInt16
  ) throws(BlobError) -> [_FrameLocation] {
    let section = info.section
    let headerSize = _FrameHeader.size(formatVersion: formatVersion)
    let end = info.offset + info.length
    var offset = info.offset
    var remaining = info.entryCount
    var checksum = CRC32C()
    var frames = [_FrameLocation]()
    var bytes = [UInt8](repeating: 0, count: headerSize)
    while offset < end {
      guard end - offset >= UInt64(headerSize) else {
        throw _corrupt(section, "a frame header runs past the end of the section")
      }
      let got = try bytes.withUnsafeMutableBufferPointer { (buffer) throws(BlobError) in
        try source.read(at: offset, into: UnsafeMutableRawBufferPointer(buffer))
      }
      guard got == headerSize else { throw BlobError.truncated(section: section) }
      let header = try bytes.withUnsafeBufferPointer { (buffer) throws(BlobError) in
        try _FrameHeader.parse(UnsafeRawBufferPointer(buffer), formatVersion: formatVersion, section: section)
      }
      guard header.entryCount <= remaining else {
        throw _corrupt(section, "frame declares \(header.entryCount) entries, \(remaining) remain")
      }
      guard UInt64(header.payloadLength) <= end - offset - UInt64(headerSize) else {
        throw _corrupt(section, "a frame runs past the end of the section")
      }
      let base = header.base ?? 0
      if let before = frames.last {
        guard base > before.base, base - before.base >= before.entryCount else {
          throw _corrupt(
            section,
            "frame base \(base) leaves no room for the \(before.entryCount) entries above the previous base \(before.base)")
        }
      } else {
        guard base == 0 else { throw _corrupt(section, "the first frame's base is \(base), not 0") }
      }
      checksum.update(littleEndian: header.storedChecksum)
      frames.append(_FrameLocation(
        offset: offset, payloadLength: header.payloadLength, entryCount: header.entryCount, base: base,
        checksum: header.storedChecksum))
      remaining -= header.entryCount
      offset += UInt64(headerSize + header.payloadLength)
    }
    if let last = frames.last {
      guard last.entryCount <= UInt64(BlobLimits.maxNumber) - last.base else {
        throw _corrupt(section, "the last frame's \(last.entryCount) entries do not fit above its base \(last.base)")
      }
    }
    guard remaining == 0 else { throw _corrupt(section, "frames hold fewer entries than the header records") }
    guard checksum.value == info.checksum else { throw BlobError.checksumMismatch(section: section) }
    return frames
  }

  private static func _decodeSequentially(
    _ source: _ByteSource, _ info: BlobSectionInfo, _ formatVersion: UInt16, _ labelCount: UInt64
  ) throws(BlobError) -> [_FrameLocation] {
    let cursor = _SectionCursor(
      source: source, info: info, labelCount: labelCount, formatVersion: formatVersion,
      recordingFrames: true)
    let capacity = 4096
    let numbers = UnsafeMutablePointer<Int64>.allocate(capacity: capacity)
    defer { numbers.deallocate() }
    // Chunk by chunk: a run block is checked without being expanded.
    while true {
      if case .end = try cursor.nextChunk(numbers: numbers, labels: nil, capacity: capacity) { break }
    }
    guard cursor.delivered == info.entryCount else {
      throw _corrupt(info.section, "holds \(cursor.delivered) entries, header records \(info.entryCount)")
    }
    return cursor.recordedFrames ?? []
  }
}
