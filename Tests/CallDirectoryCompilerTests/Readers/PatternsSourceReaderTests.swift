import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectorySources

/// One pattern line and what it must produce.
struct PatternCase: CustomTestStringConvertible, Sendable {
  var text: String
  var lower: Int64?
  var upper: Int64?
  var reason: String?

  var testDescription: String { "'\(text)'" }

  static func range(_ text: String, _ lower: Int64, _ upper: Int64) -> Self {
    PatternCase(text: text, lower: lower, upper: upper)
  }

  static func issue(_ text: String, _ reason: String) -> Self {
    PatternCase(text: text, reason: reason)
  }
}

@Suite struct PatternsSourceReaderTests {
  static let cases: [PatternCase] = [
    .range("+41215030004", 41_215_030_004, 41_215_030_004),
    .range("41215030004", 41_215_030_004, 41_215_030_004),
    .range("1#", 10, 19),
    .range("+1##", 100, 199),
    .range("33162######", 33_162_000_000, 33_162_999_999),
    .range("+4121560####", 41_215_600_000, 41_215_609_999),
    .range("33162000000-33162999999", 33_162_000_000, 33_162_999_999),
    .range("+33162000000 - +33162000000", 33_162_000_000, 33_162_000_000),
    .range("  +412150300##  # comment", 41_215_030_000, 41_215_030_099),
    .range("1\t#comment after tab", 1, 1),
    .range(
      "92233720368547758#", 922_337_203_685_477_580,
      922_337_203_685_477_589),
    .issue("922337203685477580#", "number too large"),
    .range(
      "9223372036854775806", 9_223_372_036_854_775_806,
      9_223_372_036_854_775_806),
    .range(
      "1##################", 1_000_000_000_000_000_000,
      1_999_999_999_999_999_999),
    .issue("9223372036854775807", "number too large"),
    .issue("92233720368547758##", "number too large"),
    .issue("9999999999999999999", "number too large"),
    .issue("12345678901234567890", "too many digits (at most 19)"),
    .issue("1###################", "too many digits (at most 19)"),
    .issue("41#2", "'#' wildcard must be trailing"),
    .issue("4#1#", "'#' wildcard must be trailing"),
    .issue("+###", "pattern has no digits before its wildcards"),
    .issue("1 ###", "detached '#' wildcards (remove the space before them)"),
    .issue("+", "pattern has no digits"),
    .issue("0", "leading zero is not allowed (e.164 numbers start with 1-9)"),
    .issue(
      "+041##", "leading zero is not allowed (e.164 numbers start with 1-9)"),
    .issue("-5", "negative numbers are not allowed"),
    .issue(
      "+41 21 560 ####", "detached '#' wildcards (remove the space before them)"
    ),
    .issue("+41 21 560", "spaces are not allowed inside a pattern"),
    .issue("+4121x", "invalid character 'x'"),
    .issue("+4121é", "invalid character 'é'"),
    .issue("4+1", "'+' is only allowed at the start"),
    .issue("20-10", "range lower bound is greater than upper bound"),
    .issue("100-99", "range bounds have different digit counts (3 and 2)"),
    .issue("10-", "range is missing its upper bound"),
    .issue("1-2-3", "more than one '-' in range"),
    .issue("10##-20##", "'#' wildcards are not allowed in a range"),
    .issue("+5695977.*", "invalid character '.'"),
  ]

  @Test(arguments: cases)
  func pattern(_ testCase: PatternCase) throws {
    let contents = try readAll(
      PatternsSourceReader(input: input("# header\n\n" + testCase.text + "\n")))
    #expect(contents.summary.dataLines == 1)
    if let lower = testCase.lower, let upper = testCase.upper {
      #expect(contents.issues == [])
      #expect(
        contents.ranges.map(\.range) == [
          NumberRange(lower: lower, upper: upper)
        ])
      #expect(contents.ranges.first?.line == 3)
    } else {
      #expect(contents.ranges.isEmpty)
      #expect(contents.issues.map(\.reason) == [testCase.reason])
      #expect(contents.issues.first?.line == 3)
    }
  }

  @Test func expansionIsExactAtTheBoundaries() throws {
    let contents = try readAll(PatternsSourceReader(input: input("+41215##\n")))
    let range = try #require(contents.ranges.first?.range)
    #expect(!range.contains(4_121_499))
    #expect(range.contains(4_121_500))
    #expect(range.contains(4_121_599))
    #expect(!range.contains(4_121_600))
    #expect(range.count == 100)
  }

  @Test func crlfBomCommentsAndInvalidUTF8() throws {
    let bytes: [UInt8] =
      [0xEF, 0xBB, 0xBF] + Array("# c\r\n1#\r\n\r\n".utf8)
      + [0x32, 0xC3, 0x0D, 0x0A] + Array("3 # caf\u{E9}\r\n".utf8)
    let contents = try readAll(PatternsSourceReader(input: .bytes(bytes)))
    #expect(contents.ranges.map(\.range.lower) == [10, 3])
    #expect(contents.ranges.map(\.line) == [2, 5])
    #expect(
      contents.issues == [
        SourceIssue(line: 4, reason: "invalid utf-8", text: "2\\xC3")
      ])
    #expect(contents.summary.physicalLines == 5)
  }

  @Test func numberRangeInvariants() {
    #expect(NumberRange(lower: 0, upper: 5) == nil)
    #expect(NumberRange(lower: 6, upper: 5) == nil)
    #expect(NumberRange(lower: 1, upper: Int64.max) == nil)
    #expect(NumberRange(lower: 5, upper: 5)?.count == 1)
  }

}
