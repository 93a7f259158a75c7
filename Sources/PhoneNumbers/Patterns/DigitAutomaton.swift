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
    // The patterns' programs side by side, targets relocated; `tag[pc]` is
    // the pattern an instruction belongs to.
    var program: [DigitPattern.Instruction] = []
    var tag: [UInt16] = []
    var starts: [Int] = []
    for (index, pattern) in patterns.enumerated() {
      let offset = program.count
      starts.append(offset)
      for instruction in pattern.program {
        switch instruction {
        case .split(let first, let second): program.append(.split(first + offset, second + offset))
        case .jump(let target): program.append(.jump(target + offset))
        default: program.append(instruction)
        }
        tag.append(1 << UInt16(index))
      }
    }
    let count = program.count
    let words = (count + 63) / 64

    // A state is the set of instructions reachable without consuming a
    // digit (digit tests, `match`, and end assertions not yet passed), kept
    // as a bit set. The closure of a set is the union of its members'
    // closures, so each instruction's closure is computed once, when first
    // needed (only instruction starts and digit successors are origins),
    // into one flat table.
    // Closure rows are made for origins only (pattern starts and digit
    // successors), when first needed: `row[pc]` is origin pc's row in
    // `closureBits`, or -1. The work lists are raw buffers (array bounds
    // and uniqueness checks dominated this loop).
    var closureBits: [UInt64] = []
    let row = UnsafeMutablePointer<Int32>.allocate(capacity: count)
    row.initialize(repeating: -1, count: count)
    // Which patterns' `match` is reachable from an instruction once at the
    // end of the input (end assertions passed through).
    let acceptsAtEnd = UnsafeMutablePointer<UInt16>.allocate(capacity: count)
    acceptsAtEnd.initialize(repeating: 0, count: count)
    let seen = UnsafeMutablePointer<Bool>.allocate(capacity: count)
    seen.initialize(repeating: false, count: count)
    // Each instruction is pushed at most once per pass: `count` entries suffice.
    let touched = UnsafeMutablePointer<Int>.allocate(capacity: count)
    let stack = UnsafeMutablePointer<Int>.allocate(capacity: 2 * count + 2)
    defer {
      row.deallocate()
      acceptsAtEnd.deallocate()
      seen.deallocate()
      touched.deallocate()
      stack.deallocate()
    }
    let instructions = program
    let tags = tag
    func computeClosure(_ origin: Int) {
      guard row[origin] < 0 else { return }
      row[origin] = Int32(closureBits.count / words)
      let base = closureBits.count
      closureBits.append(contentsOf: repeatElement(0, count: words))
      closureBits.withUnsafeMutableBufferPointer { bits in
        instructions.withUnsafeBufferPointer { program in
          for atEnd in [false, true] {
            var touchedCount = 0
            var depth = 0
            stack[0] = origin
            depth = 1
            while depth > 0 {
              depth -= 1
              let pc = stack[depth]
              guard pc < count, !seen[pc] else { continue }
              seen[pc] = true
              touched[touchedCount] = pc
              touchedCount += 1
              switch program[pc] {
              case .split(let first, let second):
                stack[depth] = second
                stack[depth + 1] = first
                depth += 2
              case .jump(let target):
                stack[depth] = target
                depth += 1
              case .save:
                stack[depth] = pc + 1
                depth += 1
              case .assertEnd:
                if atEnd {
                  stack[depth] = pc + 1
                  depth += 1
                } else {
                  bits[base + pc / 64] |= 1 << UInt64(pc % 64)
                }
              case .digit:
                if !atEnd { bits[base + pc / 64] |= 1 << UInt64(pc % 64) }
              case .match:
                if atEnd { acceptsAtEnd[origin] |= tags[pc] } else { bits[base + pc / 64] |= 1 << UInt64(pc % 64) }
              }
            }
            for index in 0..<touchedCount { seen[touched[index]] = false }
          }
        }
      }
    }

    // States are interned in an open-addressing table keyed by a cheap
    // hash of their bit sets (SipHash and an array per state dominated the
    // construction); `stateBits` holds state i's words at i × words.
    var stateBits: [UInt64] = []
    var stateHashes: [UInt64] = []
    var slots = [Int32](repeating: -1, count: 64)
    var transitions: [Int32] = []
    var masks: [UInt16] = []

    func intern(_ state: UnsafeBufferPointer<UInt64>) -> Int32 {
      var hash: UInt64 = 0x9E37_79B9_7F4A_7C15
      for word in state { hash = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9; hash ^= hash >> 29 }
      var slotMask = slots.count &- 1
      var slot = Int(truncatingIfNeeded: hash) & slotMask
      while slots[slot] >= 0 {
        let id = Int(slots[slot])
        if stateHashes[id] == hash {
          let same = stateBits.withUnsafeBufferPointer { bits in
            (0..<words).allSatisfy { bits[id &* words &+ $0] == state[$0] }
          }
          if same { return Int32(id) }
        }
        slot = (slot &+ 1) & slotMask
      }
      let id = Int32(stateHashes.count)
      stateHashes.append(hash)
      stateBits.append(contentsOf: state)
      slots[slot] = id
      if stateHashes.count &* 2 > slots.count {
        slots = [Int32](repeating: -1, count: slots.count &* 2)
        slotMask = slots.count &- 1
        for (other, otherHash) in stateHashes.enumerated() {
          var place = Int(truncatingIfNeeded: otherHash) & slotMask
          while slots[place] >= 0 { place = (place &+ 1) & slotMask }
          slots[place] = Int32(other)
        }
      }
      transitions.append(contentsOf: repeatElement(-1, count: 10))
      var accepts: UInt16 = 0
      for word in 0..<words {
        var bits = state[word]
        while bits != 0 {
          let pc = word * 64 + bits.trailingZeroBitCount
          bits &= bits - 1
          if case .digit = program[pc] { continue }
          computeClosure(pc)
          accepts |= acceptsAtEnd[pc]
        }
      }
      masks.append(accepts)
      return id
    }

    var start = [UInt64](repeating: 0, count: words)
    for origin in starts {
      computeClosure(origin)
      let base = Int(row[origin]) * words
      for word in 0..<words { start[word] |= closureBits[base + word] }
    }
    _ = start.withUnsafeBufferPointer { intern($0) }
    var next = 0
    var targets = [UInt64](repeating: 0, count: 10 * words)
    var state = [UInt64](repeating: 0, count: words)
    while next < stateHashes.count {
      if stateHashes.count > stateLimit { return nil }
      for word in 0..<words { state[word] = stateBits[next &* words &+ word] }
      var reached: UInt16 = 0
      for index in targets.indices { targets[index] = 0 }
      for word in 0..<words {
        var bits = state[word]
        while bits != 0 {
          let pc = word * 64 + bits.trailingZeroBitCount
          bits &= bits - 1
          guard case .digit(let mask) = program[pc], pc + 1 < count else { continue }
          reached |= mask
          computeClosure(pc + 1)
          let base = Int(row[pc + 1]) * words
          closureBits.withUnsafeBufferPointer { closures in
            targets.withUnsafeMutableBufferPointer { targets in
              var digits = mask
              while digits != 0 {
                let digit = digits.trailingZeroBitCount
                digits &= digits - 1
                for word in 0..<words { targets[digit * words + word] |= closures[base + word] }
              }
            }
          }
        }
      }
      var digits = reached
      while digits != 0 {
        let digit = digits.trailingZeroBitCount
        digits &= digits - 1
        let target = targets.withUnsafeBufferPointer {
          intern(UnsafeBufferPointer(rebasing: $0[(digit * words)..<((digit + 1) * words)]))
        }
        transitions[next * 10 + digit] = target
      }
      next += 1
    }
    self.stateCount = stateHashes.count
    self.transitions = .allocate(capacity: transitions.count)
    self.transitions.initialize(from: transitions, count: transitions.count)
    self.accepting = .allocate(capacity: masks.count)
    self.accepting.initialize(from: masks.map { $0 != 0 }, count: masks.count)
    self.matchMasks = .allocate(capacity: masks.count + 1)
    self.matchMasks.initialize(from: masks, count: masks.count)
    (self.matchMasks + masks.count).initialize(to: 0)
    let dead = Int32(stateHashes.count)
    self.totalTransitions = .allocate(capacity: transitions.count + 10)
    self.totalTransitions.initialize(from: transitions.map { ($0 < 0 ? dead : $0) * 10 }, count: transitions.count)
    (self.totalTransitions + transitions.count).initialize(repeating: dead * 10, count: 10)
    let rows = stateHashes.count + 1
    let width = Self.pairRowWidth
    if pairSteps && rows * width <= Int(UInt16.max) + 1 {
      let pairs = UnsafeMutablePointer<UInt16>.allocate(capacity: rows * width)
      let total = self.totalTransitions
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
      self.pairTransitions = pairs
    } else {
      self.pairTransitions = nil
    }
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
