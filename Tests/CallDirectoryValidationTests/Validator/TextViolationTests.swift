import CallDirectoryFormat
import Testing
@testable import CallDirectoryValidation

/// One input with the single violation it must produce.
struct ViolationCase: CustomTestStringConvertible, Sendable {
  var name: String
  var input: [UInt8]
  var kind: ViolationKind
  var line: Int
  var list: BlobSection?
  var number: Int64?
  var previous: Int64?
  var messageContains: String

  init(
    _ name: String, _ input: String, _ kind: ViolationKind, line: Int, list: BlobSection? = .blocking,
    number: Int64? = nil, previous: Int64? = nil, message: String
  ) {
    self.init(name, Array(input.utf8), kind, line: line, list: list, number: number, previous: previous, message: message)
  }

  init(
    _ name: String, _ input: [UInt8], _ kind: ViolationKind, line: Int, list: BlobSection? = .blocking,
    number: Int64? = nil, previous: Int64? = nil, message: String
  ) {
    self.name = name
    self.input = input
    self.kind = kind
    self.line = line
    self.list = list
    self.number = number
    self.previous = previous
    self.messageContains = message
  }

  var testDescription: String { name }
}

@Suite struct TextViolationTests {
  static let cases: [ViolationCase] = [
    .init("out of order", "100\n200\n150\n300\n", .outOfOrder, line: 3, number: 150, previous: 200,
          message: "out of order: 150 after 200 in the blocking list"),
    .init("out of order, identification", "1\tA\n3\tB\n2\tC\n", .outOfOrder, line: 3, list: .identification,
          number: 2, previous: 3, message: "2 after 3 in the identification list"),
    .init("duplicate", "18005551234\n18005551234\n", .duplicate, line: 2, number: 18_005_551_234,
          previous: 18_005_551_234, message: "duplicate: 18005551234"),
    .init("duplicate identification with two labels", "5\tA\n5\tB\n", .duplicate, line: 2,
          list: .identification, number: 5, previous: 5, message: "duplicate"),
    .init("zero", "1\n0\n2\n", .outOfRange, line: 2, number: 0, message: "0 is not in 1...9223372036854775806"),
    .init("negative", "-5\n", .outOfRange, line: 1, number: -5, message: "-5 is not in 1..."),
    .init("int64 max", "9223372036854775807\n", .outOfRange, line: 1, number: Int64.max,
          message: "exceeds 9223372036854775806"),
    .init("overflow", "12\n99999999999999999999\n", .outOfRange, line: 2, number: nil,
          message: "99999999999999999999 exceeds"),
    .init("overflow with label", "123456789012345678901234567890\tX\n", .outOfRange, line: 1,
          list: .identification, message: "exceeds"),
    .init("leading plus", "+18005551234\n", .notANumber, line: 1, message: "leading '+' is not allowed"),
    .init("dashes", "1-800-555-1234\n", .notANumber, line: 1, message: "contains separators"),
    .init("spaces", "1 800 555 1234\n", .notANumber, line: 1, message: "contains spaces"),
    .init("trailing space", "18005551234 \n", .notANumber, line: 1, message: "contains spaces"),
    .init("leading zero", "0033612345678\n", .notANumber, line: 1, message: "leading zero"),
    .init("letters", "1\nhello\n", .notANumber, line: 2, message: "not a number: 'hello'"),
    .init("byte order mark", "\u{FEFF}18005551234\n", .notANumber, line: 1, message: "byte order mark"),
    .init("missing number", "\tLabel\n", .notANumber, line: 1, list: .identification, message: "missing number"),
    .init("lone minus", "-\n", .notANumber, line: 1, message: "not a number: '-'"),
    .init("empty label", "1\n33612345678\t\n", .emptyLabel, line: 2, list: .identification,
          number: 33_612_345_678, message: "empty label for 33612345678"),
    .init("invalid utf-8", [0x35, 0x09, 0x41, 0xFF, 0x0A], .invalidUTF8, line: 1, list: .identification,
          number: 5, message: "label for 5 is not valid utf-8"),
    .init("overlong utf-8", [0x35, 0x09, 0xC0, 0xAF, 0x0A], .invalidUTF8, line: 1, list: .identification,
          number: 5, message: "not valid utf-8"),
    .init("surrogate", [0x35, 0x09, 0xED, 0xA0, 0x80, 0x0A], .invalidUTF8, line: 1, list: .identification,
          number: 5, message: "not valid utf-8"),
    .init("control character", "5\tBell\u{7}\n", .controlCharacter, line: 1, list: .identification,
          number: 5, message: "contains control character U+0007"),
    .init("carriage return inside a label", "5\tA\rB\r\n", .controlCharacter, line: 1, list: .identification,
          number: 5, message: "U+000D"),
    .init("second tab", "5\tA\tB\n", .controlCharacter, line: 1, list: .identification,
          number: 5, message: "U+0009"),
    .init("empty line", "1\n\n2\n", .emptyLine, line: 2, list: nil, message: "empty line"),
    .init("empty line before a comment", "1\n\n# end\n", .emptyLine, line: 2, list: nil, message: "empty line"),
  ]

