/// The header of one frame of a number section (`blob-format.md` §4.1).
///
/// Format version 2 (24 bytes):
/// `CRC-32C (4) | payload length (4) | entry count (8) | base (8)`, where
/// `base` is the last number of the previous frame of the section (0 for the
/// first frame). Version 1 (16 bytes) has no base. The CRC covers every byte
/// of the frame after itself: the rest of the header and the payload.
struct _FrameHeader: Equatable {
  /// The CRC-32C stored in the frame.
  var storedChecksum: UInt32
  /// Payload bytes after the header, `1...BlobLimits.maxFramePayload`.
  var payloadLength: Int
  /// Entries coded by the frame's blocks, at least 1.
  var entryCount: UInt64
  /// The last number of the previous frame (0 for the first frame); `nil`
  /// in format version 1, which does not store it.
  var base: UInt64?

  /// The largest frame header of any format version.
  static let maxSize = 24

  /// The header size in format version `formatVersion`.
  static func size(formatVersion: UInt16) -> Int {
    formatVersion >= 2 ? 24 : 16
  }

  /// The header size of this frame.
  var size: Int { base == nil ? 16 : 24 }

  /// Parses and range-checks the header at the start of `raw`.
  ///
  /// - Throws: `BlobError.truncated(section:)` if `raw` is shorter than a
  ///   header; `BlobError.corrupt` for a payload length outside
  ///   `1...maxFramePayload`, an entry count of 0, or a base that leaves no
  ///   room for a number above it.
  static func parse(
    _ raw: UnsafeRawBufferPointer, formatVersion: UInt16, section: BlobSection
  ) throws(BlobError) -> _FrameHeader {
    guard raw.count >= size(formatVersion: formatVersion), let bytes = raw.baseAddress else {
      throw BlobError.truncated(section: section)
    }
    let length = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self)))
    let count = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
    guard length >= 1 && length <= BlobLimits.maxFramePayload else {
      throw BlobError.corrupt(
        "\(section) section: frame payload length \(length) is outside 1...\(BlobLimits.maxFramePayload)")
    }
    guard count >= 1 else { throw BlobError.corrupt("\(section) section: frame declares no entries") }
    var base: UInt64?
    if formatVersion >= 2 {
      let stored = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
      guard stored < UInt64(BlobLimits.maxNumber) else {
        throw BlobError.corrupt("\(section) section: frame base \(stored) leaves no number above it")
      }
      base = stored
    }
    return _FrameHeader(
      storedChecksum: UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self)),
      payloadLength: length, entryCount: count, base: base)
  }

  /// Throws unless the stored CRC matches the frame at the start of
  /// `frame` (``size`` header bytes, then ``payloadLength`` payload bytes).
  /// - Throws: `BlobError.truncated(section:)` if `frame` is shorter than
  ///   that, `BlobError.checksumMismatch(section:)` if the CRC differs.
  func verifyChecksum(_ frame: UnsafeRawBufferPointer, section: BlobSection) throws(BlobError) {
    guard frame.count >= size + payloadLength else { throw BlobError.truncated(section: section) }
    let covered = UnsafeRawBufferPointer(rebasing: frame[4..<(size + payloadLength)])
    guard CRC32C.checksum(covered) == storedChecksum else {
      throw BlobError.checksumMismatch(section: section)
    }
  }

  /// The version 2 header bytes (CRC included) for `payload`.
  static func serialized(
    payload: UnsafeRawBufferPointer, entryCount: UInt64, base: UInt64
  ) -> (bytes: [UInt8], checksum: UInt32) {
    var bytes = [UInt8](repeating: 0, count: 4)
    bytes.reserveCapacity(maxSize)
    _appendLE(UInt32(payload.count), to: &bytes)
    _appendLE(entryCount, to: &bytes)
    _appendLE(base, to: &bytes)
    var crc = CRC32C()
    bytes.withUnsafeBytes { crc.update(UnsafeRawBufferPointer(rebasing: $0[4...])) }
    crc.update(payload)
    let checksum = crc.value
    withUnsafeBytes(of: checksum.littleEndian) { bytes.replaceSubrange(0..<4, with: $0) }
    return (bytes, checksum)
  }
}
