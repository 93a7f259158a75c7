/// What a region's classifier decides from the first four digits of a
/// national number of a known length, for ``VerdictTable``.
struct PrefixDecider {
  private let classifier: RegionClassifier
  private let core: TypeCore
  private let lengthMask: UInt16
  /// ``DigitAutomaton/uniformMasks(remaining:)`` of the type automaton for
  /// the digits after the prefix; empty without an automaton.
  private let uniform: [Int32]
  /// Every prefix's ``decidedType(prefix:)`` as a type index (-1: none),
  /// for a region without `leading_digits`: the table asks it about most
  /// prefixes, and a walk over all of them shares the first digits' steps.
  private var decidedTypeIndices: [Int8]? = nil

  init(_ classifier: RegionClassifier, length: Int) {
    self.classifier = classifier
    core = classifier.core.pointee
    lengthMask = length < TypeCore.lengthLimit ? core.lengthMasks[length] : 0
    uniform = classifier.automaton?.uniformMasks(remaining: length - VerdictTable.prefixDigits) ?? []
    if !core.hasLeadingDigits, let automaton = classifier.automaton, lengthMask & 1 != 0 {
      decidedTypeIndices = allDecidedTypes(automaton)
    }
  }

  /// ``decidedType(prefix:)`` of every prefix, as type indices.
  private func allDecidedTypes(_ automaton: DigitAutomaton) -> [Int8] {
    var indices = [Int8](repeating: -1, count: VerdictTable.entryCount)
    let total = automaton.totalTransitionTable
    indices.withUnsafeMutableBufferPointer { indices in
      for first in 0..<10 {
        let afterFirst = Int(total[first])
        for second in 0..<10 {
          let afterSecond = Int(total[afterFirst + second])
          for third in 0..<10 {
            let afterThird = Int(total[afterSecond + third])
            let prefix = first * 1000 + second * 100 + third * 10
            for fourth in 0..<10 {
              if let type = type(afterRow: Int(total[afterThird + fourth])) { indices[prefix + fourth] = Int8(type.index) }
            }
          }
        }
      }
    }
    return indices
  }

  /// The type every continuation from the type automaton's row `row`
  /// (state × 10) ends in, or nil when they differ.
  @inline(__always)
  private func type(afterRow row: Int) -> PhoneNumberType? {
    let mask = uniform[row / 10]
    guard mask >= 0 else { return nil }
    return core.type(forMask: UInt16(truncatingIfNeeded: mask) & lengthMask)
  }

  /// The four digits of an entry index, first to last.
  private static func digits(_ prefix: Int) -> (Int, Int, Int, Int) {
    (prefix / 1000, prefix / 100 % 10, prefix / 10 % 10, prefix % 10)
  }

  /// ``TypeCore/type(of:)`` of every national number of the length that
  /// starts with the four digits of `prefix` (an entry index), when they
  /// all have the same; nil when the later digits decide.
  func decidedType(prefix: Int) -> PhoneNumberType? {
    guard let automaton = classifier.automaton else { return nil }
    guard lengthMask & 1 != 0 else { return .unknown }
    if let decidedTypeIndices {
      let index = decidedTypeIndices[prefix]
      return index < 0 ? nil : PhoneNumberType(index: Int(index))
    }
    // Rows of the table with a dead state are state × 10.
    let total = automaton.totalTransitionTable
    let (first, second, third, fourth) = Self.digits(prefix)
    var row = Int(total[first])
    row = Int(total[row + second])
    row = Int(total[row + third])
    return type(afterRow: Int(total[row + fourth]))
  }

  /// Whether `leading_digits` matches at the start of every number that
  /// starts with the four digits of `prefix` (true), of none (false), or
  /// nil when the digits after them decide (``TypeCore/leadingDigitsMatch(_:)``
  /// walks the same automaton).
  func leadingDigitsDecision(prefix: Int) -> Bool? {
    guard let leadingDigits = classifier.leadingDigits else { return nil }
    let transitions = leadingDigits.transitionTable
    let accepting = leadingDigits.acceptingTable
    if accepting[0] { return true }
    let (first, second, third, fourth) = Self.digits(prefix)
    var state = 0
    for digit in [first, second, third, fourth] {
      let next = transitions[state &* 10 &+ digit]
      if next < 0 { return false }
      state = Int(next)
      if accepting[state] { return true }
    }
    return nil
  }
}
