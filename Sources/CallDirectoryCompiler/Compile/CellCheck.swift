import CallDirectorySources
import CalldirSystem
import PhoneNumbers

/// What a number field holds that is more than one number, for a source
/// that does not say how to read it (the cell keys of ``CellRules``): the
/// reject's reason names the key to set, and the reject guard counts the
/// field as the numbers it holds.
struct CellFinding: Equatable {
  /// The lowercase reason (`several numbers in one cell ('|'); set "numberSeparator"`).
  let reason: String
  /// How many numbers the field holds (a wildcard block `XXX` 1,000, a
  /// range its size), at least 1.
  let numbers: Int
}

/// Recognizes fields that hold several numbers (`0621 123456|0621 654321`,
/// `a ::: b`), a wildcard block (`0621 123XXX`) or a range (`0621 123000
/// bis 0621 123999`), as regulators publish them, so that such a field is
/// rejected with the key that reads it instead of being read as one number
/// (libphonenumber reads `XXX` as the keypad's `999`) or rejected as "not a
/// phone number" and silently lost.
///
/// # Rules
///
/// - **Several numbers:** cut at a separator (`|`, `;`, `:::`, a line
///   break, ` oder `, ` or `, ` und `, ` and `, ` & `, `/`, `,`), at least
///   two pieces are numbers (possible numbers, wildcard blocks or ranges of
///   them, read in the record's region). A field that libphonenumber reads
///   as one number is one unless each of those pieces after the first is
///   written as a whole number of its own: with a country code, or with the
///   region's national prefix (`030 12345 / 030 67890` is two numbers;
///   `0621/123456`, `06211/234567`, `+1 212 555 0100;ext=7` are one). A
///   field of one number and a separator before or after it (`0151
///   23456789|`) is that number when libphonenumber reads it so, else it is
///   named as such.
/// - **Wildcard block:** the field ends in two or more `X` (either case,
///   not inside a word) or one or more `#`, `*` or `?`, after a digit or a
///   space, and the number with zeros in their place is possible: it holds
///   `10^n` numbers.
/// - **Range:** exactly one of ` bis `, ` to `, ` - `, ` – `, ` — `, `–`,
///   `—`, `...`, `..`, `-` between two possible numbers of one calling code
///   and one length, the first at most the second (`0621 123000 bis 0621
///   123999`); in a field libphonenumber reads as one number (its letters
///   as a keypad's digits: `0621 1 bis 0621 9`), only ` bis ` and ` to `.
/// - A piece with unbalanced parentheses is a regular expression's group,
///   not a number (`(030|040) 1234567`).
///
/// Without a finding the field goes on to the other checks and the
/// normalizer's verdict.
package enum CellCheck {
  /// Separators of several numbers, in the order they are tried.
  static let numberSeparators = ["|", ";", ":::", "\n", " oder ", " or ", " und ", " and ", " & ", "/", ","]
  /// Separators of a range's two ends, in the order they are tried; the
  /// first ``rangeWords`` are words.
  static let rangeSeparators = [" bis ", " to ", " - ", " – ", " — ", "–", "—", "...", "..", "-"]
  static let rangeWords = 2
  /// The separators' bytes.
  private static let numberSeparatorBytes = numberSeparators.map { ($0, Array($0.utf8)) }
  private static let rangeSeparatorBytes = rangeSeparators.map { ($0, Array($0.utf8)) }
  /// The wildcards a block may be written with.
  private static let blockRules: [(rules: CellRules, minimum: Int)] = [("X", 2), ("#", 1), ("*", 1), ("?", 1)]
    .compactMap { wildcard, minimum in
      (try? CellRules(numberSeparator: nil, wildcard: wildcard, rangeSeparator: nil)).map { ($0, minimum) }
    }

  /// The finding for `field`, or nil.
  ///
  /// - Parameters:
  ///   - field: The number field, as the reader gave it.
  ///   - wholeIsNumber: Whether the normalizer read the whole field as one
  ///     possible number.
  ///   - normalizer: Reads the pieces.
  ///   - region: The record's region for national numbers.
  ///   - keys: The cell keys the source may set: the reason says which to
  ///     set, and a block or range counts as its numbers only when its key
  ///     would read it (an `identify` list holds no ranges).
  static func finding(
    _ field: UnsafeBufferPointer<UInt8>, wholeIsNumber: Bool, normalizer: PhoneNumberNormalizer,
    region: RegionMetadata?, keys: CellKeys
  ) -> Verdict {
    let reader = PieceReader(normalizer: normalizer, region: region, keys: keys)
    if let several = several(field, wholeIsNumber: wholeIsNumber, reader: reader) {
      // One number that libphonenumber reads with a stray separator
      // (`0151 23456789|`): that number.
      if several.isLone && wholeIsNumber { return .oneNumber }
      var reason =
        several.isLone
        ? "a number and a separator in one cell ('\(shown(several.separator))')"
        : "several numbers in one cell ('\(shown(several.separator))')"
      if keys.contains(.numberSeparator) {
        reason += "; set \"numberSeparator\""
        let also = (several.holdsBlocks && keys.contains(.wildcard) ? ["\"wildcard\""] : [])
          + (several.holdsRanges && keys.contains(.rangeSeparator) ? ["\"rangeSeparator\""] : [])
        if !also.isEmpty { reason += " (and " + also.joined(separator: " and ") + ")" }
      }
      return .holds(CellFinding(reason: reason, numbers: several.numbers))
    }
    // A block of numbers; without the key, or when its numbers are not
    // possible ones, it is left to the other checks (a wildcard pattern,
    // pointed to `patterns`).
    if keys.contains(.wildcard), let block = reader.block(field), block.numbers > 0 {
      return .holds(
        CellFinding(reason: "a wildcard block in one cell ('\(block.wildcards)'); set \"wildcard\"", numbers: block.numbers))
    }
    // A field read as one number may still be a range written with words,
    // whose letters libphonenumber read as the keypad's digits.
    if let range = reader.range(field, wordsOnly: wholeIsNumber) {
      return .holds(
        CellFinding(
          reason: "a range in one cell ('\(shown(range.separator))')"
            + (keys.contains(.rangeSeparator) ? "; set \"rangeSeparator\"" : ""),
          numbers: keys.contains(.rangeSeparator) ? range.numbers : 1))
    }
    return .none
  }

  /// What ``finding(_:wholeIsNumber:normalizer:region:keys:)`` found.
  enum Verdict: Equatable {
    /// Several numbers, a wildcard block or a range.
    case holds(CellFinding)
    /// One number with a separator before or after it, which libphonenumber
    /// reads as that number: no `|` of a regular expression either.
    case oneNumber
    /// Nothing of the kind.
    case none
  }

  /// The cell keys a reject reason asks to set (those
  /// ``finding(_:wholeIsNumber:normalizer:region:keys:)`` names), in
  /// ``CellRules/keys`` order.
  package static func keys(in reason: String) -> [String] {
    guard reason.contains("; set \"") else { return [] }
    return CellRules.keys.filter { reason.contains("\"\($0)\"") }
  }

  /// `text` as a reason shows it (a line break as `\n`).
  private static func shown(_ text: String) -> String { ShownText.escaped(text) }

  private struct Several {
    let separator: String
    let numbers: Int
    let holdsBlocks: Bool
    let holdsRanges: Bool
    /// One number with the separator before or after it (`0151 23456789|`),
    /// in a field that is not one number as written.
    var isLone = false
  }

  /// The first separator that cuts `field` into two or more numbers.
  private static func several(_ field: UnsafeBufferPointer<UInt8>, wholeIsNumber: Bool, reader: PieceReader) -> Several? {
    guard let base = field.baseAddress else { return nil }
    for (separator, needle) in numberSeparatorBytes {
      guard CellRules.firstOccurrence(of: needle, in: base, 0, field.count) != nil else { continue }
      var numbers = 0
      var pieces = 0
      var holdsBlocks = false
      var holdsRanges = false
      var allStandAlone = true
      var emptyPieces = 0
      var otherPieces = 0
      var start = 0
      while true {
        let cut = CellRules.firstOccurrence(of: needle, in: base, start, field.count)
        var lower = start
        var upper = cut ?? field.count
        _trimCell(base, &lower, &upper)
        let piece = UnsafeBufferPointer(start: base + lower, count: upper - lower)
        if piece.isEmpty || _isPlaceholder(piece) {
          emptyPieces += 1
        } else {
          switch reader.weigh(piece) {
          case .none: otherPieces += 1
          case .number(let standsAlone):
            if pieces > 0 && !standsAlone { allStandAlone = false }
            pieces += 1
            numbers = numbers.addingSaturating(1)
          case .block(let count):
            pieces += 1
            holdsBlocks = true
            numbers = numbers.addingSaturating(count)
          case .range(let count):
            pieces += 1
            holdsRanges = true
            numbers = numbers.addingSaturating(count)
          }
        }
        guard let cut else { break }
        start = cut + needle.count
      }
      if pieces == 1, emptyPieces > 0, otherPieces == 0 {
        return Several(
          separator: separator, numbers: numbers, holdsBlocks: holdsBlocks, holdsRanges: holdsRanges, isLone: true)
      }
      guard pieces >= 2, !wholeIsNumber || allStandAlone else { continue }
      return Several(separator: separator, numbers: numbers, holdsBlocks: holdsBlocks, holdsRanges: holdsRanges)
    }
    return nil
  }

  /// Reads pieces of a field in one region.
  private struct PieceReader {
    let normalizer: PhoneNumberNormalizer
    let region: RegionMetadata?
    let keys: CellKeys

    /// What a piece is.
    enum Weight {
      case none
      /// A possible number; `standsAlone` when it is written as a whole
      /// number (with a country code or the national prefix).
      case number(standsAlone: Bool)
      case block(Int)
      case range(Int)
    }

    func weigh(_ piece: UnsafeBufferPointer<UInt8>) -> Weight {
      // A piece of a regular expression's group (`(030|040) 1234567`).
      let opening = piece.reduce(0) { $0 + ($1 == 0x28 ? 1 : 0) }
      guard opening == piece.reduce(0, { $0 + ($1 == 0x29 ? 1 : 0) }) else { return .none }
      // A block first: libphonenumber reads `XXX` as the keypad's `999`.
      if let block = block(piece), block.numbers > 0 { return .block(keys.contains(.wildcard) ? block.numbers : 1) }
      var national = false
      if case .success(let number) = normalizer.normalize(utf8: piece, region: region, writtenNationally: &national) {
        return .number(standsAlone: !national || writesNationalPrefix(piece, number: number))
      }
      if let range = range(piece) { return .range(keys.contains(.rangeSeparator) ? range.numbers : 1) }
      return .none
    }

    /// Whether `piece`, read as `number` of the region, has more digits
    /// than the number's national significant number: a national prefix
    /// (`0` in `030 67890`) the normalizer took off.
    private func writesNationalPrefix(_ piece: UnsafeBufferPointer<UInt8>, number: Int64) -> Bool {
      guard let region else { return false }
      let written = piece.reduce(0) { $0 + (_isDigit($1) ? 1 : 0) }
      return written > E164Digits.count(of: number) - E164Digits.count(of: Int64(region.callingCode))
    }

    /// A trailing wildcard block: its wildcards as written and the numbers
    /// it holds (0 when its first number is not a possible number).
    func block(_ piece: UnsafeBufferPointer<UInt8>) -> (wildcards: String, numbers: Int)? {
      for (rules, minimum) in CellCheck.blockRules where rules.endsInWildcard(piece) {
        guard let block = rules.wildcardBlock(piece), block.digits >= minimum else { continue }
        let possible = block.low.withUnsafeBufferPointer {
          if case .success = normalizer.normalize(utf8: $0, region: region) { return true }
          return false
        }
        var count = 1
        for _ in 0..<min(block.digits, 18) { count = count.multipliedSaturating(10) }
        let wildcard = String(decoding: rules.wildcardBytes, as: UTF8.self)
        let written = String(repeating: wildcard, count: block.digits)
        return (written, possible ? count : 0)
      }
      return nil
    }

    /// A range written with one of ``CellCheck/rangeSeparators`` (only
    /// the words with `wordsOnly`).
    func range(_ piece: UnsafeBufferPointer<UInt8>, wordsOnly: Bool = false) -> (separator: String, numbers: Int)? {
      guard let base = piece.baseAddress else { return nil }
      for (separator, needle) in CellCheck.rangeSeparatorBytes.prefix(wordsOnly ? CellCheck.rangeWords : .max) {
        guard let cut = CellRules.firstOccurrence(of: needle, in: base, 0, piece.count),
          CellRules.firstOccurrence(of: needle, in: base, cut + needle.count, piece.count) == nil
        else { continue }
        var startLower = 0
        var startUpper = cut
        _trimCell(base, &startLower, &startUpper)
        var endLower = cut + needle.count
        var endUpper = piece.count
        _trimCell(base, &endLower, &endUpper)
        guard startLower < startUpper, endLower < endUpper,
          case .success(let lower) = normalizer.normalize(
            utf8: UnsafeBufferPointer(start: base + startLower, count: startUpper - startLower), region: region),
          case .success(let upper) = normalizer.normalize(
            utf8: UnsafeBufferPointer(start: base + endLower, count: endUpper - endLower), region: region),
          lower <= upper, E164Digits.count(of: lower) == E164Digits.count(of: upper),
          RecordAcceptance.callingCode(of: lower, plan: normalizer.plan)
            == RecordAcceptance.callingCode(of: upper, plan: normalizer.plan)
        else { continue }
        let (difference, overflow) = (upper - lower).addingReportingOverflow(1)
        return (separator, overflow || difference > Int64(Int.max) ? Int.max : Int(difference))
      }
      return nil
    }
  }
}