  @Test(arguments: cases)
  func reportsTheViolation(_ testCase: ViolationCase) throws {
    let outcome = try validate(bytes: testCase.input)
    #expect(outcome.violations.count == 1, "\(outcome.violations)")
    let violation = try #require(outcome.violations.first)
    #expect(violation.kind == testCase.kind)
    #expect(violation.line == testCase.line)
    #expect(violation.entry == nil)
    #expect(violation.list == testCase.list)
    #expect(violation.number == testCase.number)
    #expect(violation.previous == testCase.previous)
    #expect(violation.message.contains(testCase.messageContains), "\(violation.message)")
    #expect(outcome.summary.isValid == (testCase.kind.severity == .warning))
    #expect(outcome.summary.format == .text)
  }

  @Test func largestNumberIsValid() throws {
    let outcome = try validate("1\n9223372036854775806\n")
    #expect(outcome.violations.isEmpty)
    #expect(outcome.summary.isValid)
  }

  @Test func everyKindAtTheRightLineInOneFile() throws {
    let text = """
      # a comment
      10
      9
      9
      0
      +1800
      5\t
      6\tA\u{1}

      7\t\u{FF}
      """
    var bytes = Array(text.utf8)
    // Replace the UTF-8 encoding of U+00FF (C3 BF) with a lone 0xFF byte.
    if let index = bytes.firstIndex(of: 0xC3) { bytes.replaceSubrange(index...(index + 1), with: [0xFF]) }
    let outcome = try validate(bytes: bytes)
    #expect(outcome.kinds == [
      .outOfOrder, .duplicate, .outOfRange, .notANumber, .emptyLabel, .controlCharacter, .emptyLine, .invalidUTF8,
    ])
    #expect(outcome.lines == [3, 4, 5, 6, 7, 8, 9, 10])
    #expect(outcome.summary.errorCount == 7)
    #expect(outcome.summary.warningCount == 1)
    #expect(outcome.summary.lists == [
      ListCount(list: .blocking, entries: 5), ListCount(list: .identification, entries: 3),
    ])
  }

  @Test func oneMisplacedEntryIsOneViolation() throws {
    let outcome = try validate("1\n2\n99\n3\n4\n5\n")
    #expect(outcome.kinds == [.outOfOrder])
    #expect(outcome.violations.first?.number == 3)
    #expect(outcome.violations.first?.previous == 99)
  }

  @Test func tooLongLineIsSkipped() throws {
    let long = String(repeating: "7", count: 100)
    for chunkSize in [1, 5, 64, 1 << 20] {
      let outcome = try validate("1\n\(long)\n2\n\(long)\t\(long)\n3", maxLineLength: 64, chunkSize: chunkSize)
      #expect(outcome.kinds == [.lineTooLong, .lineTooLong], "chunk \(chunkSize)")
      #expect(outcome.lines == [2, 4], "chunk \(chunkSize)")
      #expect(outcome.summary.entries == 3, "chunk \(chunkSize)")
    }
    let longLabel = try validate("1\t\(String(repeating: "a", count: 100))\n2\tb\n", maxLineLength: 64)
    #expect(longLabel.kinds == [.lineTooLong])
    #expect(longLabel.summary.lists.last?.entries == 1)
    let last = try validate("1\n\(long)", maxLineLength: 64, chunkSize: 7)
    #expect(last.kinds == [.lineTooLong])
    #expect(last.lines == [2])
  }

  /// A line of exactly the limit ended by CR LF is within it, and one byte
  /// more is not, wherever the reads split them (the CR before the LF is
  /// not counted, even when a read ends between them).
  @Test func theLimitLeavesOutTheCROfCRLFWhereverTheReadsEnd() throws {
    let atLimit = "1" + String(repeating: "\t", count: 63)
    let over = atLimit + "a"
    for chunkSize in 1...70 {
      let within = try validate("1\r\n\(atLimit)\r\n2\r\n\(atLimit)\r", maxLineLength: 64, chunkSize: chunkSize)
      #expect(!within.kinds.contains(.lineTooLong), "chunk \(chunkSize)")
      #expect(within.summary.entries == 4, "chunk \(chunkSize)")
      let beyond = try validate("1\r\n\(over)\r\n2\r\n", maxLineLength: 64, chunkSize: chunkSize)
      #expect(beyond.kinds == [.lineTooLong], "chunk \(chunkSize)")
      #expect(beyond.lines == [2], "chunk \(chunkSize)")
    }
  }
}
