// Foundation next to UnicodeText (and so CICUShim) in the same target:
// this import is the check that ICU does not clash with _FoundationICU.
import Foundation
import Testing
@testable import UnicodeText

/// The scalars of a string, so tests compare exact code points rather than
/// Swift's canonical-equivalence `==`.
private func scalars(_ text: String) -> [UInt32] {
  text.unicodeScalars.map(\.value)
}

private func cleaned(
  _ raw: String, sanitizer: LabelSanitizer = LabelSanitizer()
) throws -> String {
  try sanitizer.sanitize(raw).get()
}

@Suite struct LabelSanitizerTests {
  @Test func defaultCapIs64() {
    #expect(LabelSanitizer().maximumCharacters == 64)
    #expect(LabelSanitizer.defaultMaximumCharacters == 64)
    #expect(LabelSanitizer(maximumCharacters: 0) == nil)
    #expect(LabelSanitizer(maximumCharacters: -3) == nil)
    #expect(LabelSanitizer(maximumCharacters: 10)?.maximumCharacters == 10)
  }

  @Test func composesToNFC() throws {
    let result = try cleaned("Caf" + "e\u{301}")
    #expect(scalars(result) == scalars("Caf\u{E9}"))
    // Hangul jamo compose too.
    #expect(scalars(try cleaned("\u{1100}\u{1161}")) == [0xAC00])
  }

  @Test func composesAcrossARemovedCharacter() throws {
    // The format character sits between base and mark; NFC runs after it
    // is stripped, so the pair still composes.
    #expect(scalars(try cleaned("e\u{200B}\u{301}")) == [0xE9])
  }

  @Test func stripsRightToLeftOverride() throws {
    let result = try cleaned("ACME \u{202E}knaB\u{202C} ltd")
    #expect(scalars(result) == scalars("ACME knaB ltd"))
  }

  @Test(arguments: [
    0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E,
    0x2066, 0x2067, 0x2068, 0x2069, 0x061C,
  ] as [UInt32])
  func stripsEveryBidiFormattingCharacter(_ codePoint: UInt32) throws {
    let mark = String(try #require(Unicode.Scalar(codePoint)))
    #expect(try cleaned("Ali" + mark + "ce") == "Alice")
    #expect(LabelSanitizer._isRemoved(try #require(Unicode.Scalar(codePoint))))
  }

  @Test func stripsControlAndFormatCharacters() throws {
    #expect(try cleaned("Bad\u{07}Bell\u{00}\u{7F}") == "BadBell")
    #expect(try cleaned("\u{FEFF}Hello") == "Hello")
    #expect(try cleaned("Zero\u{200B}Width") == "ZeroWidth")
    #expect(try cleaned("C1\u{9B}control") == "C1control")
  }

  @Test func collapsesAndTrimsWhiteSpace() throws {
    let raw = "  ACME\t\tBank\r\n\u{A0}Ltd\u{3000}\u{2028}Paris\u{85} "
    #expect(try cleaned(raw) == "ACME Bank Ltd Paris")
    // A removed character between spaces does not leave two spaces.
    #expect(try cleaned("a \u{200E} b") == "a b")
    // Line breaks separate words; they are not just deleted.
    #expect(try cleaned("ACME\nBank") == "ACME Bank")
  }

  @Test func keepsEmoji() throws {
    let raw = "\u{26A0}\u{FE0F} Spam 🚫 démarchage ✅"
    let result = try cleaned(raw)
    #expect(scalars(result) == scalars(raw))
    let family = "👨‍👩‍👧 Family"
    #expect(scalars(try cleaned(family)) == scalars(family))
  }

  @Test func keepsEmojiTagSequencesButNotStrayTags() throws {
    let england = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}"
    #expect(scalars(try cleaned(england + " fan")) == scalars(england + " fan"))
    // Tag characters elsewhere hide text; they go.
    #expect(try cleaned("A\u{E0041}\u{E0042}B") == "AB")
    // An unterminated tag run after a flag goes too.
    #expect(scalars(try cleaned("\u{1F3F4}\u{E0067}x")) == scalars("\u{1F3F4}x"))
  }

