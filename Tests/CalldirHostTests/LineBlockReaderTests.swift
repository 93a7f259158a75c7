import CalldirHost
import CalldirSystem
import Dispatch
import FormatFixtures
import Testing

/// `LineBlockReader` must hand out the lines a plain split on LF gives, in
/// blocks of whole lines, whatever the reads deliver: lines across read
/// ends, CR LF split between reads, too-long lines at every position
/// under each policy, CR-only text, a last line without LF, empty input,
/// and a pipe that delivers a byte at a time.
@Suite struct LineBlockReaderTests {
  /// A source that delivers `bytes` in reads of `readSize` bytes; with
  /// `paused`, it has nothing ready after each read (a slow pipe).
  final class TrickleSource: LineBlockSource {
    /// Never thrown: what `ChunkedInput` would throw.
    typealias Failure = FileError
    let bytes: [UInt8]
    let readSize: Int
    let paused: Bool
    private var offset = 0
    private(set) var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var end = 0
    private(set) var isEOF = false
    private(set) var reads = 0

    init(_ bytes: [UInt8], readSize: Int, paused: Bool = false) {
      self.bytes = bytes
      self.readSize = max(1, readSize)
      self.paused = paused
      capacity = 16
      base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    var hasInputReady: Bool { !paused }

    func refill(keepingFrom keep: Int) throws(FileError) {
      let kept = end - keep
      if keep > 0, kept > 0 { base.update(from: base + keep, count: kept) }
      end = kept
      reads += 1
      let count = min(readSize, bytes.count - offset)
      guard count > 0 else {
        isEOF = true
        return
      }
      if capacity - end < count {
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: end + count + capacity)
        grown.update(from: base, count: end)
        base.deallocate()
        base = grown
        capacity = end + count + capacity
      }
      for index in 0..<count { base[end + index] = bytes[offset + index] }
      offset += count
      end += count
    }
  }

  /// A line as handed out: its bytes (LF included when it has one), or a
  /// too-long line's first bytes.
  enum Line: Equatable, CustomStringConvertible {
    case line([UInt8])
    case tooLong([UInt8])

    var description: String {
      switch self {
      case .line(let bytes): "line \(String(decoding: bytes, as: UTF8.self).debugDescription)"
      case .tooLong(let bytes): "too long \(String(decoding: bytes, as: UTF8.self).debugDescription)"
      }
    }
  }

  /// What the reader must give: the input split after each LF (CR-only
  /// text on CR), a line with more than `maxLineBytes` before its LF too
  /// long.
  static func reference(
    _ input: [UInt8], maxLineBytes: Int, policy: LineBlockReader<TrickleSource>.TooLongLines, keep: Int = 0,
    decidesLineEndings: Bool = false, endsLastLine: Bool = false
  ) -> [Line] {
    var bytes = input
    let crAlone = bytes.withUnsafeBufferPointer {
      LineEndings.endInCarriageReturnsAlone(UnsafeBufferPointer(rebasing: $0.prefix(LineEndings.sampleBytes)))
    }
    if decidesLineEndings && crAlone {
      bytes = bytes.map { $0 == 0x0D ? 0x0A : $0 }
    }
    var lines: [Line] = []
    var start = 0
    while start < bytes.count {
      let newline = bytes[start...].firstIndex(of: 0x0A)
      let contentEnd = newline ?? bytes.count
      if contentEnd - start > maxLineBytes {
        switch policy {
        case .report: lines.append(.tooLong(Array(bytes[start..<(start + keep)])))
        case .truncate:
          let kept = Array(bytes[start..<(start + maxLineBytes)])
          lines.append(.line(Array(kept.prefix(characterBoundary(kept)))))
        }
      } else if let newline {
        lines.append(.line(Array(bytes[start...newline])))
      } else {
        lines.append(.line(Array(bytes[start...]) + (endsLastLine ? [0x0A] : [])))
      }
      start = (newline ?? bytes.count) + 1
    }
    return lines
  }

  /// The length of `bytes` without a last character it may cut short.
  static func characterBoundary(_ bytes: [UInt8]) -> Int {
    var start = bytes.count
    while start > 0 && bytes.count - start < 3 && bytes[start - 1] & 0xC0 == 0x80 { start -= 1 }
    return start > 0 && bytes[start - 1] >= 0xC0 ? start - 1 : start
  }

  /// A block's bytes and marks, copied (its bytes last until the next block).
  struct Block {
    var bytes: [UInt8]
    var inputPaused: Bool
  }

  /// Reads every block: the lines they hold, and the blocks.
  static func read(_ reader: LineBlockReader<TrickleSource>) throws -> (lines: [Line], blocks: [Block]) {
    var lines: [Line] = []
    var blocks: [Block] = []
    while let block = try reader.next() {
      blocks.append(Block(bytes: Array(block.bytes), inputPaused: block.inputPaused))
      var line: [UInt8] = []
      for byte in block.bytes {
        line.append(byte)
        if byte == 0x0A {
          lines.append(.line(line))
          line = []
        }
      }
      if !line.isEmpty { lines.append(.line(line)) }
      if block.endsWithTooLongLine { lines.append(.tooLong(Array(block.tooLongStart))) }
    }
    #expect(try reader.next() == nil)
    return (lines, blocks)
  }

