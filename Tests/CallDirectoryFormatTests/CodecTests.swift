import Testing
@testable import CallDirectoryFormat
import CalldirSystem

@Suite struct CodecTests {
  @Test(arguments: [UInt64(0), 1, 127, 128, 300, 16_383, 16_384, 1 << 35, UInt64(Int64.max), UInt64.max])
  func varintRoundTrip(value: UInt64) {
    var bytes = [UInt8]()
    Varint.append(value, to: &bytes)
    #expect(bytes.count == Varint.size(value))
    bytes.append(contentsOf: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    bytes.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return }
      var cursor = _ByteCursor(base: base, end: raw.count)
      #expect(cursor.readVarint() == value)
    }
  }

  @Test func malformedVarints() {
    let cases: [[UInt8]] = [
      [],
      [0x80],
      [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02],
      [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x81, 0x00],
    ]
    for bytes in cases {
      let padded = bytes + [UInt8](repeating: 0, count: 16)
      padded.withUnsafeBytes { raw in
        guard let base = raw.baseAddress else { return }
        var cursor = _ByteCursor(base: base, end: bytes.count)
        #expect(cursor.readVarint() == nil)
      }
    }
  }

  @Test func bitWriterRoundTrip() {
    var writer = _BitWriter(into: [])
    let fields: [(UInt64, Int)] = [
      (1, 1), (0, 3), (0x1F, 5), (UInt64.max, 64), (12345, 17), (0, 0), (1 << 55, 56),
      ((1 << 62) - 1, 62), (3, 2), (0xABCDEF, 24),
    ]
    for (value, width) in fields { writer.write(value, width: width) }
    let bytes = writer.finish() + [UInt8](repeating: 0, count: 16)
    bytes.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return }
      var position = 0
      for (value, width) in fields {
        #expect(_readBits(base, position, width) == value)
        position += width
      }
    }
  }

  @Test func lowWidthChoice() {
    #expect(_BlockEncoder.bestLowWidth(count: 100, upper: 0) == 0)
    #expect(_BlockEncoder.bestLowWidth(count: 1000, upper: 316_000) == 8)
    #expect(_BlockEncoder.bestLowWidth(count: 1, upper: UInt64(Int64.max) - 2) <= 62)
  }
}
