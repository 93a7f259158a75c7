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

  /// Builds the automaton for `pattern`, or nil when it would exceed
  /// `stateLimit` states (callers then fall back to backtracking).
  init?(_ pattern: DigitPattern, stateLimit: Int = 20_000) {
    let program = pattern.program
    let count = program.count
    let words = (count + 63) / 64

    // A state is the set of instructions reachable without consuming a
    // digit (digit tests, `match`, and end assertions not yet passed), kept
    // as a bit set. The closure of a set is the union of its members'
    // closures, so each instruction's closure is computed once.
    var closures = [UInt64](repeating: 0, count: count * words)
    // Whether `match` is reachable from an instruction once at the end of
    // the input (end assertions passed through).
    var acceptsAtEnd = [Bool](repeating: false, count: count)
    var seen = [Bool](repeating: false, count: count)
    var stack: [Int] = []
    for origin in 0..<count {
      for atEnd in [false, true] {
        for index in seen.indices { seen[index] = false }
        stack.append(origin)
        while let pc = stack.popLast() {
          guard !seen[pc] else { continue }
          seen[pc] = true
          switch program[pc] {
          case .split(let first, let second):
            stack.append(second)
            stack.append(first)
          case .jump(let target):
            stack.append(target)
          case .save:
            stack.append(pc + 1)
          case .assertEnd:
            if atEnd { stack.append(pc + 1) } else { closures[origin * words + pc / 64] |= 1 << UInt64(pc % 64) }
          case .digit:
            if !atEnd { closures[origin * words + pc / 64] |= 1 << UInt64(pc % 64) }
          case .match:
            if atEnd { acceptsAtEnd[origin] = true } else { closures[origin * words + pc / 64] |= 1 << UInt64(pc % 64) }
          }
        }
      }
    }

    var stateIDs: [[UInt64]: Int32] = [:]
    var states: [[UInt64]] = []
    var transitions: [Int32] = []
    var accepting: [Bool] = []

    func intern(_ state: [UInt64]) -> Int32 {
      if let id = stateIDs[state] { return id }
      let id = Int32(states.count)
      stateIDs[state] = id
      states.append(state)
      transitions.append(contentsOf: repeatElement(-1, count: 10))
      var accepts = false
      for pc in 0..<count where state[pc / 64] & (1 << UInt64(pc % 64)) != 0 && acceptsAtEnd[pc] {
        accepts = true
        break
      }
      accepting.append(accepts)
      return id
    }

    _ = intern(Array(closures[0..<words]))
    var next = 0
    var targets = [[UInt64]](repeating: [UInt64](repeating: 0, count: words), count: 10)
    while next < states.count {
      if states.count > stateLimit { return nil }
      let state = states[next]
      for digit in 0..<10 { for word in 0..<words { targets[digit][word] = 0 } }
      var reached: UInt16 = 0
      for pc in 0..<count where state[pc / 64] & (1 << UInt64(pc % 64)) != 0 {
        guard case .digit(let mask) = program[pc], pc + 1 < count else { continue }
        reached |= mask
        for digit in 0..<10 where mask & (1 << UInt16(digit)) != 0 {
          for word in 0..<words { targets[digit][word] |= closures[(pc + 1) * words + word] }
        }
      }
      for digit in 0..<10 where reached & (1 << UInt16(digit)) != 0 {
        transitions[next * 10 + digit] = intern(targets[digit])
      }
      next += 1
    }
    self.transitions = .allocate(capacity: transitions.count)
    self.transitions.initialize(from: transitions, count: transitions.count)
    self.accepting = .allocate(capacity: accepting.count)
    self.accepting.initialize(from: accepting, count: accepting.count)
  }

  /// The tables, for callers that keep the automaton alive.
  var transitionTable: UnsafeMutablePointer<Int32> { transitions }
  var acceptingTable: UnsafeMutablePointer<Bool> { accepting }

  deinit {
    transitions.deallocate()
    accepting.deallocate()
  }

  /// Whether all of `digits` (values 0–9) match.
  @inline(__always)
  func fullMatch(_ digits: UnsafeBufferPointer<UInt8>) -> Bool {
    Self.fullMatch(digits, transitions: transitions, accepting: accepting)
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
