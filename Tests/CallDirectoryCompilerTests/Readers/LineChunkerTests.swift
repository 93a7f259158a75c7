import FormatFixtures
import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectorySources

/// The line chunker must cut exactly where a plain split on LF would, for
/// every buffer size and line-length limit: line numbers, CR removal, a
/// missing last LF, a BOM and over-long lines included; in text whose
/// lines end in CR alone, a split on CR.
@Suite struct LineChunkerTests {
  /// What a line scan reports: `n:text` per line, `n:too long` per long
  /// line; `crLines`: split text that ends lines in CR alone on CR.
  static func reference(_ bytes: [UInt8], maxLineBytes: Int, crLines: Bool = true) -> [String] {
    var body = bytes[...]
    if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
    if crLines && !body.contains(0x0A) && body.dropLast().contains(0x0D) {
      body = body.map { $0 == 0x0D ? 0x0A : $0 }[...]
    }
    var lines = body.split(separator: 0x0A, omittingEmptySubsequences: false)
    if lines.last?.isEmpty == true { lines.removeLast() }
    return lines.enumerated().map { index, line in
      var line = line
      if line.last == 0x0D { line = line.dropLast() }
      return line.count > maxLineBytes ? "\(index + 1):too long" : "\(index + 1):" + String(decoding: line, as: UTF8.self)
    }
  }

  static func scan(_ bytes: [UInt8], chunkSize: Int, maxLineBytes: Int) throws -> [String] {
    var seen: [String] = []
    let count = try _forEachLine(
      _ByteInput(.bytes(bytes), chunkSize: chunkSize), maxLineBytes: maxLineBytes,
      onLine: { p, length, line in
        seen.append("\(line):" + String(decoding: UnsafeBufferPointer(start: p, count: length), as: UTF8.self))
      },
      onTooLong: { line, _ in seen.append("\(line):too long") })
    #expect(count == seen.count)
    return seen
  }

  @Test func randomInputsSplitLikeAPlainSplit() throws {
    var generator = SplitMix64(seed: 42)
    let alphabet = Array("0123456789ab \r\n\n".utf8)
    for round in 0..<400 {
      var bytes = (0..<Int.random(in: 0..<90, using: &generator)).map { _ in
        alphabet.randomElement(using: &generator) ?? 0x30
      }
      if round % 5 == 0 { bytes = [0xEF, 0xBB, 0xBF] + bytes }
      let maxLineBytes = Int.random(in: 1...12, using: &generator)
      let expected = Self.reference(bytes, maxLineBytes: maxLineBytes)
      for chunkSize in [1, 2, 3, 7, 16, 1 << 10] {
        #expect(
          try Self.scan(bytes, chunkSize: chunkSize, maxLineBytes: maxLineBytes) == expected,
          "chunk size \(chunkSize), max \(maxLineBytes), input \(bytes)")
      }
    }
  }

  @Test func aLineOneByteOverTheLimitBeforeItsCRIsKept() throws {
    // 4 bytes + CR: exactly the limit once the CR is removed.
    let bytes = Array("1234\r\n12345\r\n".utf8)
    for chunkSize in [1, 2, 5, 64] {
      #expect(try Self.scan(bytes, chunkSize: chunkSize, maxLineBytes: 4) == ["1:1234", "2:too long"])
    }
  }

  @Test func piecesHoldWholeLines() throws {
    let bytes = Array((0..<500).map { "+1212555\($0)\n" }.joined().utf8)
    let chunker = try _LineChunker(_ByteInput(.bytes(bytes), chunkSize: 100), maxLineBytes: 64)
    var pieces = 0
    var joined: [UInt8] = []
    while let piece = try chunker.next() {
      pieces += 1
      #expect(piece.bytes.last == 0x0A)
      joined.append(contentsOf: piece.bytes)
    }
    #expect(pieces > 10)
    #expect(joined == bytes)
  }
}
