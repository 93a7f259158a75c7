import CallDirectoryFormat

/// Rewrites the checksums of a blob the fuzzer has mutated, so that a
/// mutation reaches the decoders behind them instead of stopping at the
/// first CRC: the header's CRC and file size, each frame's CRC, each number
/// section's checksum over its frames and the labels section's checksum.
///
/// A CRC32C protects against accidents, not against a crafted file: whatever
/// a resealed input makes a reader do, a file on disk can make it do too.
/// The layout is the one in `schemas/` and `BlobHeader`; anything that does
/// not fit it is left as it is.
enum BlobResealing {
  private static let sectionEntrySize = 32
  private static let fixedHeaderSize: [UInt16: Int] = [1: 104, 2: 104 + BlobLimits.maxDatasetBytes]

  static func reseal(_ blob: inout [UInt8]) {
    guard blob.count >= 16, Array(blob[0..<4]) == BlobHeader.magic else { return }
    let formatVersion = UInt16(load(blob, 4, bytes: 2))
    let headerSize = Int(load(blob, 8, bytes: 4))
    let sectionCount = Int(load(blob, 12, bytes: 4))
    guard let fixed = fixedHeaderSize[formatVersion], sectionCount <= 16,
      headerSize == fixed + sectionEntrySize * sectionCount + 4, headerSize <= blob.count
    else { return }
    store(UInt64(blob.count), into: &blob, at: 16, bytes: 8)
    let frameHeaderSize = formatVersion >= 2 ? 24 : 16
    for index in 0..<sectionCount {
      let entry = fixed + index * sectionEntrySize
      let offset = load(blob, entry + 16, bytes: 8)
      let length = load(blob, entry + 24, bytes: 8)
      guard offset <= UInt64(blob.count), length <= UInt64(blob.count) - offset else { continue }
      let section = Int(offset)..<Int(offset + length)
      let checksum =
        blob[entry] == BlobSection.labels.rawValue
        ? crc(blob, section) : resealFrames(&blob, section, frameHeaderSize: frameHeaderSize)
      store(UInt64(checksum), into: &blob, at: entry + 4, bytes: 4)
    }
    store(UInt64(crc(blob, 0..<(headerSize - 4))), into: &blob, at: headerSize - 4, bytes: 4)
  }

  /// Rewrites each whole frame's CRC; returns the section checksum, the CRC
  /// of the frames' CRCs in little-endian order.
  private static func resealFrames(_ blob: inout [UInt8], _ section: Range<Int>, frameHeaderSize: Int) -> UInt32 {
    var sectionChecksum = CRC32C()
    var frame = section.lowerBound
    while section.upperBound - frame >= frameHeaderSize {
      let payload = Int(load(blob, frame + 4, bytes: 4))
      guard payload <= section.upperBound - frame - frameHeaderSize else { break }
      let checksum = crc(blob, (frame + 4)..<(frame + frameHeaderSize + payload))
      store(UInt64(checksum), into: &blob, at: frame, bytes: 4)
      withUnsafeBytes(of: checksum.littleEndian) { sectionChecksum.update($0) }
      frame += frameHeaderSize + payload
    }
    return sectionChecksum.value
  }

  private static func crc(_ blob: [UInt8], _ range: Range<Int>) -> UInt32 {
    var checksum = CRC32C()
    blob.withUnsafeBytes { checksum.update(UnsafeRawBufferPointer(rebasing: $0[range])) }
    return checksum.value
  }

  private static func load(_ blob: [UInt8], _ offset: Int, bytes: Int) -> UInt64 {
    guard offset >= 0, offset + bytes <= blob.count else { return 0 }
    var value: UInt64 = 0
    for index in (0..<bytes).reversed() { value = value << 8 | UInt64(blob[offset + index]) }
    return value
  }

  private static func store(_ value: UInt64, into blob: inout [UInt8], at offset: Int, bytes: Int) {
    guard offset >= 0, offset + bytes <= blob.count else { return }
    for index in 0..<bytes { blob[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
  }
}
