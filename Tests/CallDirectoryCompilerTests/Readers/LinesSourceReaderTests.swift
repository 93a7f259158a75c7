import CalldirSystem
import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectorySources

@Suite struct LinesSourceReaderTests {
  @Test func plainNumbersWithLineNumbers() throws {
    let contents = try readAll(
      LinesSourceReader(input: input("+41215030004\n0886340395\n")))
    #expect(
      contents.records == [
        SourceRecord(number: "+41215030004", line: 1),
        SourceRecord(number: "0886340395", line: 2),
      ])
    #expect(contents.summary.dataLines == 2)
    #expect(contents.summary.physicalLines == 2)
  }

  @Test func byteOrderMarkAndCRLFAndNoFinalNewline() throws {
    let contents = try readAll(
      LinesSourceReader(
        input: input("\u{FEFF}+1 555 0100\r\n\r\n  123  \r\n456")))
    #expect(numbers(contents) == ["+1 555 0100", "123", "456"])
    #expect(contents.records.map(\.line) == [1, 3, 4])
    #expect(contents.summary.physicalLines == 4)
    #expect(contents.summary.dataLines == 3)
  }

  @Test func commentsAndBlankLinesAreNotDataLines() throws {
    let text = """
      # Spam Numbers List
      #\u{20}
         \t
      029034100 # AI voice. Colagen and joints medicine promo
      +35929036500 #\u{20}
      +35924373728\u{20}
      // a slash comment
      +41 21 000 00 00 // note
      http://example.com

      """
    let contents = try readAll(LinesSourceReader(input: input(text)))
    #expect(
      numbers(contents) == [
        "029034100", "+35929036500", "+35924373728", "+41 21 000 00 00",
        "http://example.com",
      ])
    #expect(contents.records.map(\.line) == [4, 5, 6, 8, 9])
    #expect(contents.summary.dataLines == 5)
  }

  @Test func dashDescriptionsNeedALetter() throws {
    let text = """
      +359 87 531 2009 - Vivacom Upsell Spam
      +359 86 531 6370 – Спам
      555 - 1234
      +1 555-123-4567
      02 903 - 6400 - call center
      +359 88 — 3

      """
    let contents = try readAll(LinesSourceReader(input: input(text)))
    #expect(
      numbers(contents) == [
        "+359 87 531 2009", "+359 86 531 6370", "555 - 1234",
        "+1 555-123-4567", "02 903 - 6400", "+359 88 — 3",
      ])
  }

  @Test func wildcardsAreRejectedNotTruncated() throws {
    let text = "+4121560####\n+41 21 560 ####\n+41 21 560 # ok\n123#x\n"
    let contents = try readAll(LinesSourceReader(input: input(text)))
    #expect(numbers(contents) == ["+41 21 560"])
    #expect(contents.issues.map(\.line) == [1, 2, 4])
    #expect(contents.issues.allSatisfy { $0.reason.contains("patterns") })
    #expect(contents.summary.dataLines == 4)
  }

  @Test func tabIsAnIssue() throws {
    let contents = try readAll(
      LinesSourceReader(input: input("+15550100\tAcme\n+15550101\t# c\n")))
    #expect(numbers(contents) == ["+15550101"])
    #expect(
      contents.issues == [
        SourceIssue(
          line: 1,
          reason: "tab inside number (labelled lists need format 'tsv')",
          text: "+15550100\\tAcme")
      ])
  }

  @Test func invalidUTF8IsAnIssueAndCommentsMayHoldAnyBytes() throws {
    var bytes = Array("+1555\u{0}".utf8).dropLast() + [0xFF, 0x0A]
    bytes += Array("+41 # caf".utf8) + [0xE9, 0x0A]
    bytes += Array("+44 ".utf8) + [0xED, 0xA0, 0x80, 0x0A]  // surrogate
    bytes += Array("Ünïcödé ok\n".utf8)
    let contents = try readAll(LinesSourceReader(input: .bytes(Array(bytes))))
    #expect(numbers(contents) == ["+41", "Ünïcödé ok"])
    #expect(contents.issues.map(\.line) == [1, 3])
    #expect(contents.issues.allSatisfy { $0.reason == "invalid utf-8" })
  }

  @Test func emptyAndCommentOnlyInputs() throws {
    for text in ["", "\n\n", "\u{FEFF}", "# only\r\n# comments"] {
      let contents = try readAll(LinesSourceReader(input: input(text)))
      #expect(contents.records.isEmpty)
      #expect(contents.summary.dataLines == 0)
    }
  }

  @Test func tooLongLineIsOneIssue() throws {
    let long = String(repeating: "1", count: (1 << 20) + 10)
    let reader = LinesSourceReader(input: input("+1\n\(long)\n+2\n"))
    let contents = try reader.readAll()
    #expect(numbers(contents) == ["+1", "+2"])
    // The report keeps the line's first 120 characters.
    #expect(contents.issues == [SourceIssue(line: 2, reason: "line too long", text: String(repeating: "1", count: 120))])
    #expect(contents.records.map(\.line) == [1, 3])
  }

  /// Lines that end in CR alone (classic Mac OS text) are lines, past the
  /// sample the choice is made on too; a CR in text with LFs stays as it is.
  @Test func linesEndingInCarriageReturnsAlone() throws {
    let numbers = (0..<600).map { "+1 212 555 \(1000 + $0)" }
    let contents = try readAll(LinesSourceReader(input: input(numbers.joined(separator: "\r") + "\r")))
    #expect(contents.records.map(\.number) == numbers)
    #expect(contents.records.last?.line == 600)
    let mixed = try readAll(LinesSourceReader(input: input("+1 212 555 0100\r\n+1 212\r555 0101\n")))
    #expect(mixed.records.map(\.number) == ["+1 212 555 0100", "+1 212\r555 0101"])
    // A CR LF cut by the end of the sample is no CR alone.
    let long = String(repeating: "1", count: 4095)
    let edge = try readAll(LinesSourceReader(input: input(long + "\r\n+1 212 555 0100\r\n")))
    #expect(edge.records.map(\.line) == [1, 2])
  }

  /// Text with a UTF-16 or UTF-32 byte-order mark (Windows "Unicode"
  /// text) is converted as it streams, in either byte order.
  @Test(arguments: [UnicodeEncodingForm.utf16LE, .utf16BE, .utf32LE, .utf32BE])
  func unicodeTextWithAByteOrderMarkIsConverted(form: UnicodeEncodingForm) throws {
    let bytes = form.encode("\u{FEFF}+1 555 0100\r\n# Zoé\r\n(212) 555-0101\r\n")
    let contents = try readAll(LinesSourceReader(input: .bytes(bytes)))
    #expect(numbers(contents) == ["+1 555 0100", "(212) 555-0101"])
    #expect(contents.records.map(\.line) == [1, 3])
    #expect(contents.summary.bytes == bytes.count)
  }

  @Test func missingFileThrows() throws {
    let reader = LinesSourceReader(input: .file(path: "/nonexistent/x.txt"))
    #expect(
      throws: SourceError.file(FileError(operation: "open", path: "/nonexistent/x.txt", errno: .noSuchFileOrDirectory))
    ) {
      try reader.readAll()
    }
    let directory = LinesSourceReader(input: .file(path: "/tmp"))
    #expect(throws: SourceError.file(FileError(operation: "read", path: "/tmp", errno: .isDirectory))) {
      try directory.readAll()
    }
  }

  @Test func bodyErrorStopsReading() throws {
    struct Stop: Error {}
    var seen = 0
    #expect(throws: Stop.self) {
      try LinesSourceReader(input: input("1\n2\n3\n")).read { _ in
        seen += 1
        if seen == 2 { throw Stop() }
      }
    }
    #expect(seen == 2)
  }

}