  static let alphabet = Array("0123456789+ \r\n\n".utf8) + [0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80]

  @Test func randomInputsSplitLikeAPlainSplitUnderEveryPolicy() throws {
    var generator = SplitMix64(seed: 35)
    for round in 0..<300 {
      let bytes = (0..<Int.random(in: 0..<120, using: &generator)).map { _ in
        Self.alphabet.randomElement(using: &generator) ?? 0x30
      }
      let maxLineBytes = Int.random(in: 1...12, using: &generator)
      let keep = Int.random(in: 0...(maxLineBytes + 1), using: &generator)
      let endsLastLine = round % 2 == 0
      // A cut line keeps a character when the limit holds one (5 bytes or more).
      let policies: [(LineBlockReader<TrickleSource>.TooLongLines, Int)] = [
        (.report(keepingFirst: keep), maxLineBytes), (.truncate, max(5, maxLineBytes)),
      ]
      for (policy, maxLineBytes) in policies {
        let expected = Self.reference(
          bytes, maxLineBytes: maxLineBytes, policy: policy, keep: keep, endsLastLine: endsLastLine)
        for readSize in [1, 2, 3, 7, 16, 1 << 10] {
          for minimumBytes in [1, 5, 64] {
            let reader = LineBlockReader(
              TrickleSource(bytes, readSize: readSize), maxLineBytes: maxLineBytes, tooLongLines: policy,
              minimumBytes: minimumBytes, endsLastLine: endsLastLine)
            #expect(
              try Self.read(reader).lines == expected,
              "read \(readSize), max \(maxLineBytes), \(policy), minimum \(minimumBytes), input \(bytes)")
          }
        }
      }
    }
  }

  @Test func blocksHoldWholeLinesAndReachTheirMinimum() throws {
    let bytes = Array((0..<400).map { "+1212555\($0)\n" }.joined().utf8) + Array("+1999".utf8)
    for readSize in [1, 5, 100, 1 << 12] {
      let reader = LineBlockReader(
        TrickleSource(bytes, readSize: readSize), maxLineBytes: 64, tooLongLines: .report(keepingFirst: 0),
        minimumBytes: 300)
      let blocks = try Self.read(reader).blocks
      #expect(blocks.dropLast().allSatisfy { $0.bytes.last == 0x0A && !$0.inputPaused })
      // Each block but the last was handed out once 300 bytes were read: at
      // most one read and one partial line past its minimum.
      #expect(blocks.dropLast().allSatisfy { $0.bytes.count >= 300 - 16 && $0.bytes.count <= 300 + readSize + 16 })
      #expect(blocks.last.map { Array($0.bytes.suffix(5)) } == Array("\n+1999".utf8.suffix(5)))
    }
  }

  @Test func tooLongLinesAtEveryPositionAndLength() throws {
    let maxLineBytes = 8
    for length in [7, 8, 9, 10, 30] {
      for position in 0..<4 {
        for terminated in [true, false] {
          var lines = ["+1", "+22", "+333"].map { Array($0.utf8) }
          lines.insert(Array(repeating: UInt8(ascii: "9"), count: length), at: min(position, lines.count))
          var bytes = lines.map { $0 + [0x0A] }.joined().map { $0 }
          if !terminated { bytes.removeLast() }
          for policy in [LineBlockReader<TrickleSource>.TooLongLines.report(keepingFirst: 3), .truncate] {
            let expected = Self.reference(bytes, maxLineBytes: maxLineBytes, policy: policy, keep: 3)
            let reported = expected.contains { if case .tooLong = $0 { true } else { false } }
            if case .report = policy { #expect(reported == (length > 8)) } else { #expect(!reported) }
            for readSize in 1...12 {
              let reader = LineBlockReader(
                TrickleSource(bytes, readSize: readSize), maxLineBytes: maxLineBytes, tooLongLines: policy)
              #expect(
                try Self.read(reader).lines == expected, "length \(length) at \(position), read \(readSize), \(policy)")
            }
          }
        }
      }
    }
  }

  @Test func aTruncatedLineEndsOnAWholeCharacter() throws {
    // "é" is two bytes: the fifth and sixth of the line.
    let bytes = Array("1234é5678\n+1\n".utf8)
    let reader = LineBlockReader(TrickleSource(bytes, readSize: 3), maxLineBytes: 5, tooLongLines: .truncate)
    #expect(try Self.read(reader).lines == [.line(Array("1234".utf8)), .line(Array("+1\n".utf8))])
  }

  @Test func crlfSplitAcrossReadsStaysWithItsLine() throws {
    // 4 bytes and CR: within a limit of 5 (the CR counts), whatever the reads.
    let bytes = Array("1234\r\n12345\r\n1\r\n".utf8)
    for readSize in 1...8 {
      let reader = LineBlockReader(
        TrickleSource(bytes, readSize: readSize), maxLineBytes: 5, tooLongLines: .report(keepingFirst: 2))
      #expect(
        try Self.read(reader).lines == [
          .line(Array("1234\r\n".utf8)), .tooLong(Array("12".utf8)), .line(Array("1\r\n".utf8)),
        ],
        "read \(readSize)")
    }
  }

  @Test func textWhoseLinesEndInCRAloneIsSplitOnCR() throws {
    let crText = Array("+1\r+22\r+333\r".utf8)
    let mixed = Array("+1\r+22\n+333\r".utf8)
    for readSize in [1, 2, 5, 64] {
      for (bytes, expected) in [
        (crText, ["+1\n", "+22\n", "+333\n"]), (mixed, ["+1\r+22\n", "+333\r"]),
        (
          Array("+1\r".utf8) + Array(repeating: UInt8(ascii: "1"), count: 5000) + Array("\r+2\r".utf8),
          ["+1\n", "too long", "+2\n"]
        ),
      ] {
        let reader = LineBlockReader(
          TrickleSource(bytes, readSize: readSize), maxLineBytes: 4096, tooLongLines: .report(keepingFirst: 0),
          decidesLineEndings: true)
        let lines = try Self.read(reader).lines.map {
          switch $0 {
          case .line(let bytes): String(decoding: bytes, as: UTF8.self)
          case .tooLong: "too long"
          }
        }
        #expect(lines == expected, "read \(readSize)")
      }
    }
    // Decided on the first 4 KiB: an LF after them does not undo it.
    let late =
      Array(repeating: UInt8(ascii: "1"), count: 10) + [0x0D] + Array(repeating: UInt8(ascii: "2"), count: 5000) + [0x0A]
    let reader = LineBlockReader(
      TrickleSource(late, readSize: 1000), maxLineBytes: 1 << 14, tooLongLines: .report(keepingFirst: 0),
      decidesLineEndings: true)
    #expect(try Self.read(reader).lines.count == 2)
  }

  @Test func theLastLineMayLackItsLineFeed() throws {
    for endsLastLine in [false, true] {
      let reader = LineBlockReader(
        TrickleSource(Array("+1\n+22".utf8), readSize: 2), maxLineBytes: 8, tooLongLines: .report(keepingFirst: 0),
        endsLastLine: endsLastLine)
      #expect(
        try Self.read(reader).lines == [
          .line(Array("+1\n".utf8)), .line(Array(("+22" + (endsLastLine ? "\n" : "")).utf8)),
        ])
    }
  }

  @Test func emptyInputHasNoBlocks() throws {
    let reader = LineBlockReader(
      TrickleSource([], readSize: 4), maxLineBytes: 8, tooLongLines: .truncate, endsLastLine: true)
    #expect(try reader.next() == nil)
    let chunked = LineBlockReader(try ChunkedInput(.bytes([])), maxLineBytes: 8, tooLongLines: .truncate)
    #expect(try chunked.next() == nil)
  }

  /// A pipe that delivers a byte at a time and has nothing more ready in
  /// between: each line is handed out as soon as it is whole, marked
  /// (`inputPaused`), however large the minimum.
  @Test func aPipeDeliveringAByteAtATimeGetsEachLineAtOnce() throws {
    let bytes = Array("+12125550100\n+12125550101\n+1212".utf8)
    let reader = LineBlockReader(
      TrickleSource(bytes, readSize: 1, paused: true), maxLineBytes: 64, tooLongLines: .report(keepingFirst: 0),
      minimumBytes: 1 << 20)
    let blocks = try Self.read(reader).blocks
    #expect(blocks.map { String(decoding: $0.bytes, as: UTF8.self) } == ["+12125550100\n", "+12125550101\n", "+1212"])
    #expect(blocks.map(\.inputPaused) == [true, true, false])
  }

  /// The same over a real pipe, through `ChunkedInput`: a writer that waits
  /// for each line's block before it writes the next.
  @Test func aRealPipeHandsOutEachLineBeforeTheNextIsWritten() throws {
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    let lines = (0..<5).map { "+1212555010\($0)\n" }
    let handoff = Handoff()
    DispatchQueue.global().async {
      for line in lines {
        try? writeEnd.writeAll(Array(line.utf8))
        // Wait until the reader has the line; a reader that waited for
        // more would keep this waiting until the time-out.
        if handoff.handed.wait(timeout: .now() + 10) == .timedOut { handoff.timedOut = true }
      }
      try? writeEnd.close()
      handoff.done.signal()
    }
    defer { try? readEnd.close() }
    let reader = LineBlockReader(
      try ChunkedInput(.descriptor(readEnd, name: "pipe"), chunkSize: 1 << 16), maxLineBytes: 64,
      tooLongLines: .report(keepingFirst: 0), minimumBytes: 1 << 16)
    var got: [String] = []
    while let block = try reader.next() {
      got.append(String(decoding: block.bytes, as: UTF8.self))
      handoff.handed.signal()
    }
    handoff.done.wait()
    #expect(got == lines)
    #expect(!handoff.timedOut)
  }

  final class Handoff: @unchecked Sendable {
    let handed = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    /// Written by the writer before it signals `done`.
    var timedOut = false
  }
}
