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
    ("+4121560 #", "#"), ("+4121560#99", "#"), ("+41 21 560 ##99", "##"), ("+41 21 560 #1 #2", "#"),
    ("+41 21 560 #9x", "#"), ("T.++41 21 560 00 00", ".+"),
  ])
  func patternsAreNamedByTheirFirstToken(text: String, expected: String) {
    #expect(Self.token(text) == expected)
  }

  /// A period that ends an abbreviation before `+` and the number is no
  /// `.+`: the line is a number, as libphonenumber reads it.
  @Test(arguments: [
    "Tel.+49 30 1234567", "T.+44 20 7946 0018", "Fax.+49 (30) 1234569", "Тел.+7 495 123-45-67", "T.+８１ ３ ５５５５ ０１２３",
    "Tél. +33 1 23 45 67 89", "+49 30 1234567", "1-800-FLOWERS", "tel:+41-21-560-00-00",
  ])
  func numbersWrittenWithAnAbbreviationAreNoPatterns(text: String) {
    #expect(Self.token(text) == nil)
  }

  /// `#` and the digits that end a field are an extension, which
  /// libphonenumber reads apart from the number.
  @Test(arguments: ["+44 20 7946 0018 #99", "+1 212 555 0100 #12  ", "(212) 555-0100\t#7"])
  func aHashBeforeTheDigitsThatEndTheFieldMarksAnExtension(text: String) {
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

  @Test func aNumberWithAHashExtensionIsCompiled() throws {
    let workspace = try Workspace()
    try workspace.write("gb.csv", "number\n+44 20 7946 0018 #99\n+44 20 7946 0019#\n")
    try workspace.config([#"{"path": "gb.csv", "format": "csv", "list": "block", "number": "number", "region": "GB"}"#])
    let (snapshot, rejects) = try workspace.compile()
    #expect(snapshot.blockingNumbers == [442_079_460_018])
    #expect(rejects == [
      "gb.csv:3: looks like a wildcard pattern ('#'); wildcards need format 'patterns' (one '#' per digit, e.g. "
        + "33162######)\t+44 20 7946 0019#"
    ])
  }
}
