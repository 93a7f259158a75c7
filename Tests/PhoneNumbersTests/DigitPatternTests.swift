import Dispatch
import FormatFixtures
import Synchronization
import Testing

@testable import PhoneNumbers

@Suite struct DigitPatternTests {
  func digits(_ text: String) -> [UInt8] { text.utf8.map { $0 - 48 } }

  func prefix(_ pattern: String, _ input: String) throws -> DigitPattern.Match? {
    let compiled = try DigitPattern(pattern)
    return digits(input).withUnsafeBufferPointer { compiled.prefixMatch($0) }
  }

  func full(_ pattern: String, _ input: String) throws -> (backtracking: Bool, automaton: Bool?) {
    let compiled = try DigitPattern(pattern)
    let automaton = DigitAutomaton(compiled)
    return digits(input).withUnsafeBufferPointer { buffer in
      (compiled.fullMatch(buffer), automaton?.fullMatch(buffer))
    }
  }

  @Test func prefixMatchIsLeftmostFirstNotLongest() throws {
    // Python's re.match takes the first alternative that succeeds.
    #expect(try prefix("0|01", "0123")?.end == 1)
    #expect(try prefix("01|0", "0123")?.end == 2)
    #expect(try prefix("0?", "123")?.end == 0)
  }

  @Test func capturesFollowPriority() throws {
    // Argentina-style: optional trunk 0, then a captured area code and 15.
    let match = try #require(try prefix("0?(?:(11|343)15)?", "0343155551212"))
    #expect(match.end == 6)
    #expect(match.range(ofGroup: 1) == 1..<4)
    let none = try #require(try prefix("0?(?:(11|343)15)?", "01123456789"))
    #expect(none.end == 1)
    #expect(none.range(ofGroup: 1) == nil)
  }

  @Test func endAnchorOnlyMatchesAtEnd() throws {
    // Antigua: a 7-digit local number gets its area code; otherwise strip 1.
    let local = try #require(try prefix("([457]\\d{6})$|1", "4601234"))
    #expect(local.range(ofGroup: 1) == 0..<7)
    let trunk = try #require(try prefix("([457]\\d{6})$|1", "14601234"))
    #expect(trunk.end == 1)
    #expect(trunk.range(ofGroup: 1) == nil)
    #expect(try prefix("([457]\\d{6})$", "46012345") == nil)
  }

  @Test(arguments: [
    ("[2-9]\\d{9}", "2125550100", true),
    ("[2-9]\\d{9}", "1125550100", false),
    ("[2-9]\\d{9}", "212555010", false),
    ("(?:1|6\\d)\\d{7}|[135-9]\\d{5}", "612345678", true),
    ("(?:1|6\\d)\\d{7}|[135-9]\\d{5}", "312345", true),
    ("(?:1|6\\d)\\d{7}|[135-9]\\d{5}", "412345", false),
    ("8\\d{5}(?:\\d{2,4})?", "81234567", true),
    ("8\\d{5}(?:\\d{2,4})?", "8123456", false),
    ("0\\d{5,11}", "0", false),
  ])
  func fullMatchAgreesAcrossEngines(pattern: String, input: String, expected: Bool) throws {
    let result = try full(pattern, input)
    #expect(result.backtracking == expected)
    #expect(result.automaton == expected)
  }

  @Test(arguments: ["(?=1)", "\\w", "[a-z]", "1{3,1}", "(12", "12)", "1{", "[1-]", "*"])
  func rejectsUnsupportedSyntax(_ pattern: String) {
    #expect(throws: DigitPatternError.self) { try DigitPattern(pattern) }
  }

