// The subset construction behind `DigitAutomaton.init(patterns:stateLimit:pairSteps:)`:
// the patterns' programs combined (CombinedProgram), each instruction's
// closure (DigitClosures, ClosureWalker), states interned by their instruction sets
// (DigitStateTable), and the breadth-first walk over them (SubsetConstruction).

extension DigitAutomaton {
  /// The patterns' programs side by side, jump and split targets relocated.
  struct CombinedProgram {
    /// The instructions of every pattern, pattern 0's first.
    private(set) var instructions: [DigitPattern.Instruction] = []
    /// `tags[pc]` is the bit of the pattern instruction `pc` belongs to.
    private(set) var tags: [UInt16] = []
    /// Where each pattern's program starts.
    private(set) var starts: [Int] = []

    init(_ patterns: [DigitPattern]) {
      for (index, pattern) in patterns.enumerated() {
        let offset = instructions.count
        starts.append(offset)
        for instruction in pattern.program {
          switch instruction {
          case .split(let first, let second): instructions.append(.split(first + offset, second + offset))
          case .jump(let target): instructions.append(.jump(target + offset))
          default: instructions.append(instruction)
          }
          tags.append(1 << UInt16(index))
        }
      }
    }

    /// The number of instructions.
    var count: Int { instructions.count }
    /// The number of 64-bit words in a set of instructions.
    var words: Int { (instructions.count + 63) / 64 }
  }

  /// The closures of instructions, each computed once, when first needed.
  ///
  /// A closure is the set of instructions reachable from an origin without
  /// consuming a digit (digit tests, `match`, and end assertions not yet
  /// passed), kept as a bit set; rows are made for origins only (pattern
  /// starts and digit successors). The work lists are raw buffers (array
  /// bounds and uniqueness checks dominated this walk).
  struct DigitClosures: ~Copyable {
    private let words: Int
    /// The closure rows, `words` words each.
    private(set) var bits: [UInt64] = []
    /// `row[pc]` is origin pc's row in `bits`, or -1.
    private let row: UnsafeMutablePointer<Int32>
    private let walker: ClosureWalker

    init(count: Int, words: Int) {
      self.words = words
      row = .allocate(capacity: count)
      row.initialize(repeating: -1, count: count)
      walker = ClosureWalker(count: count)
    }

    deinit {
      row.deallocate()
      walker.deallocate()
    }

    /// Where origin `pc`'s closure starts in ``bits``, computing it first
    /// when needed.
    @inline(__always)
    mutating func base(of pc: Int, in program: CombinedProgram) -> Int {
      compute(pc, in: program)
      return Int(row[pc]) * words
    }

    /// The patterns matching at the end of the input from origin `pc`
    /// (computing its closure first when needed).
    @inline(__always)
    mutating func acceptsAtEnd(from pc: Int, in program: CombinedProgram) -> UInt16 {
      compute(pc, in: program)
      return walker.acceptsAtEnd[pc]
    }

    private mutating func compute(_ origin: Int, in program: CombinedProgram) {
      guard row[origin] < 0 else { return }
      row[origin] = Int32(bits.count / words)
      let base = bits.count
      bits.append(contentsOf: repeatElement(0, count: words))
      let walker = self.walker
      bits.withUnsafeMutableBufferPointer { bits in
        program.instructions.withUnsafeBufferPointer { instructions in
          for atEnd in [false, true] {
            walker.walk(from: origin, atEnd: atEnd, into: bits, at: base, instructions, tags: program.tags)
          }
        }
      }
    }
  }

  /// The depth-first walk behind a closure, over raw work lists.
  struct ClosureWalker {
    private let count: Int
    /// Which patterns' `match` is reachable from an origin once at the end
    /// of the input (end assertions passed through).
    let acceptsAtEnd: UnsafeMutablePointer<UInt16>
    private let seen: UnsafeMutablePointer<Bool>
    /// Each instruction is visited at most once per walk: `count` entries suffice.
    private let touched: UnsafeMutablePointer<Int>
    private let stack: UnsafeMutablePointer<Int>

    init(count: Int) {
      self.count = count
      acceptsAtEnd = .allocate(capacity: count)
      acceptsAtEnd.initialize(repeating: 0, count: count)
      seen = .allocate(capacity: count)
      seen.initialize(repeating: false, count: count)
      touched = .allocate(capacity: count)
      stack = .allocate(capacity: 2 * count + 2)
    }

    func deallocate() {
      acceptsAtEnd.deallocate()
      seen.deallocate()
      touched.deallocate()
      stack.deallocate()
    }

