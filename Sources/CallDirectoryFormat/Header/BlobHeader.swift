/// Where one section lives in a blob, how many entries it holds and its checksum.
public struct BlobSectionInfo: Sendable, Hashable {
  /// The section.
  public var section: BlobSection
  /// Entries in the section (labels for the label dictionary).
  public var entryCount: UInt64
  /// Byte offset of the section from the start of the file.
  public var offset: UInt64
  /// Byte length of the section.
  public var length: UInt64
  /// The section checksum (CRC-32C; see the format specification).
  public var checksum: UInt32

  /// Creates a section table entry.
  public init(
    section: BlobSection, entryCount: UInt64, offset: UInt64, length: UInt64,
    checksum: UInt32
  ) {
    self.section = section
    self.entryCount = entryCount
    self.offset = offset
    self.length = length
    self.checksum = checksum
  }
}

/// The fixed header of a blob: identity, versions, digests, dataset name and
/// section table.
///
/// It can be read alone (``BlobReader/readHeader(path:)``), for example by
/// an `inspect` command. Readers accept format versions 1 and 2; writers
/// write ``currentFormatVersion``.
public struct BlobHeader: Sendable, Hashable {
  /// The four magic bytes, `CDIR`.
  public static let magic: [UInt8] = [0x43, 0x44, 0x49, 0x52]
  /// The format version this library writes.
  public static let currentFormatVersion: UInt16 = 2
  /// The format versions this library reads.
  static let readableFormatVersions: ClosedRange<UInt16> = 1...currentFormatVersion
  /// Bytes per section table entry.
  static let sectionEntrySize = 32

  /// The format version stored in the file (1 or 2).
  public var formatVersion: UInt16
  /// Full snapshot or delta.
  public var kind: BlobKind
  /// The snapshot version (for a delta: the target version).
  public var version: UInt64
  /// For a delta, the version it applies to; 0 for a full snapshot.
  public var baseVersion: UInt64
  /// The content digest of the snapshot (for a delta: of the target).
  public var contentDigest: ContentDigest
  /// For a delta, the content digest of the base; ``ContentDigest/zero`` otherwise.
  public var baseDigest: ContentDigest
  /// The total size of the blob in bytes.
  public var fileSize: UInt64
  /// The sections, in stored order.
  public var sections: [BlobSectionInfo]
  /// The name of the dataset the blob was compiled from, or `""` when the
  /// blob names none (always `""` in format version 1, which cannot store it).
  public var dataset: String

  /// The size of the header in bytes, including its checksum.
  public var headerSize: Int {
    BlobHeader.headerSize(sectionCount: sections.count, formatVersion: formatVersion)
  }

  /// Bytes before the section table: 104 in version 1; 168 in version 2,
  /// which adds the dataset identifier.
  static func fixedSize(formatVersion: UInt16) -> Int {
    formatVersion >= 2 ? _DatasetField.offset + _DatasetField.size : _DatasetField.offset
  }

  static func headerSize(sectionCount: Int, formatVersion: UInt16) -> Int {
    fixedSize(formatVersion: formatVersion) + sectionEntrySize * sectionCount + 4
  }

  /// The table entry of `section`, if the blob has it.
  public func info(_ section: BlobSection) -> BlobSectionInfo? {
    sections.first { $0.section == section }
  }

  /// The number of entries in `section` (0 if the blob has no such section).
  public func entryCount(_ section: BlobSection) -> UInt64 {
    info(section)?.entryCount ?? 0
  }

  /// The entries a request that loads the blob adds: every entry of a full
  /// snapshot, or a delta's blocking and identification adds (a changed
  /// label is a remove and an add). Saturates at `UInt64.max`.
  public var addedEntries: UInt64 {
    switch kind {
    case .full: Self.sum(entryCount(.blocking), entryCount(.identification))
    case .delta: Self.sum(entryCount(.blockingAdds), entryCount(.identificationAdds))
    }
  }

  /// The entries a request that loads the blob removes one by one: a
  /// delta's blocking and identification removes; 0 for a full snapshot.
  /// Saturates at `UInt64.max`.
  public var removedEntries: UInt64 {
    kind == .delta ? Self.sum(entryCount(.blockingRemoves), entryCount(.identificationRemoves)) : 0
  }

  /// What loading the blob costs the phone, in entries: ``addedEntries``
  /// plus ``removedEntries`` (CallKit reloads at about 9 µs an entry).
  /// Saturates at `UInt64.max`.
  public var reloadEntries: UInt64 { Self.sum(addedEntries, removedEntries) }

