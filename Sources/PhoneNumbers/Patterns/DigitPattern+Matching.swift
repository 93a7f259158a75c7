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
    run(digits, requireFullMatch: false)
  }

  /// Whether the pattern matches all of `digits` (Python's `re.fullmatch`).
  func fullMatch(_ digits: UnsafeBufferPointer<UInt8>) -> Bool {
    run(digits, requireFullMatch: true) != nil
  }

  /// A backtracking run over the program with a visited set, as RE2's
  /// "bit state" engine: each (instruction, position) pair is explored once,
  /// so the cost is bounded by program size × input length.
  private func run(_ digits: UnsafeBufferPointer<UInt8>, requireFullMatch: Bool) -> Match? {
    let length = digits.count
    let stateCount = program.count * (length + 1)
    let wordCount = (stateCount + 63) / 64
    return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: wordCount) { visited in
      visited.initialize(repeating: 0)
      var captures = [Int](repeating: -1, count: 2 * (groupCount + 1))
      // A stack entry is either a thread (pc ≥ 0) or a capture restore
      // (pc < 0: slot = -pc - 1, value = position).
      var stack: [(pc: Int, position: Int)] = [(0, 0)]
      stack.reserveCapacity(32)
      while let (entryPC, entryPosition) = stack.popLast() {
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
            guard position < length, mask & (1 << UInt16(digits[position] & 15)) != 0 else {
              break threadLoop
            }
            position += 1
            pc += 1
          case .split(let preferred, let alternative):
            stack.append((alternative, position))
            pc = preferred
          case .jump(let target):
            pc = target
          case .save(let slot):
            stack.append((-slot - 1, captures[slot]))
            captures[slot] = position
            pc += 1
          case .assertEnd:
            guard position == length else { break threadLoop }
            pc += 1
          case .match:
            if requireFullMatch && position != length { break threadLoop }
            captures[0] = 0
            captures[1] = position
            return Match(end: position, captures: captures)
          }
        }
      }
      return nil
    }
  }
}
