/// A deterministic automaton that decides whether a whole digit string
/// matches a `DigitPattern`, in one table step per digit.
///
/// Built once per pattern by subset construction over the pattern's program;
/// used for the hot "does this national number fit the plan" question.
final class DigitAutomaton: Sendable {
  /// `transitions[state * 10 + digit]` is the next state, or -1 (dead).
  /// Owned by the automaton (immutable after init, freed in deinit).
  private nonisolated(unsafe) let transitions: UnsafeMutablePointer<Int32>
  /// Whether input ending in each state matches.
  private nonisolated(unsafe) let accepting: UnsafeMutablePointer<Bool>

  /// For each state, which of the patterns match input ending there (bit i
  /// for pattern i); `accepting` is "any bit set".
  private nonisolated(unsafe) let matchMasks: UnsafeMutablePointer<UInt16>
  /// The number of states.
  let stateCount: Int
  /// `transitions` with a dead state (index `stateCount`, all transitions
  /// to itself, no pattern matching) in place of -1, so that a run needs
  /// no exit test per digit (``fullMatchMaskWithoutExits(_:)``); entries
  /// are row offsets (state × 10), which keeps a multiplication off the
  /// chain of dependent loads.
  private nonisolated(unsafe) let totalTransitions: UnsafeMutablePointer<Int32>
  /// Two digits per step, for automata small enough: row `state` has
  /// ``pairRowWidth`` entries, 100 for the pairs `d1 d2` (at `d1 * 10 + d2`)
  /// then 10 for single digits (at `100 + d`), each the next state's row
  /// offset (state × ``pairRowWidth``), the dead state included. Halves the
  /// chain of dependent loads a run waits on. Nil when offsets would not
  /// fit 16 bits (more than 594 states).
  private nonisolated(unsafe) let pairTransitions: UnsafeMutablePointer<UInt16>?
  static let pairRowWidth = 110

  /// Builds the automaton for `pattern`, or nil when it would exceed
  /// `stateLimit` states (callers then fall back to backtracking).
  /// Such an automaton answers one-digit walks only (no
  /// ``pairTransitionTable``: a one-pattern automaton serves the general
  /// and leading-digits checks, whose walks are short).
  convenience init?(_ pattern: DigitPattern, stateLimit: Int = 20_000) {
    self.init(patterns: [pattern], stateLimit: stateLimit, pairSteps: false)
  }

  /// Builds one automaton for up to 16 patterns at once: a single pass over
  /// a digit string tells which of them match it as a whole
  /// (``fullMatchMask(_:)``). Nil when it would exceed `stateLimit` states.
  /// `pairSteps` builds ``pairTransitionTable`` too (when the automaton is
  /// small enough).
  init?(patterns: [DigitPattern], stateLimit: Int = 20_000, pairSteps: Bool = true) {
    precondition(!patterns.isEmpty && patterns.count <= 16, "1 to 16 patterns")
    var construction = SubsetConstruction(CombinedProgram(patterns))
    guard construction.run(stateLimit: stateLimit) else { return nil }
    let transitions = construction.transitions
    let masks = construction.masks
    self.stateCount = masks.count
    self.transitions = .allocate(capacity: transitions.count)
    self.transitions.initialize(from: transitions, count: transitions.count)
    self.accepting = .allocate(capacity: masks.count)
    self.accepting.initialize(from: masks.map { $0 != 0 }, count: masks.count)
    self.matchMasks = .allocate(capacity: masks.count + 1)
    self.matchMasks.initialize(from: masks, count: masks.count)
    (self.matchMasks + masks.count).initialize(to: 0)
    let total = DigitAutomaton.makeTotalTransitions(transitions, states: masks.count)
    self.totalTransitions = total
    self.pairTransitions = pairSteps ? DigitAutomaton.makePairTransitions(total, rows: masks.count + 1) : nil
  }

  /// `transitions` with the dead state (index `states`) in place of -1,
  /// entries as row offsets (state × 10), the dead state's row appended.
  private static func makeTotalTransitions(_ transitions: [Int32], states: Int) -> UnsafeMutablePointer<Int32> {
    let dead = Int32(states)
    let total = UnsafeMutablePointer<Int32>.allocate(capacity: transitions.count + 10)
    total.initialize(from: transitions.map { ($0 < 0 ? dead : $0) * 10 }, count: transitions.count)
    (total + transitions.count).initialize(repeating: dead * 10, count: 10)
    return total
  }

  /// The two-digits-per-step table over `total` (``pairTransitionTable``),
  /// or nil when its row offsets would not fit 16 bits.
  private static func makePairTransitions(_ total: UnsafePointer<Int32>, rows: Int) -> UnsafeMutablePointer<UInt16>? {
    let width = pairRowWidth
    guard rows * width <= Int(UInt16.max) + 1 else { return nil }
    let pairs = UnsafeMutablePointer<UInt16>.allocate(capacity: rows * width)
    for state in 0..<rows {
      for first in 0..<10 {
        let middle = Int(total[state * 10 + first]) / 10
        (pairs + state * width + 100 + first).initialize(to: UInt16(middle * width))
        for second in 0..<10 {
          let next = Int(total[middle * 10 + second]) / 10
          (pairs + state * width + first * 10 + second).initialize(to: UInt16(next * width))
        }
      }
    }
    return pairs
  }