    /// One walk from `origin`: with `atEnd` false it marks the closure's
    /// instructions in `bits` at `base`; with `atEnd` true it passes end
    /// assertions and collects the patterns whose `match` it reaches into
    /// `acceptsAtEnd[origin]`.
    @inline(__always)
    func walk(
      from origin: Int, atEnd: Bool, into bits: UnsafeMutableBufferPointer<UInt64>, at base: Int,
      _ program: UnsafeBufferPointer<DigitPattern.Instruction>, tags: [UInt16]
    ) {
      var touchedCount = 0
      stack[0] = origin
      var depth = 1
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

  /// The states found so far, each a set of instructions (`words` words),
  /// interned in an open-addressing table keyed by a cheap hash of their bit
  /// sets (SipHash and an array per state dominated the construction).
  struct DigitStateTable {
    private let words: Int
    /// State i's words at i × words.
    private(set) var bits: [UInt64] = []
    private var hashes: [UInt64] = []
    private var slots = [Int32](repeating: -1, count: 64)

    init(words: Int) { self.words = words }

    /// The number of states.
    var count: Int { hashes.count }

    /// `state`'s id, and whether it is new (then appended with the next id).
    mutating func intern(_ state: UnsafeBufferPointer<UInt64>) -> (id: Int32, inserted: Bool) {
      let hash = Self.hash(state)
      let slotMask = slots.count &- 1
      var slot = Int(truncatingIfNeeded: hash) & slotMask
      while slots[slot] >= 0 {
        let id = Int(slots[slot])
        if hashes[id] == hash && holds(state, at: id) { return (Int32(id), false) }
        slot = (slot &+ 1) & slotMask
      }
      let id = Int32(hashes.count)
      hashes.append(hash)
      bits.append(contentsOf: state)
      slots[slot] = id
      if hashes.count &* 2 > slots.count { doubleSlots() }
      return (id, true)
    }

    /// The hash a state is filed under.
    static func hash(_ state: UnsafeBufferPointer<UInt64>) -> UInt64 {
      var hash: UInt64 = 0x9E37_79B9_7F4A_7C15
      for word in state { hash = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9; hash ^= hash >> 29 }
      return hash
    }

    /// Whether state `id` is `state`.
    private func holds(_ state: UnsafeBufferPointer<UInt64>, at id: Int) -> Bool {
      bits.withUnsafeBufferPointer { bits in
        (0..<words).allSatisfy { bits[id &* words &+ $0] == state[$0] }
      }
    }

    /// Twice the slots, every state filed again.
    private mutating func doubleSlots() {
      slots = [Int32](repeating: -1, count: slots.count &* 2)
      let slotMask = slots.count &- 1
      for (state, hash) in hashes.enumerated() {
        var place = Int(truncatingIfNeeded: hash) & slotMask
        while slots[place] >= 0 { place = (place &+ 1) & slotMask }
        slots[place] = Int32(state)
      }
    }
  }

  /// The subset construction: from the start state (the union of the
  /// patterns' starting closures), each state's digit successors, breadth
  /// first, until no new state appears.
  struct SubsetConstruction: ~Copyable {
    private let program: CombinedProgram
    private let words: Int
    private var closures: DigitClosures
    private var states: DigitStateTable
    /// `transitions[state * 10 + digit]`, -1 for none.
    private(set) var transitions: [Int32] = []
    /// Each state's patterns matching at the end of the input.
    private(set) var masks: [UInt16] = []

    init(_ program: CombinedProgram) {
      self.program = program
      words = program.words
      closures = DigitClosures(count: program.count, words: program.words)
      states = DigitStateTable(words: program.words)
    }

    /// Finds every state; false when there would be more than `stateLimit`.
    mutating func run(stateLimit: Int) -> Bool {
      let start = startState()
      _ = start.withUnsafeBufferPointer { add($0) }
      var next = 0
      var targets = [UInt64](repeating: 0, count: 10 * words)
      var state = [UInt64](repeating: 0, count: words)
      while next < states.count {
        if states.count > stateLimit { return false }
        for word in 0..<words { state[word] = states.bits[next &* words &+ word] }
        let reached = successors(of: state, into: &targets)
        var digits = reached
        while digits != 0 {
          let digit = digits.trailingZeroBitCount
          digits &= digits - 1
          let target = targets.withUnsafeBufferPointer {
            add(UnsafeBufferPointer(rebasing: $0[(digit * words)..<((digit + 1) * words)]))
          }
          transitions[next * 10 + digit] = target
        }
        next += 1
      }
      return true
    }

    /// The union of the patterns' starting closures.
    private mutating func startState() -> [UInt64] {
      var start = [UInt64](repeating: 0, count: words)
      for origin in program.starts {
        let base = closures.base(of: origin, in: program)
        for word in 0..<words { start[word] |= closures.bits[base + word] }
      }
      return start
    }

    /// Interns `state`; a new one gets a row of no transitions and its
    /// patterns matching at the end.
    private mutating func add(_ state: UnsafeBufferPointer<UInt64>) -> Int32 {
      let (id, inserted) = states.intern(state)
      if inserted {
        transitions.append(contentsOf: repeatElement(-1, count: 10))
        masks.append(acceptsAtEnd(state))
      }
      return id
    }

    /// The patterns matching at the end of the input from `state`.
    private mutating func acceptsAtEnd(_ state: UnsafeBufferPointer<UInt64>) -> UInt16 {
      var accepts: UInt16 = 0
      for word in 0..<words {
        var bits = state[word]
        while bits != 0 {
          let pc = word * 64 + bits.trailingZeroBitCount
          bits &= bits - 1
          if case .digit = program.instructions[pc] { continue }
          accepts |= closures.acceptsAtEnd(from: pc, in: program)
        }
      }
      return accepts
    }

    /// The state each digit leads to from `state`, digit d's at d × words
    /// in `targets`; returns the digits that lead anywhere (bit d for d).
    private mutating func successors(of state: [UInt64], into targets: inout [UInt64]) -> UInt16 {
      var reached: UInt16 = 0
      for index in targets.indices { targets[index] = 0 }
      for word in 0..<words {
        var bits = state[word]
        while bits != 0 {
          let pc = word * 64 + bits.trailingZeroBitCount
          bits &= bits - 1
          guard case .digit(let mask) = program.instructions[pc], pc + 1 < program.count else { continue }
          reached |= mask
          let base = closures.base(of: pc + 1, in: program)
          closures.bits.withUnsafeBufferPointer { closures in
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
      return reached
    }
  }
}
