extension DigitPattern {
  /// The result of a successful prefix match.
  struct Match: Equatable {
    /// Where the match ended (exclusive), as an offset into the input.
    var end: Int
    /// Capture slots: `captures[2·g]` and `captures[2·g + 1]` are the bounds of
    /// group g (1-based), or -1 when the group did not take part in the match.
    var captures: [Int]

    /// The bounds of group `group`, or nil when it did not participate.
    func range(ofGroup group: Int) -> Range<Int>? {
      guard 2 * group + 1 < captures.count else { return nil }
      let lower = captures[2 * group]
      let upper = captures[2 * group + 1]
      return lower >= 0 && upper >= lower ? lower..<upper : nil
    }
  }

  /// Matches the pattern at the start of `digits` (Python's `re.match`): the
  /// first match in priority order, which need not reach the end.
  func prefixMatch(_ digits: UnsafeBufferPointer<UInt8>) -> Match? {
    var captures = [Int](repeating: -1, count: captureSlotCount)
    let end = captures.withUnsafeMutableBufferPointer { slots in
      prefixMatchEnd(digits, captures: slots.baseAddress!)
    }
    return end >= 0 ? Match(end: end, captures: captures) : nil
  }

  /// Whether the pattern matches all of `digits` (Python's `re.fullmatch`).
  func fullMatch(_ digits: UnsafeBufferPointer<UInt8>) -> Bool {
    withUnsafeTemporaryAllocation(of: Int.self, capacity: captureSlotCount) { slots in
      runGrowing(digits, requireFullMatch: true, captures: slots.baseAddress!) >= 0
    }
  }

  /// The number of capture slots `prefixMatchEnd` writes: two per group plus
  /// two for the whole match.
  var captureSlotCount: Int { 2 * (groupCount + 1) }

  /// `prefixMatch` without allocating: the end of the first match in priority
  /// order, or -1 when there is none. The bounds of each group are written to
  /// `captures` (`captureSlotCount` slots, -1 for a group not taking part).
  ///
  /// Plain digit strings are compared directly; other patterns are first
  /// screened by the digits a match can start with, then run by the
  /// backtracking engine with small working memory on the stack.
  @inline(__always)
  func prefixMatchEnd(_ digits: UnsafeBufferPointer<UInt8>, captures: UnsafeMutablePointer<Int>) -> Int {
    if let literal {
      let count = literal.count
      guard digits.count >= count else { return -1 }
      var index = 0
      while index < count {
        if digits[index] != literal[index] { return -1 }
        index += 1
      }
      captures[0] = 0
      captures[1] = count
      return count
    }
    if !mayMatchEmpty {
      guard let first = digits.first, firstDigits & (1 << UInt16(first & 15)) != 0 else { return -1 }
    }
    return prefixMatchSlow(digits, captures: captures)
  }

  /// `prefixMatchEnd`, and how many leading digits its run read: every
  /// input of the same length that has those digits gets the same match,
  /// groups included (the run is a function of the digits it reads and of
  /// the length). Nil when the run needs more working memory than the
  /// stack holds.
  func tracedPrefixMatchEnd(
    _ digits: UnsafeBufferPointer<UInt8>, captures: UnsafeMutablePointer<Int>
  ) -> (end: Int, reads: Int)? {
    for slot in 0..<captureSlotCount { captures[slot] = -1 }
    if let literal {
      guard digits.count >= literal.count else { return (-1, 0) }
      for index in literal.indices where digits[index] != literal[index] { return (-1, index + 1) }
      captures[0] = 0
      captures[1] = literal.count
      return (literal.count, literal.count)
    }
    if !mayMatchEmpty {
      guard let first = digits.first else { return (-1, 0) }
      guard firstDigits & (1 << UInt16(first & 15)) != 0 else { return (-1, 1) }
    }
    var reads = 0
    let end = runOnStack(digits, captures: captures, reads: &reads)
    return end == Self.stackOverflow ? nil : (end, reads)
  }

  private static let smallVisitedWords = 48
  private static let smallStackEntries = 64
  /// Returned by `run` when its stack is too small.
  private static let stackOverflow = -2

  private func prefixMatchSlow(_ digits: UnsafeBufferPointer<UInt8>, captures: UnsafeMutablePointer<Int>) -> Int {
    let end = runOnStack(digits, captures: captures)
    return end != Self.stackOverflow ? end : runGrowing(digits, requireFullMatch: false, captures: captures)
  }