extension Int {
  /// `self + other`, or `Int.max` past it.
  package func addingSaturating(_ other: Int) -> Int {
    let (sum, overflow) = addingReportingOverflow(other)
    return overflow ? .max : sum
  }

  /// `self * other`, or `Int.max` past it.
  func multipliedSaturating(_ other: Int) -> Int {
    let (product, overflow) = multipliedReportingOverflow(by: other)
    return overflow ? .max : product
  }
}

/// The cell keys (``CellRules``) a source may set, so that a reject names
/// only keys that would read its cells.
package struct CellKeys: OptionSet, Sendable, Hashable {
  package let rawValue: UInt8

  package init(rawValue: UInt8) { self.rawValue = rawValue }

  static let numberSeparator = CellKeys(rawValue: 1)
  static let wildcard = CellKeys(rawValue: 2)
  static let rangeSeparator = CellKeys(rawValue: 4)
  static let all: CellKeys = [.numberSeparator, .wildcard, .rangeSeparator]

  /// The keys `spec` may set: none when its format takes none (`jsonl`,
  /// `vcard`, `patterns`); only `numberSeparator` for an `identify` source
  /// or one whose reports are weighed, which hold no ranges.
  static func of(_ spec: SourceSpec, registry: SourceFormatRegistry) -> CellKeys {
    guard registry[spec.format]?.options.contains(where: { $0.name == CellRules.keys[0] }) == true else { return [] }
    return spec.list == .identify || spec.weighsEvidence ? .numberSeparator : .all
  }
}
