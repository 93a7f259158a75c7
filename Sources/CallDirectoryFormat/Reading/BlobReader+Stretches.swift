/// One frame of a number section, as its header describes it: what a
/// reader needs to cut the section into stretches of about equal work.
public struct SectionFrame: Sendable, Hashable {
  /// Every number of the frame is above it: the last number of the
  /// previous frame, 0 for the first frame.
  public var base: Int64
  /// The frame's bytes, header included.
  public var byteCount: Int
}

extension BlobReader {
  /// The frames of a number section, in order.
  ///
  /// In format version 2 they are read from the frame headers alone (one
  /// `pread` per frame, payloads skipped) and checked as far as headers
  /// allow, as ``BlobLookup`` checks them: the frames tile the section, the
  /// bases leave room for each frame's entries, the counts add up to the
  /// section's, and the stored frame CRCs give the section checksum. In
  /// version 1, whose frames store no base, the section is decoded once.
  /// - Throws: `BlobError.misuse` if the blob has no such number section;
  ///   `BlobError` for corrupt or truncated data.
  public func frames(of section: BlobSection) throws(BlobError) -> [SectionFrame] {
    let index = try _frameIndex(section)
    let headerSize = _FrameHeader.size(formatVersion: index.formatVersion)
    return index.frames.map {
      SectionFrame(base: Int64(bitPattern: $0.base), byteCount: headerSize + $0.payloadLength)
    }
  }

  /// Streams the numbers `n` of a number section with `lowerBound < n <=
  /// upperBound`, decoding only the frames that may hold them: a stretch,
  /// which may be read on another thread while other stretches of the
  /// same blob are read elsewhere (see ``NumberStretchIterator``).
  ///
  /// Stretches that cover `0 ..< Int64.max` between them check every
  /// frame of the section completely; with ``frames(of:)`` (which reads
  /// the same frame index) a caller can choose the bounds at frame bases,
  /// so that no frame is decoded twice.
  /// - Throws: `BlobError.misuse` if the blob has no such number section;
  ///   `BlobError` for corrupt or truncated frame headers (the frame index
  ///   is read on first use and kept).
  public func numbers(_ section: BlobSection, above lowerBound: Int64, through upperBound: Int64) throws(BlobError)
    -> NumberStretchIterator
  {
    let index = try _frameIndex(section)
    let low = UInt64(max(0, lowerBound))
    let high = UInt64(max(0, min(upperBound, BlobLimits.maxNumber)))
    return NumberStretchIterator(cursor: _StretchCursor(
      source: _ByteSource(viewing: _source), index: index, above: low, through: high,
      labelLimit: UInt64(labelCount), statistics: _statistics.part()))
  }

  func _frameIndex(_ section: BlobSection) throws(BlobError) -> _FrameIndex {
    if let index = _frameIndexes[section] { return index }
    guard section.isNumberSection, let info = header.info(section) else {
      throw BlobError.misuse("a \(header.kind) blob has no \(section) number section")
    }
    let index = try _FrameIndex(
      source: _source, info: info, formatVersion: header.formatVersion, labelCount: UInt64(labelCount))
    _frameIndexes[section] = index
    return index
  }
}
