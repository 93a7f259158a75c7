import CallDirectoryFormat
import Testing
@testable import CallDirectoryValidation

@Suite struct TextFormatTests {
  @Test func validListsAndCounts() throws {
    let outcome = try validate("5\n3\tA\n6\n4\tB\n")
    #expect(outcome.violations.isEmpty)
    #expect(outcome.summary.isValid)
    #expect(outcome.summary.entries == 4)
    #expect(outcome.summary.lists == [
      ListCount(list: .blocking, entries: 2), ListCount(list: .identification, entries: 2),
    ])
  }

  @Test(arguments: ["", "\n", "1\n2", "1\n2\n", "1\n2\n\n\n", "1\r\n2\r\n\r\n", "# only a comment"])
  func trailingEmptyLinesAndMissingFinalNewlineAreFine(_ text: String) throws {
    let outcome = try validate(text)
    #expect(outcome.violations.isEmpty)
    #expect(outcome.summary.isValid)
  }

  @Test func crlfLineBreaks() throws {
    let valid = try validate("1\r\n2\r\n3\tLabel\r\n4\tÉtiquette\r\n")
    #expect(valid.violations.isEmpty)
    #expect(valid.summary.entries == 4)

    let invalid = try validate("1\r\n3\r\n2\r\n\r\n5\t\r\n")
    #expect(invalid.kinds == [.outOfOrder, .emptyLine, .emptyLabel])
    #expect(invalid.lines == [3, 4, 5])
  }

  @Test func carriageReturnIsNotPartOfTheLabel() throws {
    let outcome = try validate("5\tSpam\r\n")
    #expect(outcome.violations.isEmpty)
  }

  @Test func commentsAreSkippedButCounted() throws {
    let outcome = try validate("# header\n5\n# middle\n3\n#\n")
    #expect(outcome.kinds == [.outOfOrder])
    #expect(outcome.lines == [4])
    #expect(outcome.summary.entries == 2)
  }

  @Test func anIndentedHashIsNotAComment() throws {
    let outcome = try validate(" # not a comment\n")
    #expect(outcome.kinds == [.notANumber])
  }

  @Test func chunkBoundariesDoNotChangeTheResult() throws {
    let text = "# c\r\n10\n9\r\n\n100\t\u{7}x\r\n2\t\n+3\n00\n" + String(repeating: "8", count: 25) + "\n5\n\n\n"
    let expected = try validate(text)
    #expect(expected.violations.count == 9)
    for chunkSize in [1, 2, 3, 5, 7, 13, 64] {
      let outcome = try validate(text, chunkSize: chunkSize)
      #expect(outcome.violations == expected.violations, "chunk \(chunkSize)")
      #expect(outcome.summary == expected.summary, "chunk \(chunkSize)")
    }
  }

  @Test func fastAndSlowPathsAgree() throws {
    // 19-digit numbers and CRLF take the slow path; 1–18 digits the fast one.
    let outcome = try validate("999999999999999999\r\n1000000000000000000\n9223372036854775806\n")
    #expect(outcome.violations.isEmpty)
    let reversed = try validate("1000000000000000000\n999999999999999999\r\n")
    #expect(reversed.kinds == [.outOfOrder])
    #expect(reversed.violations.first?.previous == 1_000_000_000_000_000_000)
  }
}
