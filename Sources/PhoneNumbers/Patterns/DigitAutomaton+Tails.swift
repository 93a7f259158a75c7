/// What an automaton decides from a prefix alone: the state it is in, and
/// whether every continuation of a given length ends in the same match
/// mask (then the digits after the prefix need not be read).
extension DigitAutomaton {
  /// For each state (the dead state ``stateCount`` included): the match
  /// mask every continuation of exactly `remaining` digits ends in, or -1
  /// when the continuations end in different masks.
  ///
  /// - Complexity: O(states × `remaining` × 10).
  func uniformMasks(remaining: Int) -> [Int32] {
    let rows = stateCount &+ 1
    // Level 0: the masks themselves (the dead state matches nothing).
    var level = (0..<rows).map { Int32(matchMaskTable[$0]) }
    let total = totalTransitionTable
    for _ in 0..<max(0, remaining) {
      var next = [Int32](repeating: -1, count: rows)
      for state in 0..<rows {
        let first = level[Int(total[state &* 10]) / 10]
        guard first >= 0 else { continue }
        var same = true
        for digit in 1..<10 where level[Int(total[state &* 10 &+ digit]) / 10] != first {
          same = false
          break
        }
        if same { next[state] = first }
      }
      level = next
    }
    return level
  }
}