  /// A prefix `run` in working memory on the stack (112 words = 896
  /// bytes), or `stackOverflow` when that is too small.
  @inline(__always)
  private func runOnStack(
    _ digits: UnsafeBufferPointer<UInt8>, captures: UnsafeMutablePointer<Int>, reads: UnsafeMutablePointer<Int>? = nil
  ) -> Int {
    let visitedWords = (program.count * (digits.count + 1) + 63) / 64
    guard visitedWords <= Self.smallVisitedWords else { return Self.stackOverflow }
    return withUnsafeTemporaryAllocation(
      of: UInt64.self, capacity: Self.smallVisitedWords + Self.smallStackEntries
    ) { memory in
      run(
        digits, requireFullMatch: false,
        visited: UnsafeMutableBufferPointer(rebasing: memory[0..<visitedWords]),
        captures: captures,
        stack: UnsafeMutableBufferPointer(rebasing: memory[Self.smallVisitedWords...]),
        reads: reads)
    }
  }

  /// `run` with heap working memory, doubling the stack until it suffices.
  private func runGrowing(
    _ digits: UnsafeBufferPointer<UInt8>, requireFullMatch: Bool, captures: UnsafeMutablePointer<Int>
  ) -> Int {
    let visitedWords = (program.count * (digits.count + 1) + 63) / 64
    var visited = [UInt64](repeating: 0, count: visitedWords)
    var stackSize = 256
    while true {
      var stack = [UInt64](repeating: 0, count: stackSize)
      let end = visited.withUnsafeMutableBufferPointer { visited in
        stack.withUnsafeMutableBufferPointer { stack in
          run(digits, requireFullMatch: requireFullMatch, visited: visited, captures: captures, stack: stack)
        }
      }
      if end != Self.stackOverflow { return end }
      stackSize *= 2
    }
  }

  /// A backtracking run over the program with a visited set, as RE2's
  /// "bit state" engine: each (instruction, position) pair is explored once,
  /// so the cost is bounded by program size × input length.
  ///
  /// Returns the end of the first match, -1 for none, or `stackOverflow`
  /// when `stack` is too small (the caller then retries with more).
  /// `reads`, when given, is raised to one past the furthest digit read.
  private func run(
    _ digits: UnsafeBufferPointer<UInt8>, requireFullMatch: Bool,
    visited: UnsafeMutableBufferPointer<UInt64>, captures: UnsafeMutablePointer<Int>,
    stack: UnsafeMutableBufferPointer<UInt64>, reads: UnsafeMutablePointer<Int>? = nil
  ) -> Int {
    let length = digits.count
    visited.update(repeating: 0)
    for slot in 0..<captureSlotCount { captures[slot] = -1 }
    // A stack entry is either a thread (pc ≥ 0) or a capture restore
    // (pc < 0: slot = -pc - 1, value = position), packed as two Int32s.
    @inline(__always) func pack(_ pc: Int, _ position: Int) -> UInt64 {
      UInt64(UInt32(bitPattern: Int32(truncatingIfNeeded: pc))) << 32
        | UInt64(UInt32(bitPattern: Int32(truncatingIfNeeded: position)))
    }
    let capacity = stack.count
    guard capacity > 0 else { return Self.stackOverflow }
    stack[0] = pack(0, 0)
    var depth = 1
    return program.withUnsafeBufferPointer { program -> Int in
      while depth > 0 {
        depth -= 1
        let entry = stack[depth]
        let entryPC = Int(Int32(bitPattern: UInt32(truncatingIfNeeded: entry >> 32)))
        let entryPosition = Int(Int32(bitPattern: UInt32(truncatingIfNeeded: entry)))
        if entryPC < 0 {
          captures[-entryPC - 1] = entryPosition
          continue
        }
        var pc = entryPC
        var position = entryPosition
        threadLoop: while true {
          let state = pc * (length + 1) + position
          let bit = UInt64(1) << UInt64(state & 63)
          if visited[state >> 6] & bit != 0 { break threadLoop }
          visited[state >> 6] |= bit
          switch program[pc] {
          case .digit(let mask):
            guard position < length else { break threadLoop }
            if let reads, position >= reads.pointee { reads.pointee = position &+ 1 }
            guard mask & (1 << UInt16(digits[position] & 15)) != 0 else { break threadLoop }
            position += 1
            pc += 1
          case .split(let preferred, let alternative):
            guard depth < capacity else { return Self.stackOverflow }
            stack[depth] = pack(alternative, position)
            depth += 1
            pc = preferred
          case .jump(let target):
            pc = target
          case .save(let slot):
            guard depth < capacity else { return Self.stackOverflow }
            stack[depth] = pack(-slot - 1, captures[slot])
            depth += 1
            captures[slot] = position
            pc += 1
          case .assertEnd:
            guard position == length else { break threadLoop }
            pc += 1
          case .match:
            if requireFullMatch && position != length { break threadLoop }
            captures[0] = 0
            captures[1] = position
            return position
          }
        }
      }
      return -1
    }
  }
}