  private static func sum(_ first: UInt64, _ second: UInt64) -> UInt64 {
    let (total, overflow) = first.addingReportingOverflow(second)
    return overflow ? .max : total
  }

  /// Throws unless this is a delta whose base is exactly the given snapshot.
  ///
  /// A loader calls this with the version and digest of the snapshot it has
  /// loaded before it applies the delta.
  /// - Throws: `BlobError.wrongKind` or `BlobError.baseMismatch`.
  public func requireBase(version: UInt64, digest: ContentDigest) throws(BlobError) {
    guard kind == .delta else { throw BlobError.wrongKind(expected: .delta, actual: kind) }
    guard baseVersion == version else {
      throw BlobError.baseMismatch("delta base is version \(baseVersion), loaded snapshot is version \(version)")
    }
    guard baseDigest == digest else {
      throw BlobError.baseMismatch("delta base digest \(baseDigest) differs from loaded snapshot digest \(digest)")
    }
  }

  /// The header bytes, with the header checksum, in ``formatVersion``'s
  /// layout (writers always use ``currentFormatVersion``).
  ///
  /// - Precondition: ``dataset`` passes `_DatasetField.validate(_:)`.
  func serialized() -> [UInt8] {
    var out = [UInt8]()
    out.reserveCapacity(headerSize)
    out.append(contentsOf: BlobHeader.magic)
    _appendLE(formatVersion, to: &out)
    out.append(kind.rawValue)
    out.append(0)
    _appendLE(UInt32(headerSize), to: &out)
    _appendLE(UInt32(sections.count), to: &out)
    _appendLE(fileSize, to: &out)
    _appendLE(version, to: &out)
    _appendLE(baseVersion, to: &out)
    out.append(contentsOf: contentDigest.bytes)
    out.append(contentsOf: baseDigest.bytes)
    if formatVersion >= 2 { _DatasetField.append(dataset, to: &out) }
    for info in sections {
      out.append(info.section.rawValue)
      out.append(contentsOf: [0, 0, 0])
      _appendLE(info.checksum, to: &out)
      _appendLE(info.entryCount, to: &out)
      _appendLE(info.offset, to: &out)
      _appendLE(info.length, to: &out)
    }
    let crc = out.withUnsafeBytes { CRC32C.checksum($0) }
    _appendLE(crc, to: &out)
    return out
  }

  /// Bytes to read to learn the full header length.
  static let probeSize = 16

  /// The header length announced by the first ``probeSize`` bytes.
  static func announcedSize(_ bytes: UnsafeRawBufferPointer) throws(BlobError) -> Int {
    guard bytes.count >= 4 else { throw BlobError.truncated(section: .header) }
    guard bytes[0] == magic[0], bytes[1] == magic[1], bytes[2] == magic[2], bytes[3] == magic[3]
    else { throw BlobError.badMagic }
    guard bytes.count >= probeSize else { throw BlobError.truncated(section: .header) }
    let version = _loadLE(bytes, 4, as: UInt16.self)
    guard readableFormatVersions.contains(version) else { throw BlobError.unsupportedVersion(version) }
    let length = _loadLE(bytes, 8, as: UInt32.self)
    let count = _loadLE(bytes, 12, as: UInt32.self)
    guard count <= 16, Int(length) == headerSize(sectionCount: Int(count), formatVersion: version) else {
      throw BlobError.corrupt("header length \(length) does not match \(count) sections")
    }
    return Int(length)
  }

