import CallDirectoryFormat
import CalldirHost
import FormatFixtures
import Foundation
import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectorySources

/// A regular file read as stretches, each by its own worker, gives the
/// lines a front-to-back scan gives (numbers, CR removal, a missing last
/// LF, a BOM, over-long lines, lines across any number of stretches) and
/// the checksum of the whole file.
@Suite struct FileStretchTests {
  /// Reads `bytes` from a file in stretches of `stretch` bytes; returns
  /// what a scan reports (as ``LineChunkerTests/reference(_:maxLineBytes:)``)
  /// and the joined checksum and size.
  static func scan(_ path: String, stretch: Int, maxLineBytes: Int) throws -> (lines: [String], checksum: UInt32, bytes: Int) {
    guard let file = try _SharedFile.openRegular(path) else { throw CocoaError(.fileReadUnknown) }
    let skip = try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4) { start in
      let got = try file.read(at: 0, count: 4, into: start.baseAddress!)
      return try _byteOrderMarkLength(UnsafeBufferPointer(start: start.baseAddress, count: got), name: path)
    }
    var seen: [String] = []
    var checksum = CRC32C().value
    var total = 0
    var lines = 0
    let buffer = ByteBuffer()
    var start = 0
    repeat {
      let end = start + stretch
      let piece = _FileStretch(file: file, start: start, end: end, isLast: end >= file.size, skip: skip)
      let contents = try piece.read(into: buffer, maxLineBytes: maxLineBytes)
      let base = UnsafePointer(buffer.base)
      let linePiece = _LinePiece(
        bytes: UnsafeBufferPointer(start: base + contents.lines.lowerBound, count: contents.lines.count),
        endsWithTooLongLine: contents.tooLongStart != nil,
        tooLongStart: contents.tooLongStart.map { UnsafeBufferPointer(start: base + $0.lowerBound, count: $0.count) }
          ?? UnsafeBufferPointer(start: nil, count: 0))
      lines += _forEachLine(
        in: linePiece, firstLine: lines + 1, maxLineBytes: maxLineBytes,
        onLine: { p, length, line in
          seen.append("\(line):" + String(decoding: UnsafeBufferPointer(start: p, count: length), as: UTF8.self))
        },
        onTooLong: { line, _ in seen.append("\(line):too long") })
      checksum = CRC32C.combine(checksum, contents.checksum, secondLength: contents.byteCount)
      total += contents.byteCount
      start = end
    } while start < file.size
    return (seen, checksum, total)
  }

  static func checksum(_ bytes: [UInt8]) -> UInt32 {
    var crc = CRC32C()
    bytes.withUnsafeBytes { crc.update($0) }
    return crc.value
  }

  @Test func randomFilesReadInStretchesLikeAPlainSplit() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/source.txt"
    var generator = SplitMix64(seed: 7)
    let alphabet = Array("0123456789ab \r\n\n".utf8)
    for round in 0..<300 {
      var bytes = (0..<Int.random(in: 0..<120, using: &generator)).map { _ in
        alphabet.randomElement(using: &generator) ?? 0x30
      }
      if round % 5 == 0 { bytes = [0xEF, 0xBB, 0xBF] + bytes }
      if round % 7 == 0 { bytes += [UInt8](repeating: 0x31, count: 40) }  // a long last line
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let maxLineBytes = Int.random(in: 1...12, using: &generator)
      // Text that ends lines in CR alone is never read in stretches.
      let expected = LineChunkerTests.reference(bytes, maxLineBytes: maxLineBytes, crLines: false)
      for stretch in [1, 2, 3, 7, 16, 1 << 10] {
        let scanned = try Self.scan(path, stretch: stretch, maxLineBytes: maxLineBytes)
        #expect(scanned.lines == expected, "stretch \(stretch), max \(maxLineBytes), input \(bytes)")
        #expect(scanned.checksum == Self.checksum(bytes))
        #expect(scanned.bytes == bytes.count)
      }
    }
  }

  /// A line far longer than the limit and than a stretch is reported once,
  /// by the stretch it starts in; the next line is read normally.
  @Test func aLineLongerThanManyStretches() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/source.txt"
    let bytes = Array(("+41215600000\n" + String(repeating: "9", count: 5000) + "\r\n+41215600001").utf8)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    for stretch in [10, 100, 4999, 5000, 5001] {
      let scanned = try Self.scan(path, stretch: stretch, maxLineBytes: 64)
      #expect(scanned.lines == ["1:+41215600000", "2:too long", "3:+41215600001"], "stretch \(stretch)")
      #expect(scanned.checksum == Self.checksum(bytes))
    }
  }
}
