import CallDirectoryFormat
import Testing
@testable import CallDirectoryValidation

@Suite struct TextSortedTests {
  @Test func detectsTextSortedBlockingList() throws {
    // What `sort` (not `sort -n`) gives.
    let outcome = try validate("1\n10\n100\n2\n20\n3\n9\n")
    #expect(outcome.kinds == [.outOfOrder, .outOfOrder])
    #expect(outcome.summary.textSortedLists == [.blocking])
    let hint = try #require(outcome.summary.hint)
    #expect(hint.contains("blocking entries look sorted as text, not numerically"))
    #expect(hint.contains("e.g. 2 after 100"))
    #expect(hint.contains("sort -n"))
  }

  @Test func detectsTextSortedPhoneNumbers() throws {
    let numbers = ["18005551234", "33612345678", "4420794600", "4915112345678", "861012345678", "9"]
    let outcome = try validate(numbers.sorted().joined(separator: "\n") + "\n")
    #expect(!outcome.summary.isValid)
    #expect(outcome.summary.textSortedLists == [.blocking])
    #expect(outcome.summary.hint != nil)
  }

  @Test func detectsBothLists() throws {
    let outcome = try validate("10\n9\n10\tA\n9\tB\n")
    #expect(outcome.summary.textSortedLists == [.blocking, .identification])
    #expect(outcome.summary.hint?.hasPrefix("blocking and identification entries look sorted as text") == true)
  }

  @Test func reportedOnceEvenWhenTruncated() throws {
    let numbers = (1...500).map(String.init).sorted()
    let outcome = try validate(numbers.joined(separator: "\n"), maxReported: 3)
    #expect(outcome.violations.count == 3)
    #expect(outcome.summary.isTruncated)
    #expect(outcome.summary.hint != nil)
  }

  @Test func shuffledSameLengthNumbersAreNotTextSorted() throws {
    let outcome = try validate("33612345679\n33612345678\n33612345699\n33612345600\n")
    #expect(outcome.summary.errorCount == 2)
    #expect(outcome.summary.hint == nil)
  }

  @Test func oneMisplacedShortNumberIsNotTextSorted() throws {
    // 99 after 20000 is in text order, but 99 → 30000 descends as text.
    let outcome = try validate("10000\n20000\n99\n30000\n")
    #expect(outcome.kinds == [.outOfOrder])
    #expect(outcome.summary.hint == nil)
  }

  @Test func numericOrderIsNotFlagged() throws {
    let outcome = try validate("9\n10\n100\n")
    #expect(outcome.violations.isEmpty)
    #expect(outcome.summary.hint == nil)
  }

  @Test(arguments: [
    (Int64(9), 1, Int64(10), 2, false), (10, 2, 9, 1, true), (1, 1, 10, 2, true), (10, 2, 1, 1, false),
    (123, 3, 1234, 4, true), (2, 1, 1999, 4, false), (5, 1, 5, 1, false),
    (9_223_372_036_854_775_806, 19, 1, 1, false), (1, 1, 9_223_372_036_854_775_806, 19, true),
  ])
  func textOrder(_ a: Int64, _ aDigits: Int, _ b: Int64, _ bDigits: Int, _ less: Bool) {
    #expect(_ListChecker.textLess(a, aDigits, b, bDigits) == less)
    #expect((String(a) < String(b)) == less)
  }
}