  /// Parses and validates a header.
  ///
  /// - Parameters:
  ///   - bytes: At least the header's bytes (more are ignored).
  ///   - actualFileSize: The real size of the blob, if known; it is checked
  ///     against the recorded size to report truncation.
  /// - Throws: `BlobError` for any inconsistency.
  static func parse(_ bytes: UnsafeRawBufferPointer, actualFileSize: UInt64?) throws(BlobError) -> BlobHeader {
    let size = try announcedSize(bytes)
    guard bytes.count >= size else { throw BlobError.truncated(section: .header) }
    let stored = _loadLE(bytes, size - 4, as: UInt32.self)
    let computed = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<(size - 4)]))
    guard stored == computed else { throw BlobError.checksumMismatch(section: .header) }

    let formatVersion = _loadLE(bytes, 4, as: UInt16.self)
    guard let kind = BlobKind(rawValue: bytes[6]) else { throw BlobError.unsupportedKind(bytes[6]) }
    guard bytes[7] == 0 else { throw BlobError.corrupt("unknown header flags 0x\(String(bytes[7], radix: 16))") }
    let order = kind.sectionOrder
    let count = Int(_loadLE(bytes, 12, as: UInt32.self))
    guard count == order.count else {
      throw BlobError.corrupt("a \(kind) blob has \(order.count) sections, header lists \(count)")
    }
    let fileSize = _loadLE(bytes, 16, as: UInt64.self)
    let version = _loadLE(bytes, 24, as: UInt64.self)
    let baseVersion = _loadLE(bytes, 32, as: UInt64.self)
    // Versions are catalog rows and manifest integers: signed 64-bit.
    guard version <= UInt64(Int64.max), baseVersion <= UInt64(Int64.max) else {
      throw BlobError.corrupt("version \(max(version, baseVersion)) is above 2^63 - 1")
    }
    let digest = ContentDigest(_unchecked: Array(bytes[40..<72]))
    let baseDigest = ContentDigest(_unchecked: Array(bytes[72..<104]))
    if kind == .full {
      guard baseVersion == 0, baseDigest == .zero else {
        throw BlobError.corrupt("a full snapshot must have base version 0 and a zero base digest")
      }
    }
    var dataset = ""
    if formatVersion >= 2 {
      let field = _DatasetField.offset..<(_DatasetField.offset + _DatasetField.size)
      dataset = try _DatasetField.decode(UnsafeRawBufferPointer(rebasing: bytes[field]))
    }
    let tableStart = fixedSize(formatVersion: formatVersion)

    var sections = [BlobSectionInfo]()
    var expectedOffset = UInt64(size)
    for index in 0..<count {
      let at = tableStart + index * sectionEntrySize
      let id = bytes[at]
      guard id == order[index].rawValue else {
        throw BlobError.corrupt("section \(index) has id \(id), expected \(order[index].rawValue) (\(order[index]))")
      }
      guard bytes[at + 1] == 0, bytes[at + 2] == 0, bytes[at + 3] == 0 else {
        throw BlobError.corrupt("reserved bytes of section table entry \(index) are not zero")
      }
      let info = BlobSectionInfo(
        section: order[index],
        entryCount: _loadLE(bytes, at + 8, as: UInt64.self),
        offset: _loadLE(bytes, at + 16, as: UInt64.self),
        length: _loadLE(bytes, at + 24, as: UInt64.self),
        checksum: _loadLE(bytes, at + 4, as: UInt32.self))
      guard info.offset == expectedOffset else {
        throw BlobError.corrupt("\(info.section) section starts at \(info.offset), expected \(expectedOffset)")
      }
      let (end, overflow) = info.offset.addingReportingOverflow(info.length)
      guard !overflow else { throw BlobError.corrupt("\(info.section) section length overflows") }
      try _checkSectionShape(info)
      expectedOffset = end
      sections.append(info)
    }
    guard expectedOffset == fileSize else {
      throw BlobError.corrupt("sections end at \(expectedOffset) but the header records \(fileSize) bytes")
    }
    let header = BlobHeader(
      formatVersion: formatVersion, kind: kind, version: version,
      baseVersion: baseVersion, contentDigest: digest, baseDigest: baseDigest,
      fileSize: fileSize, sections: sections, dataset: dataset)
    if let actual = actualFileSize {
      if actual < fileSize {
        let cut = sections.first { $0.offset &+ $0.length > actual }
        throw BlobError.truncated(section: cut?.section ?? .header)
      }
      if actual > fileSize {
        throw BlobError.corrupt("\(actual - fileSize) trailing bytes after the end of the blob")
      }
    }
    return header
  }

  private static func _checkSectionShape(_ info: BlobSectionInfo) throws(BlobError) {
    if info.section == .labels {
      guard info.entryCount < UInt64(UInt32.max) else {
        throw BlobError.corrupt("label dictionary claims \(info.entryCount) labels")
      }
      let table = (info.entryCount + 1) * 4
      guard info.length >= table, info.length - table <= UInt64(UInt32.max) else {
        throw BlobError.corrupt("label section length \(info.length) does not fit \(info.entryCount) labels")
      }
    } else {
      guard (info.entryCount == 0) == (info.length == 0) else {
        throw BlobError.corrupt("\(info.section) section has \(info.entryCount) entries in \(info.length) bytes")
      }
      guard info.entryCount <= UInt64(BlobLimits.maxNumber) else {
        throw BlobError.corrupt("\(info.section) section claims \(info.entryCount) entries")
      }
    }
  }
}

func _appendLE<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
  withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
}

/// Loads a little-endian integer; the caller guarantees the bounds.
func _loadLE<T: FixedWidthInteger>(_ bytes: UnsafeRawBufferPointer, _ offset: Int, as type: T.Type) -> T {
  T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
}
