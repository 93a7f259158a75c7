import Testing
@testable import CallDirectoryFormat

/// The version 2 frame header: `CRC-32C | payload length | entry count |
/// base`, the CRC over everything after it, the base the last number of the
/// previous frame.
@Suite struct FrameLayoutTests {
  static let numbers = randomNumbers(count: 120_000, below: 1 << 36, seed: 6)

  @Test func framesRecordTheirBase() throws {
    let bytes = try encodeFull(blocking: Self.numbers)
    let header = try BlobReader.readHeader(bytes: bytes)
    let info = try #require(header.info(.blocking))
    let frames = BlobSurgery.frames(bytes, info, formatVersion: 2)
    #expect(frames.count >= 3)
    #expect(frames.last?.end == Int(info.offset + info.length))
    var position = 0
    var sectionCRC = CRC32C()
    for frame in frames {
      #expect(frame.headerSize == 24)
      let stored = UInt32(BlobSurgery.load(bytes, frame.offset, width: 4))
      #expect(stored == CRC32C.checksum(bytes[(frame.offset + 4)..<frame.end]))
      sectionCRC.update(littleEndian: stored)
      let count = Int(BlobSurgery.load(bytes, frame.offset + 8, width: 8))
      let base = BlobSurgery.load(bytes, frame.offset + 16, width: 8)
      #expect(base == (position == 0 ? 0 : UInt64(Self.numbers[position - 1])))
      position += count
    }
    #expect(position == Self.numbers.count)
    #expect(sectionCRC.value == info.checksum)
  }

  /// A sequential read checks each base against the last number it decoded.
  @Test(arguments: [0, 1, 2])
  func sequentialReadRejectsAWrongBase(_ frameIndex: Int) throws {
    var bytes = try encodeFull(blocking: Self.numbers)
    let info = try #require(try BlobReader.readHeader(bytes: bytes).info(.blocking))
    let frame = BlobSurgery.frames(bytes, info, formatVersion: 2)[frameIndex]
    let base = BlobSurgery.load(bytes, frame.offset + 16, width: 8)
    BlobSurgery.store(base + 1, &bytes, frame.offset + 16, width: 8)
    BlobSurgery.reseal(&bytes)
    let reader = try BlobReader(bytes: bytes)
    #expect(throws: BlobError.corrupt(
      "blocking section: frame base \(base + 1) is not the last number before the frame, \(base)")) {
      _ = try drain(reader.blocking())
    }
    #expect(throws: BlobError.self) { try reader.verify() }
  }

  @Test func frameHeaderParsing() throws {
    var header = [UInt8](repeating: 0, count: 24)
    BlobSurgery.store(0xDEAD_BEEF, &header, 0, width: 4)
    BlobSurgery.store(100, &header, 4, width: 4)
    BlobSurgery.store(7, &header, 8, width: 8)
    BlobSurgery.store(42, &header, 16, width: 8)
    let parse = { (bytes: [UInt8], version: UInt16) in
      try bytes.withUnsafeBytes { try _FrameHeader.parse($0, formatVersion: version, section: .blocking) }
    }
    #expect(try parse(header, 2) == _FrameHeader(storedChecksum: 0xDEAD_BEEF, payloadLength: 100, entryCount: 7, base: 42))
    #expect(try parse(header, 1) == _FrameHeader(storedChecksum: 0xDEAD_BEEF, payloadLength: 100, entryCount: 7, base: nil))
    #expect(throws: BlobError.truncated(section: .blocking)) { try parse(Array(header[0..<23]), 2) }
    #expect(try parse(Array(header[0..<16]), 1).size == 16)
    var bad = header
    BlobSurgery.store(UInt64(BlobLimits.maxNumber), &bad, 16, width: 8)
    #expect(throws: BlobError.self) { try parse(bad, 2) }
    bad = header
    BlobSurgery.store(0, &bad, 8, width: 8)
    #expect(throws: BlobError.self) { try parse(bad, 2) }
    bad = header
    BlobSurgery.store(65_537, &bad, 4, width: 4)
    #expect(throws: BlobError.self) { try parse(bad, 2) }
  }
}
