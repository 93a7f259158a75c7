import Testing

@testable import CallDirectoryCompiler

/// Which number fields the compiler takes for patterns, and which it
/// leaves to the normalizer.
@Suite struct WildcardCheckTests {
  static func token(_ text: String) -> String? {
    var copy = text
    guard let reason = copy.withUTF8({ WildcardCheck.reason(for: $0) }) else { return nil }
    // "looks like a … ('TOKEN'); …"
    guard let open = reason.firstRange(of: "('"), let close = reason.firstRange(of: "')") else { return reason }
    return String(reason[open.upperBound..<close.lowerBound])
  }

  @Test(arguments: [
    ("+5695977.*", ".*"), (#"^\+4121\d{6}$"#, #"\d"#), ("[0-9]{10}", "[0-9]"), ("+4121.+", ".+"),
    ("4121.+$", ".+"), ("+41 21.+56", ".+"), (".+41 21 560 00 00", ".+"), ("+4121 (?:560)", "(?"),
    ("0800****", "****"), ("+4121560????", "????"), ("+1 800 555 XXXX", "XXXX"), ("33162######", "######"),
  ])
  func patternsAreNamedByTheirFirstToken(text: String, expected: String) {
    #expect(Self.token(text) == expected)
  }

  /// A period that ends an abbreviation before `+` and the number is no
  /// `.+`: the line is a number, as libphonenumber reads it.
  @Test(arguments: [
    "Tel.+49 30 1234567", "T.+44 20 7946 0018", "Fax.+49 (30) 1234569", "Тел.+7 495 123-45-67",
    "Tél. +33 1 23 45 67 89", "+49 30 1234567", "1-800-FLOWERS", "tel:+41-21-560-00-00",
  ])
  func numbersWrittenWithAnAbbreviationAreNoPatterns(text: String) {
    #expect(Self.token(text) == nil)
  }

  @Test func anAbbreviatedNumberIsCompiled() throws {
    let workspace = try Workspace()
    try workspace.write("de.txt", "Tel.+49 30 1234567\nFax.+49 30 1234568\n+49 30.+1234569\n")
    try workspace.config([#"{"path": "de.txt", "format": "lines", "list": "block", "region": "DE"}"#])
    let (snapshot, rejects) = try workspace.compile()
    #expect(snapshot.blockingNumbers == [49_301_234_567, 49_301_234_568])
    #expect(rejects.count == 1)
    #expect(rejects.first?.hasPrefix("de.txt:3: looks like a regular expression ('.+')") == true)
  }
}
