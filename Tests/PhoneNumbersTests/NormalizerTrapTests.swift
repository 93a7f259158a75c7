import Testing

@testable import PhoneNumbers

/// A normalization example: input, default region ("ZZ" for none), expected
/// digits or nil when rejected.
struct Trap: CustomTestStringConvertible, Sendable {
  let input: String
  let region: String
  let expected: Int64?
  init(_ input: String, _ region: String, _ expected: Int64?) {
    self.input = input
    self.region = region
    self.expected = expected
  }
  var testDescription: String { "\(input.debugDescription) / \(region)" }
}

@Suite struct NormalizerTrapTests {
  let normalizer = PhoneNumberNormalizer()

  func check(_ trap: Trap) {
    let region = trap.region == "ZZ" ? nil : normalizer.plan.region(trap.region)
    let result = normalizer.normalize(trap.input, region: region)
    if let expected = trap.expected {
      #expect(result == .success(expected))
    } else {
      #expect(throws: NormalizationRejection.self) { try result.get() }
    }
  }

  @Test(arguments: [
    Trap("020 7946 0018", "GB", 442_079_460_018),
    Trap("+44 (0)20 7946 0018", "ZZ", 442_079_460_018),
    Trap("+44 020 7946 0018", "ZZ", 442_079_460_018),
    Trap("030 1234567", "DE", 49_301_234_567),
    Trap("4930123456", "DE", 4_930_123_456),  // the leading 49 is read as the country code
    Trap("442079460018", "GB", 442_079_460_018),  // leading code removed
    Trap("0912 345 678", "ES", nil),  // Spain has no trunk prefix
    Trap("06 98 81 23 45", "FR", 33_698_812_345),
  ])
  func trunkPrefixes(_ trap: Trap) { check(trap) }

  @Test(arguments: [
    Trap("011 44 20 7946 0018", "US", 442_079_460_018),
    Trap("00 44 20 7946 0018", "DE", 442_079_460_018),
    Trap("8 10 44 20 7946 0018", "RU", 442_079_460_018),
    Trap("0011 44 20 7946 0018", "AU", 442_079_460_018),
    Trap("00 44 20 7946 0018", "RU", 700_442_079_460_018),  // 00 is no IDD in Russia
    Trap("++44 20 7946 0018", "ZZ", 442_079_460_018),
    Trap("+ +44 20 7946 0018", "ZZ", nil),
    Trap("+44+20 7946 0018", "ZZ", nil),
    Trap("+999 1234567", "ZZ", nil),
    Trap("00 1", "DE", nil),
  ])
  func internationalPrefixes(_ trap: Trap) { check(trap) }

  @Test(arguments: [
    Trap("0343 15 555 1212", "AR", 5_493_435_551_212),
    Trap("+54 11 15 2345 6789", "ZZ", 5_491_123_456_789),
    Trap("15 2345 6789", "AR", 541_523_456_789),
    Trap("460 1234", "AG", 12_684_601_234),  // area code added to a local number
    Trap("8 (495) 123-45-67", "RU", 74_951_234_567),
    Trap("+7 8 495 123 45 67", "ZZ", 74_951_234_567),
    Trap("0 21 12345678", "BR", 552_112_345_678),
  ])
  func transformRules(_ trap: Trap) { check(trap) }

  @Test(arguments: [
    Trap("06 6988 1234", "IT", 390_669_881_234),
    Trap("+39 06 6988 1234", "ZZ", 390_669_881_234),
    Trap("+39 06 698 12345", "ZZ", 390_669_812_345),
  ])
  func italianLeadingZeros(_ trap: Trap) { check(trap) }

  @Test(arguments: [
    Trap("800 555 1234;ext=9", "US", 18_005_551_234),
    Trap("020 7946 0018 x 1234", "GB", 442_079_460_018),
    Trap("(530) 583-6985 x302/x2303", "US", 15_305_836_985),
    Trap("800-555-1234,,55", "US", 18_005_551_234),
    Trap("800-555-1234 #123", "US", 18_005_551_234),
    Trap("800 555 1234 доб 12", "US", 18_005_551_234),
    Trap("800 555 1234 x1234567890", "US", nil),
    Trap("212-555-0100 - 503#", "US", 12_125_550_100),
  ])
  func extensions(_ trap: Trap) { check(trap) }

