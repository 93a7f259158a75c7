/// Looks labels up by id with `pread`, keeping only a small cache in memory.
///
/// The label section is `(count + 1)` little-endian `UInt32` offsets followed
/// by the concatenated UTF-8 text; label `i` is the bytes
/// `offsets[i]..<offsets[i+1]` of the text. A lookup reads 8 bytes of the
/// table and the label's bytes; a direct-mapped cache of
/// ``cacheSlots`` labels makes repeated ids cheap.
final class _LabelStore {
  static let cacheSlots = 256

  let count: UInt64
  private let source: _ByteSource
  private let tableOffset: UInt64
  private let textOffset: UInt64
  private let textLength: UInt64
  private var cacheIDs = [UInt32](repeating: UInt32.max, count: cacheSlots)
  private var cacheValues = [String](repeating: "", count: cacheSlots)
  /// The section, until its checksum has been verified.
  private var unverified: BlobSectionInfo?

  init(source: _ByteSource, info: BlobSectionInfo?) {
    self.source = source
    self.unverified = info
    let count = info?.entryCount ?? 0
    self.count = count
    self.tableOffset = info?.offset ?? 0
    let table = (count + 1) * 4
    self.textOffset = (info?.offset ?? 0) + table
    self.textLength = (info?.length ?? table) - table
  }

  /// The text of label `id`.
  /// - Throws: `BlobError.unknownLabel` for an id past the end, or
  ///   `BlobError.corrupt` for bad offsets or invalid UTF-8.
  func label(_ id: UInt32) throws(BlobError) -> String {
    let slot = Int(id) % _LabelStore.cacheSlots
    if cacheIDs[slot] == id { return cacheValues[slot] }
    // The first lookup checks the section's checksum (one streaming pass),
    // so that no reader hands out label text the checksum disowns.
    if unverified != nil { try verifyChecksum() }
    let bytes = try labelBytes(id)
    guard let text = _LabelStore.decodeUTF8(bytes) else {
      throw BlobError.corrupt("label \(id) is not valid utf-8")
    }
    cacheIDs[slot] = id
    cacheValues[slot] = text
    return text
  }

  /// Checks the label section's checksum over all of its bytes, streaming
  /// (once: later calls return at once).
  /// - Throws: `BlobError.checksumMismatch(section: .labels)` or `truncated`.
  func verifyChecksum() throws(BlobError) {
    guard let info = unverified else { return }
    var crc = CRC32C()
    var stream = _SequentialReader(source: source, offset: info.offset, end: info.offset + info.length, section: .labels)
    while stream.remaining > 0 {
      let take = Int(min(stream.remaining, UInt64(_SequentialReader.chunk)))
      try stream.read(take) { crc.update($0) }
    }
    guard crc.value == info.checksum else { throw BlobError.checksumMismatch(section: .labels) }
    unverified = nil
  }

  /// The UTF-8 bytes of label `id`, read from the file.
  func labelBytes(_ id: UInt32) throws(BlobError) -> [UInt8] {
    guard UInt64(id) < count else { throw BlobError.unknownLabel(id: id, labelCount: Int(count)) }
    let pair = try source.readExactly(at: tableOffset + UInt64(id) * 4, count: 8, section: .labels)
    let (start, end) = pair.withUnsafeBytes {
      (UInt64(_loadLE($0, 0, as: UInt32.self)), UInt64(_loadLE($0, 4, as: UInt32.self)))
    }
    guard start <= end, end <= textLength, end - start <= UInt64(BlobLimits.maxLabelBytes) else {
      throw BlobError.corrupt("label \(id) has invalid offsets \(start)..<\(end)")
    }
    return try source.readExactly(at: textOffset + start, count: Int(end - start), section: .labels)
  }

  /// Decodes UTF-8 exactly, or returns `nil` if the bytes are not valid UTF-8.
  static func decodeUTF8(_ bytes: [UInt8]) -> String? {
    let text = String(decoding: bytes, as: UTF8.self)
    return text.utf8.elementsEqual(bytes) ? text : nil
  }
}

@available(*, unavailable)
extension _LabelStore: Sendable {}
