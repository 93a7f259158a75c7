import Testing

@testable import PhoneNumbers

/// Validity and number types at the places libphonenumber's rules are
/// subtle: shared calling codes, leading zeros, non-geographic codes.
@Suite struct ValidityTests {
  let plan = NumberingPlan.standard

  func verdict(_ number: Int64) -> String {
    guard let validity = plan.validity(of: number) else { return "none" }
    return "\(validity.type) \(validity.isRegionResolved ? validity.regionCode : "ZZ")"
  }

  @Test(arguments: [
    // NANP: one calling code, 25 regions, told apart by area code.
    (12_015_550_123 as Int64, "fixedLineOrMobile US"),
    (16_135_550_123, "fixedLineOrMobile CA"),
    (12_684_601_234, "fixedLine AG"),
    (18_002_752_273, "tollFree US"),
    (19_005_550_123, "premiumRate US"),
    (11_234_567_890, "unknown ZZ"),
    // +44: Guernsey, Jersey and the Isle of Man inside the UK's code.
    (441_481_256_789, "fixedLine GG"),
    (447_781_123_456, "mobile GG"),
    (441_534_456_789, "fixedLine JE"),
    (441_624_756_789, "fixedLine IM"),
    (442_079_460_018, "fixedLine GB"),
    (447_400_123_456, "mobile GB"),
    // +7: Kazakhstan by leading digits 7.
    (77_012_345_678, "mobile KZ"),
    (74_951_234_567, "fixedLine RU"),
    // Italy's leading zero stays inside the number; the Vatican by 06698.
    (390_212_345_678, "fixedLine IT"),
    (390_669_881_234, "fixedLine VA"),
    (393_123_456_789, "mobile IT"),
    // Non-geographic codes.
    (80_012_345_678, "tollFree 001"),
    (80_812_345_678, "sharedCost 001"),
    (870_301_234_567, "mobile 001"),
    (881_612_345_678, "mobile 001"),
    (8_823_421_234, "mobile 001"),
    (883_510_012_345, "voip 001"),
    (88_812_345_678_901, "uan 001"),
    (88_213_456_789_012, "unknown 001"),
    (979_123_456_789, "premiumRate 001"),
    // A Chilean 600 number written with a stray "+": not Malaysian.
    (6_000_880_816, "unknown MY"),
    (41_446_681_800, "fixedLine CH"),
    (41_860_123_456_789, "voicemail CH"),
  ])
  func typeAndRegion(number: Int64, expected: String) {
    #expect(verdict(number) == expected)
  }

  @Test func aClassifierForSomeCallingCodesAgreesOnThem() throws {
    let some = plan.classifier(forCallingCodes: [41, 1])
    #expect(some.validity(of: 41_446_681_800) == plan.validity(of: 41_446_681_800))
    #expect(some.validity(of: 16_135_550_123) == plan.validity(of: 16_135_550_123))
    #expect(some.validity(of: 442_079_460_018) == nil)
    #expect(plan.callingCode(of: 442_079_460_018) == 44)
    #expect(plan.callingCode(of: 12_125_550_100) == 1)
    #expect(plan.callingCode(of: 88_213_456_789) == 882)
    #expect(plan.callingCode(of: 2_812_345) == nil)
  }

  @Test func unknownCallingCodesHaveNoVerdict() {
    #expect(plan.validity(of: 0) == nil)
    #expect(plan.validity(of: -41) == nil)
    #expect(plan.validity(of: 2_812_345_678) == nil)  // +28 is no calling code
  }

  @Test func invalidNumbersNameTheirRegion() throws {
    let validity = try #require(plan.validity(of: 6_000_880_816))
    #expect(!validity.isValid)
    #expect(validity.invalidReason == "invalid for region MY")
    // +1 numbers that fit no NANP region are reported for the main region.
    #expect(plan.validity(of: 11_234_567_890)?.invalidReason == "invalid for region US")
  }

  @Test func typeIndexesAreTheirPositions() {
    #expect(PhoneNumberType.allCases.map(\.index) == Array(0..<12))
  }

  @Test func typesHaveTheirJSONNames() {
    #expect(PhoneNumberType.allCases.map(\.rawValue) == [
      "fixedLine", "mobile", "fixedLineOrMobile", "tollFree", "premiumRate", "sharedCost", "voip",
      "personalNumber", "pager", "uan", "voicemail", "unknown",
    ])
  }

  @Test func combinedAutomatonTellsPatternsApart() throws {
    let automaton = try #require(DigitAutomaton(patterns: [
      try DigitPattern("\\d{3}"), try DigitPattern("12\\d"), try DigitPattern("(?:1|2)?"),
    ]))
    func mask(_ text: String) -> UInt16 {
      text.utf8.map { $0 - 48 }.withUnsafeBufferPointer { automaton.fullMatchMask($0) }
    }
    #expect(mask("123") == 0b011)
    #expect(mask("923") == 0b001)
    #expect(mask("") == 0b100)
    #expect(mask("2") == 0b100)
    #expect(mask("1234") == 0)
    let prefix = try #require(DigitAutomaton(try DigitPattern("06698|7")))
    func prefixMatches(_ text: String) -> Bool {
      text.utf8.map { $0 - 48 }.withUnsafeBufferPointer { prefix.matchesPrefix($0) }
    }
    #expect(prefixMatches("0669812"))
    #expect(prefixMatches("7"))
    #expect(!prefixMatches("0669"))
    #expect(!prefixMatches("8"))
  }
}