  /// The tables, for callers that keep the automaton alive.
  var transitionTable: UnsafeMutablePointer<Int32> { transitions }
  var acceptingTable: UnsafeMutablePointer<Bool> { accepting }
  var matchMaskTable: UnsafeMutablePointer<UInt16> { matchMasks }
  var totalTransitionTable: UnsafeMutablePointer<Int32> { totalTransitions }
  var pairTransitionTable: UnsafeMutablePointer<UInt16>? { pairTransitions }

  deinit {
    transitions.deallocate()
    accepting.deallocate()
    matchMasks.deallocate()
    totalTransitions.deallocate()
    pairTransitions?.deallocate()
  }

  /// Which of the patterns (bit i for pattern i of `init(patterns:)`) match
  /// all of `digits` (values 0–9); 0 for none.
  @inline(__always)
  func fullMatchMask(_ digits: UnsafeBufferPointer<UInt8>) -> UInt16 {
    var state = 0
    for digit in digits {
      let next = transitions[state &* 10 &+ Int(digit & 15) % 10]
      if next < 0 { return 0 }
      state = Int(next)
    }
    return matchMasks[state]
  }

  /// Whether all of `digits` (values 0–9) match.
  @inline(__always)
  func fullMatch(_ digits: UnsafeBufferPointer<UInt8>) -> Bool {
    Self.fullMatch(digits, transitions: transitions, accepting: accepting)
  }

  /// `fullMatchMask(_:)` over the table with a dead state: every digit is
  /// read, with no exit test (no branch to mispredict for a number that
  /// leaves the patterns early).
  @inline(__always)
  func fullMatchMaskWithoutExits(_ digits: UnsafeBufferPointer<UInt8>) -> UInt16 {
    Self.fullMatchMask(digits, totalTransitions: totalTransitions, matchMasks: matchMasks)
  }

  /// `fullMatchMaskWithoutExits` for holders of the raw tables.
  @inline(__always)
  static func fullMatchMask(
    _ digits: UnsafeBufferPointer<UInt8>, totalTransitions: UnsafePointer<Int32>, matchMasks: UnsafePointer<UInt16>
  ) -> UInt16 {
    var row = 0
    for digit in digits {
      row = Int(totalTransitions[row &+ Int(digit & 15) % 10])
    }
    return matchMasks[row / 10]
  }

  /// `fullMatchMask(_:)` two digits per step, over ``pairTransitionTable``.
  @inline(__always)
  static func fullMatchMask(
    _ digits: UnsafeBufferPointer<UInt8>, pairTransitions: UnsafePointer<UInt16>, matchMasks: UnsafePointer<UInt16>
  ) -> UInt16 {
    var row = 0
    var index = 0
    let count = digits.count
    while index &+ 2 <= count {
      let pair = Int(digits[index] & 15) % 10 &* 10 &+ Int(digits[index &+ 1] & 15) % 10
      row = Int(pairTransitions[row &+ pair])
      index &+= 2
    }
    if index < count {
      row = Int(pairTransitions[row &+ 100 &+ Int(digits[index] & 15) % 10])
    }
    return matchMasks[row / pairRowWidth]
  }

  /// Whether the automaton still runs after `prefix` (values 0–9): some
  /// longer input starting with it may match.
  func isLive(after prefix: [UInt8]) -> Bool {
    var state = 0
    for digit in prefix {
      let next = transitions[state * 10 + Int(digit % 10)]
      if next < 0 { return false }
      state = Int(next)
    }
    return true
  }

  /// Whether some prefix of `digits` (the empty one included) matches: a
  /// match at the start, as Python's `re.match`.
  @inline(__always)
  func matchesPrefix(_ digits: UnsafeBufferPointer<UInt8>) -> Bool {
    Self.matchesPrefix(digits, transitions: transitions, accepting: accepting)
  }

  /// `matchesPrefix(_:)` for holders of the raw tables.
  @inline(__always)
  static func matchesPrefix(
    _ digits: UnsafeBufferPointer<UInt8>, transitions: UnsafePointer<Int32>, accepting: UnsafePointer<Bool>
  ) -> Bool {
    var state = 0
    if accepting[0] { return true }
    for digit in digits {
      let next = transitions[state &* 10 &+ Int(digit & 15) % 10]
      if next < 0 { return false }
      state = Int(next)
      if accepting[state] { return true }
    }
    return false
  }

  /// Runs a transition table (10 columns per state, -1: no transition) over
  /// `digits` from state 0; for holders of the table's raw pointers.
  @inline(__always)
  static func fullMatch(
    _ digits: UnsafeBufferPointer<UInt8>, transitions: UnsafePointer<Int32>, accepting: UnsafePointer<Bool>
  ) -> Bool {
    var state = 0
    for digit in digits {
      let next = transitions[state &* 10 &+ Int(digit & 15) % 10]
      if next < 0 { return false }
      state = Int(next)
    }
    return accepting[state]
  }
}
