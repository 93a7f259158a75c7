import PhoneNumbers
import Testing

@testable import CallDirectoryCompiler

/// Fields that hold several numbers, a wildcard block or a range, for a
/// source without the keys that read them: rejected with the key to set,
/// and counted as the numbers they hold; fields libphonenumber reads as one
/// number stay that number (the expected numbers were read with Python's
/// `phonenumbers`).
@Suite struct CellCheckTests {
  static let normalizer = PhoneNumberNormalizer()

  static func verdict(_ text: String, _ region: String, keys: CellKeys = .all) -> RecordAcceptance.Verdict {
    var copy = text
    return copy.withUTF8 {
      RecordAcceptance.number($0, normalizer: normalizer, region: normalizer.plan.region(region), cellKeys: keys)
    }
  }

  @Test(arguments: [
    ("DE", "0621 123456|0621 654321", #"several numbers in one cell ('|'); set "numberSeparator""#, 2),
    ("DE", "0621 123456 ::: 0621 654321", #"several numbers in one cell (':::'); set "numberSeparator""#, 2),
    ("DE", "0621 123456\n0621 654321", #"several numbers in one cell ('\n'); set "numberSeparator""#, 2),
    ("DE", "0621 123456 oder 0621 654321", #"several numbers in one cell (' oder '); set "numberSeparator""#, 2),
    ("AT", "01 234567 und 01 234568", #"several numbers in one cell (' und '); set "numberSeparator""#, 2),
    ("US", "(212) 555-0100 or (212) 555-0101", #"several numbers in one cell (' or '); set "numberSeparator""#, 2),
    ("US", "(212) 555-0100 and 212-555-0101", #"several numbers in one cell (' and '); set "numberSeparator""#, 2),
    ("DE", "0621 123456 & 0621 654321", #"several numbers in one cell (' & '); set "numberSeparator""#, 2),
    ("FR", "01 62 00 00 42 ; 01 62 00 00 43", #"several numbers in one cell (';'); set "numberSeparator""#, 2),
    ("FR", "01 62 00 00 42, 01 62 00 00 43", #"several numbers in one cell (','); set "numberSeparator""#, 2),
    ("CH", "+41 21 213 09 11 / +41 21 213 09 12", #"several numbers in one cell ('/'); set "numberSeparator""#, 2),
    // libphonenumber reads it as one 17-digit number, but each piece is a
    // whole number of its own, with the national prefix.
    ("DE", "030 12345 / 030 67890", #"several numbers in one cell ('/'); set "numberSeparator""#, 2),
    ("DE", "0621 1|0621 2XX|0621 300 bis 0621 399",
     #"several numbers in one cell ('|'); set "numberSeparator" (and "wildcard" and "rangeSeparator")"#, 1 + 100 + 100),
    ("DE", "0621 123XXX", #"a wildcard block in one cell ('XXX'); set "wildcard""#, 1000),
    ("US", "+1 800 555 XXXX", #"a wildcard block in one cell ('XXXX'); set "wildcard""#, 10000),
    ("DE", "0800 1234***", #"a wildcard block in one cell ('***'); set "wildcard""#, 1000),
    ("GB", "020 7946 0000 to 020 7946 0099", #"a range in one cell (' to '); set "rangeSeparator""#, 100),
    ("GB", "020 7946 0000 - 020 7946 0099", #"a range in one cell (' - '); set "rangeSeparator""#, 100),
    ("FR", "0162000000–0162000099", #"a range in one cell ('–'); set "rangeSeparator""#, 100),
    ("FR", "0162000000..0162000099", #"a range in one cell ('..'); set "rangeSeparator""#, 100),
    ("DE", "01521 2345600 bis 01521 2345699", #"a range in one cell (' bis '); set "rangeSeparator""#, 100),
    // Letters a keypad reads as digits: libphonenumber reads one number.
    ("DE", "0621 1 bis 0621 9", #"a range in one cell (' bis '); set "rangeSeparator""#, 9),
  ])
  func cellsThatHoldMoreThanOneNumberNameTheirKey(region: String, text: String, reason: String, numbers: Int) {
    guard case .rejected(let found, let count) = Self.verdict(text, region) else {
      Issue.record("\(text) was not rejected")
      return
    }
    #expect(found == reason)
    #expect(count == numbers)
    #expect(CellCheck.keys(in: found).isEmpty == false)
  }

  /// Numbers libphonenumber reads as one stay one (`phonenumbers` 9.0.43).
  @Test(arguments: [
    ("US", "+1 (212) 555-0142", 12_125_550_142), ("GB", "020 7946 0018", 442_079_460_018),
    ("US", "212-555-0142 ext. 12", 12_125_550_142), ("US", "212-555-0142 x12", 12_125_550_142),
    ("GB", "+44 20 7946 0018 #99", 442_079_460_018), ("US", "tel:+1-212-555-0100;ext=7", 12_125_550_100),
    ("DE", "0621/123456", 49_621_123_456), ("DE", "06211/234567", 496_211_234_567),
    ("DE", "+49 (0)621 / 1234-567", 496_211_234_567), ("DE", "030/1234567-89", 4_930_123_456_789),
    ("US", "1-800-FLOWERS", 18_003_569_377), ("DE", "Tel.+49 30 1234567", 49_301_234_567),
    ("DE", "0151 23456789|", 4_915_123_456_789), ("DE", "|0151 23456789", 4_915_123_456_789),
  ] as [(String, String, Int64)])
  func numbersReadAsOneStayOne(region: String, text: String, number: Int64) {
    guard case .number(let found) = Self.verdict(text, region) else {
      Issue.record("\(text): \(Self.verdict(text, region))")
      return
    }
    #expect(found == number)
  }

  /// An `identify` source holds no ranges: a block there is a pattern as
  /// before, and counts as one line; a format without the keys names none.
  @Test func reasonsNameOnlyKeysTheSourceMaySet() {
    guard case .rejected(let identify, let count) = Self.verdict("+1 800 555 XXXX", "US", keys: .numberSeparator) else {
      Issue.record("not rejected")
      return
    }
    #expect(identify.hasPrefix("looks like a wildcard pattern ('XXXX')"))
    #expect(count == 1)
    guard case .rejected(let jsonl, _) = Self.verdict("0621 123456|0621 654321", "DE", keys: []) else {
      Issue.record("not rejected")
      return
    }
    #expect(jsonl == "several numbers in one cell ('|')")
    #expect(CellCheck.keys(in: jsonl).isEmpty)
    guard case .rejected(let range, let rangeCount) = Self.verdict("0621 100 bis 0621 900", "DE", keys: .numberSeparator)
    else {
      Issue.record("not rejected")
      return
    }
    #expect(range == "a range in one cell (' bis ')")
    #expect(rangeCount == 1)
  }

  /// A `|` that joins no numbers is still a regular expression's.
  @Test func anAlternationOfNoNumbersIsARegularExpression() {
    guard case .rejected(let reason, _) = Self.verdict("(030|040) 1234567", "DE") else {
      Issue.record("not rejected")
      return
    }
    #expect(reason.hasPrefix("looks like a regular expression ('|')"))
  }

  @Test func keysAreFoundInReasons() {
    #expect(CellCheck.keys(in: #"several numbers in one cell ('|'); set "numberSeparator" (and "wildcard")"#)
      == ["numberSeparator", "wildcard"])
    #expect(CellCheck.keys(in: "too short").isEmpty)
  }
}