/// The compiler hands a `lines` line that is `+` and digits straight to the
/// normalizer's exact E.164 path: that is only right while the reader would
/// make the whole line a record.
@Suite struct BareNumberLineTests {
  @Test func everyPlusAndDigitsLineIsAWholeRecord() {
    #expect(LinesSourceReader._bareNumberLineIsRecord)
    var state: UInt64 = 7
    for length in 0...20 {
      for _ in 0..<50 {
        var line = [UInt8(ascii: "+")]
        for _ in 0..<length {
          state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
          line.append(UInt8(ascii: "0") + UInt8(state >> 60) % 10)
        }
        let outcome = line.withUnsafeBufferPointer { LinesSourceReader._parseLine($0.baseAddress!, $0.count) }
        #expect(outcome == .record(0, line.count), "\(String(decoding: line, as: UTF8.self))")
      }
    }
  }
}

/// The shortcut for lines of digits, `+`, spaces, parentheses and hyphens
/// gives what the full rules give, on such lines and on lines with one
/// other byte put in (a comment, a wildcard, a tab, a description, a
/// slash, a letter, non-ASCII).
@Suite struct PlainNumberLineTests {
  @Test func agreesWithTheFullRules() {
    let plain = Array("0123456789+ ()-".utf8)
    let others = Array("#*/.\tAx'\u{7F}".utf8) + [0xC3, 0xE2]
    var state: UInt64 = 9
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(state >> 33) % bound
    }
    for length in 0...(_PlainNumberLine.maximumBytes + 2) {
      for _ in 0..<400 {
        var line = (0..<length).map { _ in plain[next(plain.count)] }
        if length > 0 && next(3) == 0 { line[next(length)] = others[next(others.count)] }
        if length > 2 && next(4) == 0 { line[0] = 0x20 }
        if length > 2 && next(4) == 0 { line[length - 1] = 0x20 }
        let (shortcut, rules) = line.withUnsafeBufferPointer { buffer -> (_LineOutcome, _LineOutcome) in
          let p = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
          return (_parseLinesLine(p, buffer.count), _parseLinesLineByRules(p, buffer.count))
        }
        #expect(shortcut == rules, "\(line)")
      }
    }
  }
}
