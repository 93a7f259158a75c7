import Testing

@testable import UnicodeText

@Suite struct TextTranscoderTests {
  /// Converts `bytes` in pieces of `piece` bytes into an output of `room`
  /// bytes at a time.
  func convert(_ bytes: [UInt8], encoding: String, piece: Int, room: Int) throws -> [UInt8] {
    let transcoder = try TextTranscoder(encoding: encoding)
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: room)
    var offset = 0
    repeat {
      let stop = min(bytes.count, offset + piece)
      let flush = stop == bytes.count
      var pending = Array(bytes[offset..<stop])
      while true {
        let step = try pending.withUnsafeBufferPointer { input in
          try buffer.withUnsafeMutableBufferPointer { out in
            try transcoder.convert(input, into: out, flush: flush)
          }
        }
        output += buffer[0..<step.produced]
        pending.removeFirst(step.consumed)
        if !step.needsMoreRoom { break }
      }
      #expect(pending.isEmpty)
      offset = stop
    } while offset < bytes.count
    return output
  }

  @Test(arguments: ["ISO-8859-1", "iso-8859-1", "latin1", "Latin1", "ISO_8859-1"])
  func latin1(name: String) throws {
    let output = try convert([0x43, 0x61, 0x66, 0xE9, 0x0A], encoding: name, piece: 2, room: 3)
    #expect(String(decoding: output, as: UTF8.self) == "Café\n")
  }

  @Test(arguments: ["Windows-1252", "windows-1252", "cp1252", "CP1252"])
  func windows1252(name: String) throws {
    // 0x80 is the euro sign in Windows-1252 (a C1 control in ISO-8859-1).
    let output = try convert([0x80, 0x20, 0xE9, 0x9C], encoding: name, piece: 1, room: 3)
    #expect(String(decoding: output, as: UTF8.self) == "€ éœ")
  }

  @Test func latin1ReadsByte0x80AsAControlNotTheEuro() throws {
    let output = try convert([0x80], encoding: "ISO-8859-1", piece: 1, room: 4)
    #expect(output == [0xC2, 0x80])
  }

  @Test func aMultibyteSequenceCutAcrossPiecesAndATinyOutputSurvives() throws {
    // "é€😀" in UTF-8, fed one byte at a time into room for one sequence.
    let text = "aé€😀z"
    for piece in 1...4 {
      let output = try convert(Array(text.utf8), encoding: "UTF-8", piece: piece, room: 4)
      #expect(String(decoding: output, as: UTF8.self) == text, "piece \(piece)")
    }
  }

  @Test(arguments: ["", "no-such-charset", "latin 1", "utf-8\u{0}"])
  func unknownNamesThrow(name: String) {
    #expect(throws: TranscodingError.unknownEncoding(name)) { try TextTranscoder(encoding: name) }
    #expect(!TextTranscoder.isKnown(name))
  }

  /// ICU's substitute callback, which the transcoder keeps: a sequence cut
  /// by the end of the input, flushed, is one U+FFFD, never an error.
  @Test func anInputEndingInsideASequenceEndsInAReplacementOnFlush() throws {
    let transcoder = try TextTranscoder(encoding: "UTF-8")
    var buffer = [UInt8](repeating: 0, count: 16)
    let input: [UInt8] = [0x61, 0xE2, 0x82]
    let step = try input.withUnsafeBufferPointer { input in
      try buffer.withUnsafeMutableBufferPointer { try transcoder.convert(input, into: $0, flush: true) }
    }
    #expect(step.consumed == 3 && step.produced == 4 && !step.needsMoreRoom)
    #expect(Array(buffer[0..<step.produced]) == Array("a\u{FFFD}".utf8))
  }
}
