import FormatFixtures
import Testing

@testable import PhoneNumbers

/// `possibilityRejection`: libphonenumber's `is_possible_number` on E.164
/// digits, for single numbers and for every number of a range at once.
@Suite struct PossibilityTests {
  let plan = NumberingPlan.standard
  let normalizer = PhoneNumberNormalizer()

  @Test(arguments: [
    (3950 as Int64, NormalizationRejection?.some(.tooShort)),  // a French short code read as +39 50
    (33_162_000_000, nil), (12_125_550_100, nil), (1, .tooShortAfterInternationalPrefix),
    (44, .tooShortAfterInternationalPrefix), (395, .tooShort), (687, .tooShort), (2_800_000_000, .invalidCountryCode),
    (2_999_999_999, .tooLong),
    (33_162_000_0000, .tooLong), (4_930_123, nil),
  ])
  func singleNumbers(number: Int64, expected: NormalizationRejection?) {
    #expect(plan.possibilityRejection(ofE164: number) == expected)
  }

  /// For a number written `+` and digits whose national number starts with
  /// no national prefix, the verdict is the normalizer's.
  @Test func agreesWithTheNormalizerOnE164Digits() {
    var random = SplitMix64(seed: 33)
    var compared = 0
    for _ in 0..<200_000 {
      let digits = 3 + Int(random.next() % 14)
      var number: Int64 = 1 + Int64(random.next() % 9)
      for _ in 1..<digits { number = number * 10 + Int64(random.next() % 10) }
      let normalized = normalizer.normalize("+\(number)", region: nil)
      switch normalized {
      case .success(let value):
        // The normalizer took a national prefix off: other digits.
        guard value == number else { continue }
        #expect(plan.possibilityRejection(ofE164: number) == nil, "+\(number)")
      case .failure(let rejection):
        #expect(plan.possibilityRejection(ofE164: number) == rejection, "+\(number)")
      }
      compared += 1
    }
    #expect(compared > 100_000)
  }

  @Test(arguments: [
    // One calling code, one length: the verdict of its first number.
    (33_162_000_000 as Int64, 33_162_999_999 as Int64, NormalizationRejection?.none),
    (10, 19, .tooShortAfterInternationalPrefix), (100, 199, .tooShort), (3_950, 3_959, .tooShort),
    // Several calling codes: kept while one leaves a possible length.
    (30_000_000_000, 39_999_999_999, nil),
    (20_000_000_000, 20_999_999_999, nil),
    (28_000, 28_999, .invalidCountryCode),
    // Bounds of different lengths, or reversed, are not judged here.
    (999, 1_000, nil),
  ])
  func ranges(lower: Int64, upper: Int64, expected: NormalizationRejection?) {
    #expect(plan.possibilityRejection(ofRange: lower, upper) == expected)
  }

  /// A range is rejected exactly when each of its numbers is: checked
  /// number by number on small ranges across calling codes.
  @Test func aRangeIsImpossibleExactlyWhenEachOfItsNumbersIs() {
    var random = SplitMix64(seed: 7)
    for _ in 0..<400 {
      let digits = 3 + Int(random.next() % 6)
      var lower: Int64 = 1 + Int64(random.next() % 9)
      for _ in 1..<digits { lower = lower * 10 + Int64(random.next() % 10) }
      var limit: Int64 = 1
      for _ in 0..<digits { limit *= 10 }
      let upper = min(limit - 1, lower + Int64(random.next() % 3_000))
      let anyPossible = (lower...upper).contains { plan.possibilityRejection(ofE164: $0) == nil }
      #expect((plan.possibilityRejection(ofRange: lower, upper) == nil) == anyPossible, "\(lower)...\(upper)")
    }
  }
}
