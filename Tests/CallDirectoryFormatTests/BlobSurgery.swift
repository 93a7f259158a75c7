@testable import CallDirectoryFormat

/// Byte-level edits of whole blobs for tests: walking frames, recomputing
/// checksums after deliberate damage, and rewriting a blob in format
/// version 1.
enum BlobSurgery {
  /// One frame of a number section, as stored.
  struct Frame {
    /// Offset of the frame header in the blob.
    var offset: Int
    /// Header bytes (16 in version 1, 24 in version 2).
    var headerSize: Int
    /// Payload bytes after the header.
    var payloadLength: Int
    var end: Int { offset + headerSize + payloadLength }
  }

  /// The frames of `info`'s section, as far as their lengths can be walked.
  static func frames(_ bytes: [UInt8], _ info: BlobSectionInfo, formatVersion: UInt16) -> [Frame] {
    let headerSize = _FrameHeader.size(formatVersion: formatVersion)
    var frames = [Frame]()
    var position = Int(info.offset)
    let end = Int(info.offset + info.length)
    while position + headerSize <= end {
      let length = Int(load(bytes, position + 4, width: 4))
      guard position + headerSize + length <= end else { break }
      frames.append(Frame(offset: position, headerSize: headerSize, payloadLength: length))
      position += headerSize + length
    }
    return frames
  }

  /// The little-endian integer of `width` bytes at `offset`.
  static func load(_ bytes: [UInt8], _ offset: Int, width: Int) -> UInt64 {
    (0..<width).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
  }

  /// Stores `value` little-endian in `width` bytes at `offset`.
  static func store(_ value: UInt64, _ bytes: inout [UInt8], _ offset: Int, width: Int) {
    for k in 0..<width { bytes[offset + k] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(k))) }
  }

  /// Recomputes every frame CRC, section checksum and the header CRC, so a
  /// deliberately damaged blob passes the checksums and reaches the
  /// structural validators. Stops quietly at anything it cannot walk.
  static func reseal(_ bytes: inout [UInt8]) {
    guard let header = try? BlobReader.readHeader(bytes: bytes) else { return }
    var sections = header.sections
    for (index, info) in sections.enumerated() {
      if info.section == .labels {
        sections[index].checksum = CRC32C.checksum(bytes[Int(info.offset)..<Int(info.offset + info.length)])
        continue
      }
      var sectionCRC = CRC32C()
      for frame in frames(bytes, info, formatVersion: header.formatVersion) {
        let crc = CRC32C.checksum(bytes[(frame.offset + 4)..<frame.end])
        store(UInt64(crc), &bytes, frame.offset, width: 4)
        sectionCRC.update(littleEndian: crc)
      }
      sections[index].checksum = sectionCRC.value
    }
    var fixed = header
    fixed.sections = sections
    let headerBytes = fixed.serialized()
    bytes.replaceSubrange(0..<headerBytes.count, with: headerBytes)
  }

  /// The same blob in format version 1: no dataset identifier, no frame
  /// bases, every CRC recomputed. The blocks are copied unchanged (their
  /// coding is the same in both versions).
  static func downgradeToVersion1(_ bytes: [UInt8]) throws -> [UInt8] {
    let header = try BlobReader.readHeader(bytes: bytes)
    var v1 = header
    v1.formatVersion = 1
    v1.dataset = ""
    var body = [UInt8]()
    var offset = UInt64(BlobHeader.headerSize(sectionCount: header.sections.count, formatVersion: 1))
    for (index, info) in header.sections.enumerated() {
      let start = body.count
      if info.section == .labels {
        body.append(contentsOf: bytes[Int(info.offset)..<Int(info.offset + info.length)])
      } else {
        var sectionCRC = CRC32C()
        for frame in frames(bytes, info, formatVersion: header.formatVersion) {
          var rewritten = Array(bytes[frame.offset..<(frame.offset + 16)])
          rewritten.append(contentsOf: bytes[(frame.offset + frame.headerSize)..<frame.end])
          let crc = CRC32C.checksum(rewritten[4...])
          store(UInt64(crc), &rewritten, 0, width: 4)
          sectionCRC.update(littleEndian: crc)
          body.append(contentsOf: rewritten)
        }
        v1.sections[index].checksum = sectionCRC.value
      }
      v1.sections[index].offset = offset
      v1.sections[index].length = UInt64(body.count - start)
      offset += UInt64(body.count - start)
    }
    v1.fileSize = offset
    return v1.serialized() + body
  }
}
