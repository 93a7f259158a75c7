/// The number formats of one calling code's main region (or non-geographic
/// entity), compiled for choosing and applying one per number.
///
/// Choosing is libphonenumber's `_choose_formatting_pattern_for_number`:
/// the first format, in table order, whose leading-digits pattern matches
/// at the start of the national number and whose pattern matches all of
/// it. Both questions are answered for up to 16 formats at once by two
/// automata: one over the leading-digits patterns, walked until it dies
/// (each state names the patterns a prefix read so far matches), and one
/// over the patterns, walked over the whole number. Applying a format
/// whose pattern takes any digit at every step is a list of copies and
/// literal digits worked out once per length; other formats run the
/// pattern (``NumberFormatRule/substitute(_:emit:)``).
final class CallingCodeFormats: @unchecked Sendable {
  let rules: [NumberFormatRule]
  /// The automata (kept alive here: ``choosers`` points into their tables).
  private let automata: [DigitAutomaton]
  /// The choosers, side by side, as plain values: a number reads them
  /// with no reference counting.
  private let choosers: UnsafeMutablePointer<Chooser>
  private let chooserCount: Int
  /// Output steps by rule and length: `steps[plans[rule × 18 + length]…]`,
  /// ``planEnd`` marking the end of each; -1 where the rule must be run
  /// (its pattern does not fit every number of that length alike) or
  /// does not fit that length at all (it is then never chosen for it).
  private let plans: UnsafeMutablePointer<Int32>
  /// Steps: a literal digit (0–9), or ``copyFlag`` | start << 5 | end.
  private let steps: UnsafeMutablePointer<UInt16>
  static let copyFlag: UInt16 = 0x8000
  static let planEnd: UInt16 = 0xFFFF
  private static let lengths = NumberFormatRule.maximumNationalLength + 1

  /// Up to 16 consecutive rules, with their automata's tables (nil where
  /// one could not be built: its rules' patterns are then run one by one).
  struct Chooser {
    let first: Int
    let count: Int
    /// Rules with no leading-digits pattern: they always pass that test.
    let unconditional: UInt16
    /// The leading-digits automaton: transitions (-1: dead) and, per
    /// state, the patterns the digits read so far match.
    let leadingTransitions: UnsafePointer<Int32>?
    let leadingMasks: UnsafePointer<UInt16>?
    /// The patterns' automaton, with a dead state (row offsets), and the
    /// patterns each state matches.
    let patternTransitions: UnsafePointer<Int32>?
    let patternMasks: UnsafePointer<UInt16>?
  }

  /// Compiles `rules`; an automaton that would exceed `stateLimit` states
  /// is not built (its rules are then run one by one).
  init(rules: [NumberFormatRule], stateLimit: Int = 20_000) {
    self.rules = rules
    var choosers: [Chooser] = []
    var automata: [DigitAutomaton] = []
    var first = 0
    // Matches the empty prefix: a rule with no leading digits passes.
    let anything = try? DigitPattern("")
    while first < rules.count {
      let chunk = Array(rules[first..<min(rules.count, first + 16)])
      var unconditional: UInt16 = 0
      for (index, rule) in chunk.enumerated() where rule.leadingDigits == nil { unconditional |= 1 << UInt16(index) }
      let leadingPatterns = chunk.compactMap { $0.leadingDigits ?? anything }
      // A `$` in a leading-digits pattern would count as passed in the
      // middle of the number: such chunks are run.
      let anchored = leadingPatterns.contains { $0.program.contains(.assertEnd) }
      let leading =
        anchored || leadingPatterns.count != chunk.count
        ? nil : DigitAutomaton(patterns: leadingPatterns, stateLimit: stateLimit, pairSteps: false)
      let patterns = DigitAutomaton(patterns: chunk.map(\.pattern), stateLimit: stateLimit, pairSteps: false)
      automata += [leading, patterns].compactMap { $0 }
      choosers.append(Chooser(
        first: first, count: chunk.count, unconditional: unconditional,
        leadingTransitions: leading.map { UnsafePointer($0.transitionTable) },
        leadingMasks: leading.map { UnsafePointer($0.matchMaskTable) },
        patternTransitions: patterns.map { UnsafePointer($0.totalTransitionTable) },
        patternMasks: patterns.map { UnsafePointer($0.matchMaskTable) }))
      first += chunk.count
    }
    self.automata = automata
    self.chooserCount = choosers.count
    self.choosers = .allocate(capacity: max(1, choosers.count))
    self.choosers.initialize(from: choosers, count: choosers.count)

    var plans = [Int32](repeating: -1, count: rules.count * Self.lengths)
    var steps: [UInt16] = []
    let zeros = [UInt8](repeating: 0, count: Self.lengths)
    for (index, rule) in rules.enumerated() where rule.dependsOnLengthAlone {
      zeros.withUnsafeBufferPointer { zeros in
        for length in 1..<Self.lengths {
          let digits = UnsafeBufferPointer(rebasing: zeros[0..<length])
          guard rule.pattern.fullMatch(digits) else { continue }
          plans[index * Self.lengths + length] = Int32(steps.count)
          rule.substitute(digits) { output in
            switch output {
            case .digit(let digit): steps.append(UInt16(digit))
            case .copy(let start, let end): steps.append(Self.copyFlag | UInt16(start) << 5 | UInt16(end))
            }
          }
          steps.append(Self.planEnd)
        }
      }
    }
    self.plans = .allocate(capacity: max(1, plans.count))
    self.plans.initialize(from: plans, count: plans.count)
    self.steps = .allocate(capacity: max(1, steps.count))
    self.steps.initialize(from: steps, count: steps.count)
  }

