/// The result of a successful ``BlobReader/verify(recomputingDigest:)``.
public struct BlobVerification: Sendable, Hashable {
  /// The verified header.
  public var header: BlobHeader
  /// Whether the content digest was recomputed from the entries and matched
  /// (full snapshots only; a delta's digests name snapshots it does not hold).
  public var digestVerified: Bool
}

extension BlobReader {
  /// Checks the whole blob in constant memory.
  ///
  /// Checks the header checksum (already done when opening), every frame and
  /// section checksum, every entry count, strict ascending order and the
  /// range `1...Int64.max-1` of every list, the label dictionary's offsets
  /// and UTF-8, and every label reference. For a full snapshot it also
  /// recomputes the content digest from the entries, unless
  /// `recomputingDigest` is `false`.
  ///
  /// - Returns: What was verified.
  /// - Throws: The first `BlobError` found.
  /// - Complexity: O(file size): the sections are walked chunk by chunk
  ///   (``NumberIterator/nextChunk()``), so a run block costs O(1) however
  ///   many numbers it holds, in the blocking digest too. Recomputing the
  ///   digest adds one label lookup per identification entry, and hashes
  ///   an identification run entry by entry (the digest is defined so).
  @discardableResult
  public func verify(recomputingDigest: Bool = true) throws(BlobError) -> BlobVerification {
    try _verifyLabels()
    let digesting = recomputingDigest && header.kind == .full
    var builder = ContentDigestBuilder()
    for info in header.sections where info.section.isNumberSection {
      let cursor = try _cursor(info.section)
      if info.section.carriesLabels {
        try _walkEntries(IdentificationIterator(cursor: cursor), hashingInto: &builder, digesting)
      } else {
        try _walkNumbers(NumberIterator(cursor: cursor), hashingInto: &builder, digesting)
      }
      guard cursor.delivered == info.entryCount else {
        throw BlobError.corrupt("\(info.section) section holds \(cursor.delivered) entries, header records \(info.entryCount)")
      }
    }
    if digesting {
      let digest = builder.finalize()
      guard digest == header.contentDigest else {
        throw BlobError.digestMismatch(expected: header.contentDigest, actual: digest)
      }
    }
    return BlobVerification(header: header, digestVerified: digesting)
  }

  /// Decodes every chunk of an unlabelled section, hashing the numbers
  /// when `hashing`; a run costs O(1), in the digest too.
  private func _walkNumbers(
    _ iterator: NumberIterator, hashingInto builder: inout ContentDigestBuilder, _ hashing: Bool
  ) throws(BlobError) {
    while let chunk = try iterator.nextChunk() {
      guard hashing else { continue }
      switch chunk {
      case .run(let range): builder._appendBlocking(range)
      case .numbers(let numbers): builder._appendBlocking(contentsOf: numbers)
      }
    }
  }

  /// Decodes every chunk of a labelled section, hashing the entries when
  /// `hashing`. The digest hashes every identification entry with
  /// its label, so a hashed run costs O(its length); unhashed, O(1).
  private func _walkEntries(
    _ iterator: IdentificationIterator, hashingInto builder: inout ContentDigestBuilder, _ hashing: Bool
  ) throws(BlobError) {
    while let chunk = try iterator.nextChunk() {
      guard hashing else { continue }
      switch chunk {
      case .run(let range, let id):
        var text = try label(id)
        text.withUTF8 { utf8 in
          for number in range { builder._appendIdentification(number, UnsafeRawBufferPointer(utf8)) }
        }
      case .entries(let numbers, let ids):
        for index in 0..<numbers.count {
          var text = try label(ids[index])
          text.withUTF8 { builder._appendIdentification(numbers[index], UnsafeRawBufferPointer($0)) }
        }
      }
    }
  }

  /// Checks the label section's checksum over all of its bytes, streaming.
  /// - Throws: `BlobError.checksumMismatch(section: .labels)` or `truncated`.
  func _verifyLabelChecksum() throws(BlobError) {
    try _labels.verifyChecksum()
  }

  /// Checks the label section: checksum, offsets and UTF-8, streaming.
  private func _verifyLabels() throws(BlobError) {
    guard let info = header.info(.labels) else { return }
    // Pass 1: the checksum over all bytes of the section.
    try _verifyLabelChecksum()

    // Pass 2: offsets are ascending from 0 to the text length; labels are UTF-8.
    let count = info.entryCount
    let tableEnd = info.offset + (count + 1) * 4
    let textLength = info.length - (count + 1) * 4
    var table = _SequentialReader(source: _source, offset: info.offset, end: tableEnd, section: .labels)
    var text = _SequentialReader(source: _source, offset: tableEnd, end: info.offset + info.length, section: .labels)
    var start: UInt64 = 0
    try table.read(4) { start = UInt64(_loadLE($0, 0, as: UInt32.self)) }
    guard start == 0 else { throw BlobError.corrupt("label offsets do not start at 0") }
    var index: UInt64 = 0
    while index < count {
      var end: UInt64 = 0
      try table.read(4) { end = UInt64(_loadLE($0, 0, as: UInt32.self)) }
      guard end >= start, end - start <= UInt64(BlobLimits.maxLabelBytes), end <= textLength else {
        throw BlobError.corrupt("label \(index) has invalid offsets \(start)..<\(end)")
      }
      var valid = false
      try text.read(Int(end - start)) { bytes in
        valid = _LabelStore.decodeUTF8(Array(bytes)) != nil
      }
      guard valid else { throw BlobError.corrupt("label \(index) is not valid utf-8") }
      start = end
      index += 1
    }
    guard start == textLength else {
      throw BlobError.corrupt("label text is \(textLength) bytes but offsets end at \(start)")
    }
  }
}

/// Reads a byte range front to back through a fixed buffer.
struct _SequentialReader {
  static let chunk = 65_536
  let source: _ByteSource
  let section: BlobSection
  private var offset: UInt64
  private let end: UInt64
  private var buffer = [UInt8](repeating: 0, count: _SequentialReader.chunk)
  private var position = 0
  private var filled = 0

  init(source: _ByteSource, offset: UInt64, end: UInt64, section: BlobSection) {
    self.source = source
    self.offset = offset
    self.end = end
    self.section = section
  }

  /// Bytes not yet consumed.
  var remaining: UInt64 { end - offset + UInt64(filled - position) }

  /// Passes the next `count` (at most ``chunk``) bytes to `body`.
  mutating func read(_ count: Int, _ body: (UnsafeRawBufferPointer) throws(BlobError) -> Void) throws(BlobError) {
    guard UInt64(count) <= remaining else { throw BlobError.truncated(section: section) }
    if filled - position < count {
      let kept = filled - position
      buffer.withUnsafeMutableBytes { raw in
        if kept > 0, let base = raw.baseAddress { base.copyMemory(from: base + position, byteCount: kept) }
      }
      position = 0
      filled = kept
      let want = Int(min(UInt64(buffer.count - filled), end - offset))
      let start = filled
      let (source, from) = (source, offset)
      let got = try buffer.withUnsafeMutableBufferPointer { (raw) throws(BlobError) -> Int in
        try source.read(at: from, into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: raw[start..<(start + want)])))
      }
      guard got == want else { throw BlobError.truncated(section: section) }
      filled += got
      offset += UInt64(got)
    }
    let at = position
    try buffer.withUnsafeBufferPointer { (raw) throws(BlobError) in
      try body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: raw[at..<(at + count)])))
    }
    position += count
  }
}