  /// A traced run reads enough: every input of the same length that has
  /// the digits it read gets the same match and groups, for every prefix
  /// pattern of the plan, on random digits and on digits the pattern
  /// matches.
  @Test func aTracedRunDecidesEveryInputAlikeInTheDigitsItRead() throws {
    var generator = SplitMix64(seed: 43)
    let plan = NumberingPlan.standard
    var traced = 0
    for code in plan.regionCodes {
      let region = try #require(plan.region(code))
      for pattern in [region.nationalPrefixForParsing, region.internationalPrefix].compactMap({ $0 }) {
        for _ in 0..<40 {
          let length = Int(generator.next(below: 17))
          var input = (0..<length).map { _ in UInt8(generator.next(below: 10)) }
          if generator.next(below: 2) == 0, let matching = pattern.sampleMatch(using: &generator) {
            input = Array((matching + input).prefix(max(length, matching.count)))
          }
          var captures = [Int](repeating: 0, count: pattern.captureSlotCount)
          guard
            let run = input.withUnsafeBufferPointer({ buffer in
              captures.withUnsafeMutableBufferPointer { pattern.tracedPrefixMatchEnd(buffer, captures: $0.baseAddress!) }
            })
          else { continue }
          traced += 1
          #expect(run.reads <= input.count, "\(code) \(input)")
          let expected = input.withUnsafeBufferPointer { pattern.prefixMatch($0) }
          #expect(run.end == (expected?.end ?? -1), "\(code) \(input)")
          if let expected { #expect(captures == expected.captures, "\(code) \(input)") }
          for _ in 0..<8 {
            var alike = input
            for index in run.reads..<alike.count { alike[index] = UInt8(generator.next(below: 10)) }
            let match = alike.withUnsafeBufferPointer { pattern.prefixMatch($0) }
            #expect(match == expected, "\(code) \(input) / \(alike)")
          }
        }
      }
    }
    #expect(traced > 5000)
  }

  @Test func everyPlanPatternAgreesOnRandomDigits() throws {
    // The automaton and the backtracking engine must agree on every general
    // pattern of the plan, for inputs of every plausible length.
    var generator = SplitMix64(seed: 42)
    let plan = NumberingPlan.standard
    for code in plan.regionCodes {
      let region = try #require(plan.region(code))
      guard let pattern = region.generalPattern, let automaton = DigitAutomaton(pattern) else { continue }
      for _ in 0..<40 {
        let length = Int(generator.next() % 18)
        let input = (0..<length).map { _ in UInt8(generator.next() % 10) }
        input.withUnsafeBufferPointer { buffer in
          #expect(pattern.fullMatch(buffer) == automaton.fullMatch(buffer), "\(code) \(input)")
          // The region's own, compiled on first use.
          #expect(region.generalAutomaton.fullMatch(buffer) == automaton.fullMatch(buffer), "\(code) \(input)")
        }
      }
    }
  }
}

/// A region's general automaton is compiled on first use: threads that
/// race to use a fresh plan's all get the pattern's answers.
@Suite struct LazyGeneralAutomatonTests {
  @Test func threadsRacingOnAFreshPlanAgreeWithThePatterns() throws {
    let plan = try NumberingPlan(table: NumberingPlan.embeddedTable)
    let regions = plan.regionCodes.compactMap { plan.region($0) }.filter { $0.generalPattern != nil }
    var generator = SplitMix64(seed: 7)
    let inputs = (0..<64).map { _ in (0..<Int(8 + generator.next() % 6)).map { _ in UInt8(generator.next() % 10) } }
    let disagreements = Mutex(0)
    DispatchQueue.concurrentPerform(iterations: 8) { turn in
      // Each thread starts at another region, so that several compile at once.
      for offset in regions.indices {
        let region = regions[(offset + turn * 31) % regions.count]
        for input in inputs {
          input.withUnsafeBufferPointer { digits in
            if region.generalAutomaton.fullMatch(digits) != region.generalPattern?.fullMatch(digits) {
              disagreements.withLock { $0 += 1 }
            }
          }
        }
      }
    }
    #expect(disagreements.withLock { $0 } == 0)
  }
}

extension DigitPattern {
  /// Digits the pattern matches at its start, from a random walk of its
  /// program (nil when the walk runs long).
  func sampleMatch(using generator: inout SplitMix64) -> [UInt8]? {
    var digits: [UInt8] = []
    var pc = 0
    for _ in 0..<64 {
      switch program[pc] {
      case .digit(let mask):
        let allowed = (0..<10).filter { mask & (1 << UInt16($0)) != 0 }
        guard !allowed.isEmpty else { return nil }
        digits.append(UInt8(allowed[Int(generator.next(below: UInt64(allowed.count)))]))
        pc += 1
      case .split(let preferred, let alternative):
        pc = generator.next(below: 2) == 0 ? preferred : alternative
      case .jump(let target):
        pc = target
      case .save:
        pc += 1
      case .assertEnd, .match:
        return digits
      }
    }
    return nil
  }
}
