import CallDirectoryFormat
import PhoneNumbers
import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectoryStore

/// `CallingCodeTally`: entries per country calling code, in one ascending walk.
@Suite struct CallingCodeTallyTests {
  /// The longest prefix of 1–3 digits that is a calling code, number by number.
  static func naiveCode(_ number: Int64, _ codes: Set<Int>) -> Int {
    guard number > 0 else { return 0 }
    let digits = Array(String(number))
    for length in stride(from: min(3, digits.count), through: 1, by: -1) {
      if let prefix = Int(String(digits.prefix(length))), codes.contains(prefix) { return prefix }
    }
    return 0
  }

  @Test func numbersAreCountedUnderTheirCallingCode() {
    var tally = CallingCodeTally(plan: .standard)
    let numbers: [Int64] = [
      2, 5, 7, 999_123, 12_125_550_100, 12_125_550_101, 41_212_130_000, 41_212_130_001, 41_791_234_567,
      442_079_460_018, 8_001_234_5678, 9_223_372_036_854_775_807,
    ]
    for number in numbers.sorted() { tally.add(number) }
    #expect(tally.counts[1] == 2)
    #expect(tally.counts[41] == 3)
    #expect(tally.counts[44] == 1)
    #expect(tally.counts[800] == 1)
    #expect(tally.counts[7] == 1)
    // Int64.max starts with 92 (Pakistan); its run is clamped instead of overflowing.
    #expect(tally.counts[92] == 1)
    // 2, 5 and 999… start with no calling code.
    #expect(tally.counts[0] == 3)
    #expect(tally.counts.reduce(0, +) == numbers.count)
  }

  @Test(arguments: [1, 2, 3])
  func theWalkAgreesWithANumberByNumberLookup(seed: UInt64) {
    let codes = Set(NumberingPlan.standard.callingCodes)
    var state = seed
    var numbers: [Int64] = []
    for _ in 0..<20_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let length = Int(state >> 60) + 1
      var upper: Int64 = 1
      for _ in 0..<length { upper *= 10 }
      numbers.append(Int64((state >> 3) % UInt64(upper - 1)) + 1)
    }
    numbers = Array(Set(numbers)).sorted()
    var tally = CallingCodeTally(plan: .standard)
    for number in numbers { tally.add(number) }
    var expected = [Int](repeating: 0, count: 1000)
    for number in numbers { expected[Self.naiveCode(number, codes)] += 1 }
    #expect(tally.counts == expected)
  }

  @Test func aBlobSectionIsCountedABufferAtATime() throws {
    let blocking = (0..<20_000).map { 41_212_000_000 + Int64($0) * 3 } + [442_079_460_018]
    let snapshot = Snapshot(
      version: 1, blocking: blocking, identification: [IdentificationEntry(number: 12_125_550_100, label: "Clinic")])
    let reader = try BlobReader(bytes: try snapshot.encoded())
    var tally = CallingCodeTally(plan: .standard)
    try tally.count(reader.blocking())
    #expect(tally.counts[41] == 20_000)
    #expect(tally.counts[44] == 1)
    var identification = CallingCodeTally(plan: .standard)
    try identification.count(reader.numbers(.identification))
    #expect(identification.counts[1] == 1)
  }
}
