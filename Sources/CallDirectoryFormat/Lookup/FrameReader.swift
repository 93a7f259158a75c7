/// Reads single frames of a number section at random and decodes each one
/// completely, with the checks of a sequential read.
///
/// One `pread` per frame into a fixed buffer; the frame's CRC is checked
/// before any block is decoded, every block goes through `_FrameDecoder`,
/// the blocks must hold the frame's count, and the frame's last number must
/// be the next frame's base (which, with the frame's own base covered by its
/// CRC, confirms that the index routed the numbers to the right frame).
final class _FrameReader {
  /// One decoded block of a frame, in ascending order.
  enum Block {
    /// Every number of `first ... last`, each with `label` (0 in unlabelled
    /// sections).
    case run(first: UInt64, last: UInt64, label: UInt32)
    /// Strictly ascending numbers and, in labelled sections, their label
    /// ids (`labels[i]` for `numbers[i]`; undefined otherwise). Valid only
    /// during the visit.
    case values(numbers: UnsafeBufferPointer<Int64>, labels: UnsafePointer<UInt32>)
  }

  private static let padding = 32
  private let source: _ByteSource
  private let buffer: UnsafeMutableRawPointer
  private let capacity = _FrameHeader.maxSize + BlobLimits.maxFramePayload
  private let blocks = _BlockBuffer()

  init(source: _ByteSource) {
    self.source = source
    buffer = .allocate(byteCount: capacity + _FrameReader.padding, alignment: 16)
    buffer.initializeMemory(as: UInt8.self, repeating: 0, count: capacity + _FrameReader.padding)
  }

  deinit {
    buffer.deallocate()
  }

  /// Reads frame `position` of `index`, validates it and passes each of its
  /// blocks to `visit`, in order.
  /// - Parameter labelLimit: The label dictionary's size.
  /// - Throws: `BlobError` if the frame is truncated, its CRC or header
  ///   differ from the index, any block is invalid, or it does not end at
  ///   the next frame's base; or what `visit` throws.
  func scan(
    _ position: Int, of index: _FrameIndex, labelLimit: UInt64, visit: (Block) throws(BlobError) -> Void
  ) throws(BlobError) {
    let location = index.frames[position]
    let section = index.info.section
    let headerSize = _FrameHeader.size(formatVersion: index.formatVersion)
    let size = headerSize + location.payloadLength
    guard size <= capacity else { throw BlobError.corrupt("\(section) section: frame too large") }
    let got = try source.read(at: location.offset, into: UnsafeMutableRawBufferPointer(start: buffer, count: size))
    guard got == size else { throw BlobError.truncated(section: section) }
    // Keep the bytes after the frame deterministic for the decoders' masked loads.
    (buffer + size).initializeMemory(as: UInt8.self, repeating: 0, count: _FrameReader.padding)

    let frame = UnsafeRawBufferPointer(start: buffer, count: size)
    let header = try _FrameHeader.parse(frame, formatVersion: index.formatVersion, section: section)
    guard header.payloadLength == location.payloadLength, header.entryCount == location.entryCount,
      (header.base ?? location.base) == location.base
    else { throw BlobError.corrupt("\(section) section: frame at \(location.offset) differs from its index entry") }
    try header.verifyChecksum(frame, section: section)

    var decoder = _FrameDecoder(
      payload: buffer + headerSize, header: header, base: location.base, section: section,
      labelLimit: labelLimit)
    while decoder.hasMoreBlocks {
      let block = try decoder.nextBlock(
        into: blocks.numbers, labels: blocks.labels, room: BlobLimits.maxBlockEntries, staging: blocks)
      switch block {
      case .run(let first, let count, let label):
        try visit(.run(first: first, last: first + (count - 1), label: label))
      case .values(let count), .staged(let count):
        // Both land in `blocks`: it is the output and the staging area.
        try visit(.values(numbers: UnsafeBufferPointer(start: blocks.numbers, count: count), labels: blocks.labels))
      }
    }
    try decoder.finish()
    if position + 1 < index.frames.count {
      let next = index.frames[position + 1].base
      guard decoder.last == next else {
        throw BlobError.corrupt("\(section) section: frame ends at \(decoder.last), the next frame's base is \(next)")
      }
    }
  }
}

@available(*, unavailable)
extension _FrameReader: Sendable {}