  deinit {
    choosers.deallocate()
    plans.deallocate()
    steps.deallocate()
  }

  /// The index of the rule libphonenumber formats `national` (values 0–9,
  /// at most 17) with, or nil when none fits.
  @inline(__always)
  func choose(_ national: UnsafeBufferPointer<UInt8>) -> Int? {
    for chooserIndex in 0..<chooserCount {
      let chooser = choosers[chooserIndex]
      var candidates = chooser.unconditional
      if let transitions = chooser.leadingTransitions, let masks = chooser.leadingMasks {
        candidates |= Self.prefixMatchMask(national, transitions, masks)
      } else {
        for index in 0..<chooser.count {
          guard let pattern = rules[chooser.first + index].leadingDigits else { continue }
          if Self.matchesPrefix(pattern, national) { candidates |= 1 << UInt16(index) }
        }
      }
      guard candidates != 0 else { continue }
      if let transitions = chooser.patternTransitions, let masks = chooser.patternMasks {
        candidates &= DigitAutomaton.fullMatchMask(national, totalTransitions: transitions, matchMasks: masks)
      } else {
        var remaining = candidates
        while remaining != 0 {
          let index = remaining.trailingZeroBitCount
          remaining &= remaining - 1
          if !rules[chooser.first + index].pattern.fullMatch(national) { candidates &= ~(1 << UInt16(index)) }
        }
      }
      if candidates != 0 { return chooser.first + candidates.trailingZeroBitCount }
    }
    return nil
  }

  /// Which leading-digits patterns match at the start of `digits`: the
  /// union of the match sets of every state the walk passes, the start
  /// included.
  @inline(__always)
  private static func prefixMatchMask(
    _ digits: UnsafeBufferPointer<UInt8>, _ transitions: UnsafePointer<Int32>, _ masks: UnsafePointer<UInt16>
  ) -> UInt16 {
    var mask = masks[0]
    var state = 0
    for digit in digits {
      let next = transitions[state &* 10 &+ Int(digit % 10)]
      if next < 0 { break }
      state = Int(next)
      mask |= masks[state]
    }
    return mask
  }

  /// Python's `re.match(pattern, digits)` as a truth value.
  private static func matchesPrefix(_ pattern: DigitPattern, _ digits: UnsafeBufferPointer<UInt8>) -> Bool {
    withUnsafeTemporaryAllocation(of: Int.self, capacity: pattern.captureSlotCount) { slots in
      pattern.prefixMatchEnd(digits, captures: slots.baseAddress!) >= 0
    }
  }

  /// Writes the national format's digits of `national` by rule `rule`
  /// (which fits it) into `output` (``NationalDigits/capacity`` digits)
  /// and returns how many.
  @inline(__always)
  func apply(_ rule: Int, to national: UnsafeBufferPointer<UInt8>, output: UnsafeMutablePointer<UInt8>) -> Int {
    let plan = plans[rule &* Self.lengths &+ national.count]
    var count = 0
    if plan >= 0 {
      var index = Int(plan)
      while true {
        let step = steps[index]
        if step == Self.planEnd { break }
        if step & Self.copyFlag == 0 {
          output[count] = UInt8(truncatingIfNeeded: step)
          count &+= 1
        } else {
          let end = Int(step & 31)
          var source = Int(step >> 5 & 31)
          while source < end {
            output[count] = national[source]
            count &+= 1
            source &+= 1
          }
        }
        index &+= 1
      }
      return count
    }
    rules[rule].substitute(national) { piece in
      switch piece {
      case .digit(let digit):
        output[count] = digit
        count += 1
      case .copy(let start, let end):
        for source in start..<end {
          output[count] = national[source]
          count += 1
        }
      }
    }
    return count
  }
}