  @Test(arguments: [
    Trap("1-800-FLOWERS", "US", 18_003_569_377),
    Trap("1-800-MICROSOFT", "US", nil),
    Trap("212-555-0100 (cell)", "US", nil),
    Trap("0800 REVERSE", "GB", 448_007_383_773),
  ])
  func vanityLetters(_ trap: Trap) { check(trap) }

  @Test(arguments: [
    Trap("２１２ ５５５ ０１００", "US", 12_125_550_100),
    Trap("٠٢٠ ٧٩٤٦ ٠٠١٨", "GB", 442_079_460_018),
    Trap("۰۲۰ ۷۹۴۶ ۰۰۱۸", "GB", 442_079_460_018),
    Trap("०२० ७९४६ ००१८", "GB", 442_079_460_018),
    Trap("＋４４ ２０ ７９４６ ００１８", "ZZ", 442_079_460_018),
    Trap("212\u{2011}555\u{2011}0100", "US", 12_125_550_100),
    Trap("212\u{00A0}555\u{00A0}0100", "US", 12_125_550_100),
    Trap("212²5550100", "US", nil),
  ])
  func unicodeDigitsAndPunctuation(_ trap: Trap) { check(trap) }

  @Test(arguments: [
    Trap("tel:+1-212-555-0100", "ZZ", 12_125_550_100),
    Trap("tel:212-555-0100;phone-context=+1", "ZZ", 12_125_550_100),
    Trap("tel:7946-0018;phone-context=+44-20", "ZZ", 442_079_460_018),
    Trap("tel:212-555-0100;phone-context=example.com", "US", 12_125_550_100),
    Trap("tel:212-555-0100;phone-context=", "US", nil),
    Trap("tel:212-555-0100;phone-context=+", "US", nil),
    Trap("tel:+1-212-555-0100;isub=12", "ZZ", 12_125_550_100),
    Trap("tel:+1-212-555-0100;foo=bar", "ZZ", nil),
  ])
  func telURIs(_ trap: Trap) { check(trap) }

  @Test(arguments: [
    Trap("Tel: +44 20 7946 0018", "ZZ", 442_079_460_018),
    Trap("=\"2125550100\"", "US", 12_125_550_100),
    Trap("2125550100.0", "US", nil),
    Trap("2.12555E+09", "US", nil),
    Trap("*67 212 555 0100", "US", nil),
    Trap("+1 212 555 0100 # robocall", "ZZ", nil),
    Trap("", "US", nil),
    Trap("   ", "US", nil),
    Trap("UNKNOWN", "US", nil),
    Trap(String(repeating: "1", count: 251), "US", nil),
  ])
  func leadingTextAndArtefacts(_ trap: Trap) { check(trap) }

  @Test(arguments: [
    Trap("+52 1 55 1234 5678", "ZZ", nil),
    Trap("044 55 1234 5678", "MX", nil),
    Trap("55 1234 5678", "MX", 525_512_345_678),
    Trap("+800 1234 5678", "ZZ", 80_012_345_678),
    Trap("555-0100", "US", 15_550_100),  // local-only length counts as possible
    Trap("0000000000", "US", 10_000_000_000),
  ])
  func countryNotes(_ trap: Trap) { check(trap) }

  @Test func rejectionReasonsAreSpecific() {
    let us = normalizer.plan.region("US")
    #expect(normalizer.normalize("hello", region: us) == .failure(.notANumber))
    #expect(normalizer.normalize("2125550100", region: nil) == .failure(.missingDefaultRegion))
    #expect(normalizer.normalize("+999 1234567", region: nil) == .failure(.invalidCountryCode))
    #expect(normalizer.normalize("011 44", region: us) == .failure(.tooShortAfterInternationalPrefix))
    #expect(normalizer.normalize("212 555", region: us) == .failure(.tooShort))
    #expect(normalizer.normalize("212 555 0100 1234", region: us) == .failure(.tooLong))
    #expect(NormalizationRejection.tooLong.description == "too long")
  }
}
