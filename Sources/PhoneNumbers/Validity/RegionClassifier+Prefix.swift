/// What a region's classifier decides from the first digits of a national
/// number of a known length, for ``VerdictTable``.
extension RegionClassifier {
  /// Whether `leading_digits` matches at the start of every number that
  /// starts with `prefix` (true), of none (false), or nil when the digits
  /// after the prefix decide (``TypeCore/leadingDigitsMatch(_:)`` walks
  /// the same automaton).
  func leadingDigitsDecision(prefix: [UInt8]) -> Bool? {
    guard let leadingDigits else { return nil }
    let transitions = leadingDigits.transitionTable
    let accepting = leadingDigits.acceptingTable
    var state = 0
    if accepting[0] { return true }
    for digit in prefix {
      let next = transitions[state &* 10 &+ Int(digit % 10)]
      if next < 0 { return false }
      state = Int(next)
      if accepting[state] { return true }
    }
    return nil
  }

  /// ``TypeCore/type(of:)`` of every national number of `length` digits
  /// that starts with `prefix`, when they all have the same; nil when the
  /// later digits decide. `uniform` is the automaton's
  /// ``DigitAutomaton/uniformMasks(remaining:)`` for `length - prefix.count`.
  func decidedType(prefix: [UInt8], length: Int, uniform: [Int32]) -> PhoneNumberType? {
    let core = self.core.pointee
    guard length < TypeCore.lengthLimit else { return .unknown }
    let lengthMask = core.lengthMasks[length]
    guard lengthMask & 1 != 0 else { return .unknown }
    guard let automaton else { return nil }
    let mask = uniform[automaton.state(after: prefix)]
    guard mask >= 0 else { return nil }
    return core.type(forMask: UInt16(truncatingIfNeeded: mask) & lengthMask)
  }
}