  @Test func capNeverSplitsAFamilyEmoji() throws {
    let family = "👨‍👩‍👧"
    let sanitizer = try #require(LabelSanitizer(maximumCharacters: 3))
    let result = try sanitizer.sanitize(String(repeating: family, count: 5)).get()
    #expect(scalars(result) == scalars(String(repeating: family, count: 3)))
    #expect(result.count == 3)

    let two = try #require(LabelSanitizer(maximumCharacters: 2))
    #expect(try two.sanitize("ab" + family).get() == "ab")
    #expect(
      scalars(try two.sanitize("a" + family + "b").get()) == scalars("a" + family))
  }

  @Test func capNeverSplitsAFlag() throws {
    let one = try #require(LabelSanitizer(maximumCharacters: 1))
    #expect(scalars(try one.sanitize("🇫🇷🇩🇪").get()) == scalars("🇫🇷"))
    let three = try #require(LabelSanitizer(maximumCharacters: 3))
    #expect(scalars(try three.sanitize("FR🇫🇷🇩🇪").get()) == scalars("FR🇫🇷"))
  }

  @Test func capCountsGraphemesNotScalars() throws {
    let five = try #require(LabelSanitizer(maximumCharacters: 5))
    // Five characters, some with combining marks that neither compose nor
    // reorder under NFC.
    let raw = "x\u{301}\u{302}y\u{330}bcd"
    #expect(scalars(try five.sanitize(raw + "xyz").get()) == scalars(raw))
  }

  @Test func longLabelIsCutAndFlagged() throws {
    let raw = String(repeating: "a", count: 200)
    let label = try LabelSanitizer().clean(raw).get()
    #expect(label.text == String(repeating: "a", count: 64))
    #expect(label.wasTruncated)
    #expect(label.wasModified)

    let exact = try LabelSanitizer().clean(String(repeating: "é", count: 64)).get()
    #expect(!exact.wasTruncated)
    #expect(!exact.wasModified)
  }

  @Test func normalizationCountsAsModification() throws {
    let label = try LabelSanitizer().clean("e\u{301}").get()
    #expect(label.wasModified)
    #expect(!label.wasTruncated)
  }

  @Test func truncationDoesNotLeaveATrailingSpace() throws {
    let four = try #require(LabelSanitizer(maximumCharacters: 4))
    #expect(try four.sanitize("abc def").get() == "abc")
  }

  @Test(arguments: ["", "   ", "\t\n\u{3000}", "\u{202E}\u{200E}", "\u{200B}", "\u{200D}\u{FE0F}"])
  func emptyAfterCleanupIsRejected(_ raw: String) {
    #expect(LabelSanitizer().sanitize(raw) == .failure(.empty))
  }

  @Test func rejectionMessagesAreLowercase() {
    #expect(LabelRejection.empty.description == "label is empty after cleanup")
    // Foundation's bridge uses LocalizedError.
    #expect(LabelRejection.empty.localizedDescription == "label is empty after cleanup")
    #expect(
      LabelRejection.invalidUTF8(offset: 3).description
        == "label is not valid utf-8 (bad byte at offset 3)")
  }

  @Test func validBytesAreCleaned() {
    let bytes: [UInt8] = Array(" Caf".utf8) + [0x65, 0xCC, 0x81] + [0x0A]
    #expect(LabelSanitizer().sanitize(bytes: bytes).map(scalars) == .success(scalars("Caf\u{E9}")))
    #expect(LabelSanitizer().sanitize(bytes: Data("ok".utf8)) == .success("ok"))
  }

  struct BadBytes: CustomTestStringConvertible, Sendable {
    let bytes: [UInt8]
    let offset: Int
    let name: String
    var testDescription: String { name }
  }

  @Test(arguments: [
    BadBytes(bytes: [0x41, 0xC3], offset: 1, name: "truncated sequence"),
    BadBytes(bytes: [0xC0, 0x80], offset: 0, name: "overlong nul"),
    BadBytes(bytes: [0x41, 0x42, 0xED, 0xA0, 0x80], offset: 2, name: "utf-16 surrogate"),
    BadBytes(bytes: [0x80], offset: 0, name: "stray continuation byte"),
    BadBytes(bytes: [0xF4, 0x90, 0x80, 0x80], offset: 0, name: "beyond U+10FFFF"),
    BadBytes(bytes: [0x61, 0xFF], offset: 1, name: "0xFF"),
  ])
  func invalidBytesAreRejected(_ testCase: BadBytes) {
    #expect(
      LabelSanitizer().sanitize(bytes: testCase.bytes)
        == .failure(.invalidUTF8(offset: testCase.offset)))
  }

  @Test(arguments: [
    "abc", "👨‍👩‍👧", "🇫🇷🇩🇪", "e\u{301}\u{302}", "नमस्ते", "ก่", "\u{1F3F4}\u{E0067}\u{E007F}",
    "a\r\nb", "👍🏽", "🧑‍💻x",
  ])
  func icuAndSwiftAgreeOnGraphemes(_ text: String) {
    #expect(_ICUText.graphemeCount(text) == text.count)
  }
}
