/// A deterministic automaton that decides whether a whole digit string
/// matches a `DigitPattern`, in one table step per digit.
///
/// Built once per pattern by subset construction over the pattern's program;
/// used for the hot "does this national number fit the plan" question.
struct DigitAutomaton: Sendable {
  /// `transitions[state * 10 + digit]` is the next state, or -1 (dead).
  private let transitions: [Int32]
  /// Whether input ending in each state matches.
  private let accepting: [Bool]

  /// Builds the automaton for `pattern`, or nil when it would exceed
  /// `stateLimit` states (callers then fall back to backtracking).
  init?(_ pattern: DigitPattern, stateLimit: Int = 20_000) {
    let program = pattern.program
    var stateIDs: [[Int]: Int32] = [:]
    var states: [[Int]] = []
    var transitions: [Int32] = []
    var accepting: [Bool] = []

    // Instructions reachable without consuming a digit: digit tests, `match`,
    // and end assertions (passed through when `atEnd`).
    func closure(_ seeds: [Int], atEnd: Bool) -> [Int] {
      var seen = Set<Int>()
      var stack = seeds
      var result: [Int] = []
      while let pc = stack.popLast() {
        guard seen.insert(pc).inserted else { continue }
        switch program[pc] {
        case .split(let first, let second):
          stack.append(second)
          stack.append(first)
        case .jump(let target):
          stack.append(target)
        case .save:
          stack.append(pc + 1)
        case .assertEnd:
          if atEnd { stack.append(pc + 1) } else { result.append(pc) }
        case .digit, .match:
          result.append(pc)
        }
      }
      return result.sorted()
    }

    func intern(_ state: [Int]) -> Int32 {
      if let id = stateIDs[state] { return id }
      let id = Int32(states.count)
      stateIDs[state] = id
      states.append(state)
      transitions.append(contentsOf: repeatElement(-1, count: 10))
      let ending = closure(state, atEnd: true)
      accepting.append(ending.contains { program[$0] == .match })
      return id
    }

    _ = intern(closure([0], atEnd: false))
    var next = 0
    while next < states.count {
      if states.count > stateLimit { return nil }
      let state = states[next]
      for digit in 0..<10 {
        let bit = UInt16(1) << UInt16(digit)
        var targets: [Int] = []
        for pc in state {
          if case .digit(let mask) = program[pc], mask & bit != 0 { targets.append(pc + 1) }
        }
        guard !targets.isEmpty else { continue }
        let id = intern(closure(targets, atEnd: false))
        transitions[next * 10 + digit] = id
      }
      next += 1
    }
    self.transitions = transitions
    self.accepting = accepting
  }

  /// Whether all of `digits` (values 0–9) match.
  func fullMatch(_ digits: UnsafeBufferPointer<UInt8>) -> Bool {
    var state = 0
    for digit in digits {
      let next = transitions[state &* 10 &+ Int(digit & 15) % 10]
      if next < 0 { return false }
      state = Int(next)
    }
    return accepting[state]
  }
}
