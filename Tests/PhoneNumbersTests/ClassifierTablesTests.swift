import Testing

@testable import PhoneNumbers

/// The classifier's speed-ups must not change a verdict: the two-digit
/// transition table against the one-digit walk, the digit writers (values
/// and ASCII) against `String(_:)`, and the classifier that compiles calling codes on demand
/// against the one that compiled them all.
@Suite struct ClassifierTablesTests {
  let plan = NumberingPlan.standard

  /// A deterministic stream of pseudo-random values (xorshift).
  struct Values {
    var state: UInt64
    mutating func next() -> UInt64 {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return state
    }
  }

  @Test func twoDigitStepsAgreeWithOneDigitSteps() throws {
    var values = Values(state: 0x9E37_79B9_7F4A_7C15)
    var compared = 0
    for code in [1, 33, 44, 49, 61, 86, 91, 880] {
      for region in plan.regionsByCallingCode[code] ?? [] {
        let key = region.regionCode == "001" ? "001+\(region.callingCode)" : region.regionCode
        var patterns = region.generalPattern.map { [$0] } ?? []
        patterns += plan.typeDescriptions(forKey: key).prefix(15).map(\.pattern)
        guard !patterns.isEmpty, let automaton = DigitAutomaton(patterns: patterns) else { continue }
        let pairs = try #require(automaton.pairTransitionTable)
        for _ in 0..<2_000 {
          // Lengths 0 to 17, odd and even.
          let length = Int(values.next() % 18)
          let digits = (0..<length).map { _ in UInt8(values.next() % 10) }
          let single = digits.withUnsafeBufferPointer { automaton.fullMatchMaskWithoutExits($0) }
          let double = digits.withUnsafeBufferPointer {
            DigitAutomaton.fullMatchMask($0, pairTransitions: pairs, matchMasks: automaton.matchMaskTable)
          }
          #expect(single == double, "\(key) \(digits)")
          compared += 1
        }
      }
    }
    #expect(compared > 10_000)
  }

  @Test func digitsAreWrittenAsStringWritesThem() {
    var values = Values(state: 12_345)
    var samples: [UInt64] = [0, 1, 9, 10, 99, 100, 99_999_999, 100_000_000, 9_999_999_999_999_999, UInt64(Int64.max), .max]
    for power in 0..<20 {
      let ten = (0..<power).reduce(UInt64(1)) { value, _ in value &* 10 }
      samples += [ten, ten &- 1, ten &+ 1]
    }
    for _ in 0..<10_000 { samples.append(values.next() >> (values.next() % 64)) }
    for value in samples {
      let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: NumberDigits.capacity) { buffer in
        let first = NumberDigits.write(value, into: buffer.baseAddress!)
        return String(decoding: buffer[first...].map { $0 + 48 }, as: UTF8.self)
      }
      #expect(written == String(value))
      #expect(NumberDigits.count(value) == String(value).count)
      // The ASCII writer the batch normalizer prints with.
      let ascii = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
        let count = NumberDigits.writeASCII(value, to: UnsafeMutableRawPointer(buffer.baseAddress!))
        return String(decoding: buffer[0..<count], as: UTF8.self)
      }
      #expect(ascii == String(value))
    }
    // Every eight-digit block's ASCII form, on a stride through all of them.
    for block in stride(from: UInt64(0), to: 100_000_000, by: 9_973) {
      let word = NumberDigits.eightASCIIDigits(block)
      let text = String(decoding: (0..<8).map { UInt8(truncatingIfNeeded: word >> UInt64(8 * $0)) }, as: UTF8.self)
      #expect(text == String(repeating: "0", count: 8 - String(block).count) + String(block))
    }
  }

  @Test func onDemandCompilationAgreesWithTheWholePlan() async throws {
    let everything = plan.classifier
    var values = Values(state: 77)
    let numbers: [Int64] = (0..<20_000).map { _ in
      // Calling code, then 4 to 13 digits.
      let national = values.next() % 10_000_000_000_000
      let code = [1, 7, 33, 39, 44, 49, 61, 262, 590, 599, 800, 882, 979, 998][Int(values.next() % 14)]
      let digits = UInt64(String(national).count)
      let scale = (0..<digits).reduce(UInt64(1)) { value, _ in value * 10 }
      return Int64(UInt64(code) * scale + national)
    }
    // A fresh plan compiles nothing until asked; two threads, each with its
    // own classifier, compile the codes as their numbers come.
    let fresh = try NumberingPlan(table: NumberingPlan.embeddedTable, typesTable: NumberingPlan.embeddedTypesTable)
    let halves = await withTaskGroup(of: (Int, [NumberValidity?]).self) { group in
      for part in 0..<2 {
        group.addTask {
          var classifier = IncrementalClassifier(plan: fresh)
          return (part, stride(from: part, to: numbers.count, by: 2).map { classifier.validity(of: numbers[$0]) })
        }
      }
      var halves: [Int: [NumberValidity?]] = [:]
      for await (part, verdicts) in group { halves[part] = verdicts }
      return halves
    }
    for part in 0..<2 {
      let expected = stride(from: part, to: numbers.count, by: 2).map { everything.validity(of: numbers[$0]) }
      #expect(halves[part] == expected)
    }
    var classifier = IncrementalClassifier(plan: plan)
    for number in numbers {
      #expect(classifier.validity(of: number) == everything.validity(of: number), "+\(number)")
    }
    #expect(classifier.validity(of: 0) == nil)
    #expect(classifier.validity(of: 2_800_000_000) == nil)
  }
}
