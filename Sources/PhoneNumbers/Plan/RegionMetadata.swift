/// What the normalizer needs to know about one region (or one
/// non-geographic calling code): one row of the numbering-plan table,
/// with its patterns compiled.
public final class RegionMetadata: Sendable {
  /// ISO 3166-1 alpha-2 code, or "001" for a non-geographic calling code.
  public let regionCode: String
  /// The country calling code, e.g. 44.
  public let callingCode: Int
  /// The calling code's decimal digits.
  let callingCodeDigits: [UInt8]
  /// Whether this is the main region for its calling code (US for +1).
  public let isMainRegion: Bool
  /// The position among the regions sharing the calling code (0 for the
  /// main region), the order libphonenumber tries them in.
  let rank: Int
  /// The pattern a national number of this region starts with, for calling
  /// codes several regions share (VA `06698` within +39); nil when the
  /// region is told apart by its number types instead.
  let leadingDigits: DigitPattern?
  /// Whether mobile and fixed-line numbers share one pattern (libphonenumber's
  /// `same_mobile_and_fixed_line_pattern`): then a match is
  /// ``PhoneNumberType/fixedLineOrMobile``.
  let sameMobileAndFixedLinePattern: Bool
  /// The international (IDD) prefix pattern, e.g. `00` or `0[09]`.
  let internationalPrefix: DigitPattern?
  /// The pattern matched at the start to strip a national (trunk) prefix and
  /// carrier codes.
  let nationalPrefixForParsing: DigitPattern?
  /// Rewrite applied with `nationalPrefixForParsing`, as digits and group
  /// references (`$1`).
  let nationalPrefixTransform: [TransformPart]?
  /// Possible lengths of a national significant number, ascending.
  let possibleLengths: [Int]
  /// Lengths possible only for local dialling.
  let localOnlyLengths: [Int]
  /// The general national-number pattern, nil when the region has none.
  let generalPattern: DigitPattern?
  /// The same pattern as an automaton, compiled on first use.
  let generalAutomaton: LazyGeneralAutomaton
  /// `possibleLengths` and `localOnlyLengths` as bit sets (bit n for length n).
  let possibleLengthBits: UInt64
  let localOnlyLengthBits: UInt64
  /// The shortest and longest possible length, or -1 when there are none.
  let minimumLength: Int
  let maximumLength: Int
  /// How far the transform rule can grow a number: its literal digits and
  /// the number of group references (each copies at most the whole number).
  let transformLiteralCount: Int
  let transformGroupReferences: Int
  /// The same facts as plain values for the hot path (owned, freed in
  /// deinit), with screens for the two prefix patterns that settle literal
  /// prefixes (`00`, `011`, `0`, `1`, `8`) and most misses without touching
  /// the pattern objects.
  nonisolated(unsafe) let core: UnsafeMutablePointer<RegionCore>

  init(
    regionCode: String, callingCode: Int, isMainRegion: Bool,
    internationalPrefix: DigitPattern?, nationalPrefixForParsing: DigitPattern?,
    nationalPrefixTransform: [TransformPart]?, possibleLengths: [Int], localOnlyLengths: [Int],
    generalPattern: DigitPattern?, rank: Int? = nil, leadingDigits: DigitPattern? = nil,
    sameMobileAndFixedLinePattern: Bool = false
  ) {
    self.rank = rank ?? (isMainRegion ? 0 : 1)
    self.leadingDigits = leadingDigits
    self.sameMobileAndFixedLinePattern = sameMobileAndFixedLinePattern
    self.regionCode = regionCode
    self.callingCode = callingCode
    self.callingCodeDigits = String(callingCode).utf8.map { $0 - 48 }
    self.isMainRegion = isMainRegion
    self.internationalPrefix = internationalPrefix
    self.nationalPrefixForParsing = nationalPrefixForParsing
    self.nationalPrefixTransform = nationalPrefixTransform
    self.possibleLengths = possibleLengths
    self.localOnlyLengths = localOnlyLengths
    self.generalPattern = generalPattern
    self.generalAutomaton = LazyGeneralAutomaton(generalPattern)
    self.possibleLengthBits = possibleLengths.reduce(0) { $1 < 64 ? $0 | 1 << UInt64($1) : $0 }
    self.localOnlyLengthBits = localOnlyLengths.reduce(0) { $1 < 64 ? $0 | 1 << UInt64($1) : $0 }
    self.minimumLength = possibleLengths.first ?? -1
    self.maximumLength = possibleLengths.last ?? -1
    var literals = 0
    var references = 0
    for part in nationalPrefixTransform ?? [] {
      switch part {
      case .digits(let digits): literals += digits.count
      case .group: references += 1
      }
    }
    self.transformLiteralCount = literals
    self.transformGroupReferences = references
    self.core = .allocate(capacity: 1)
    core.initialize(to: RegionCore(
      callingCode: callingCode, callingCodeDigitCount: callingCodeDigits.count, isMainRegion: isMainRegion,
      internationalPrefixScreen: PrefixScreen(internationalPrefix),
      nationalPrefixScreen: PrefixScreen(nationalPrefixForParsing),
      possibleLengthBits: possibleLengthBits, localOnlyLengthBits: localOnlyLengthBits,
      minimumLength: minimumLength, maximumLength: maximumLength,
      owner: .passUnretained(self)))
  }

  deinit {
    core.deinitialize(count: 1)
    core.deallocate()
  }

  /// One piece of a national-prefix transform rule.
  enum TransformPart: Sendable, Equatable {
    case digits([UInt8])
    case group(Int)
  }
}

/// What can be known about a prefix match without running the pattern.
struct PrefixScreen: Sendable {
  enum Kind: UInt8, Sendable {
    /// No pattern: never matches.
    case none
    /// A plain digit string of `literalCount` digits, packed in `literalDigits`.
    case literal
    /// Any other pattern: screened by `firstDigits`, then run.
    case pattern
  }
  let kind: Kind
  let literalCount: Int
  /// Digit i in bits 4i..<4i+4.
  let literalDigits: UInt64
  /// The digits a match can start with, or all of them when it may be empty.
  let firstDigits: UInt16

  init(_ pattern: DigitPattern?) {
    guard let pattern else {
      (kind, literalCount, literalDigits, firstDigits) = (.none, 0, 0, 0)
      return
    }
    if let literal = pattern.literal, literal.count <= 16 {
      var packed: UInt64 = 0
      for (index, digit) in literal.enumerated() { packed |= UInt64(digit) << UInt64(4 * index) }
      (kind, literalCount, literalDigits, firstDigits) = (.literal, literal.count, packed, 0)
    } else {
      (kind, literalCount, literalDigits) = (.pattern, 0, 0)
      firstDigits = pattern.mayMatchEmpty ? 0x3FF : pattern.firstDigits
    }
  }

  /// For `.literal`: the end of the match at the start of `digits`, or -1.
  @inline(__always)
  func literalMatchEnd(_ digits: UnsafeBufferPointer<UInt8>) -> Int {
    guard digits.count >= literalCount else { return -1 }
    var index = 0
    var packed = literalDigits
    while index < literalCount {
      if UInt64(digits[index]) != packed & 15 { return -1 }
      packed >>= 4
      index += 1
    }
    return literalCount
  }

  /// For `.pattern`: whether the first digit rules out any match.
  @inline(__always)
  func excludes(_ digits: UnsafeBufferPointer<UInt8>) -> Bool {
    if firstDigits == 0x3FF { return false }
    guard let first = digits.first else { return true }
    return firstDigits & (1 << UInt16(first & 15)) == 0
  }
}

extension RegionMetadata {
  /// `internationalPrefix.prefixMatchEnd`: the end of the IDD at the start of
  /// `digits`, or -1.
  @inline(__always)
  func internationalPrefixEnd(_ digits: UnsafeBufferPointer<UInt8>) -> Int {
    core.pointee.internationalPrefixEnd(digits)
  }

  /// The international prefix pattern's match at the start of `digits`, or
  /// -1 (``RegionCore`` screens first).
  func internationalPrefixPatternEnd(_ digits: UnsafeBufferPointer<UInt8>) -> Int {
    guard let pattern = internationalPrefix else { return -1 }
    return withUnsafeTemporaryAllocation(of: Int.self, capacity: pattern.captureSlotCount) { captures in
      pattern.prefixMatchEnd(digits, captures: captures.baseAddress!)
    }
  }

  /// libphonenumber's `_match_national_number(number, general_desc, False)`.
  @inline(__always)
  func matchesGeneralPattern(_ digits: UnsafeBufferPointer<UInt8>) -> Bool {
    generalAutomaton.fullMatch(digits)
  }

  /// libphonenumber's `_test_number_length` for the unknown number type.
  @inline(__always)
  func lengthCheck(_ length: Int) -> LengthCheck {
    core.pointee.lengthCheck(length)
  }

  /// libphonenumber's `ValidationResult` for a length.
  enum LengthCheck: Equatable {
    case possible, possibleLocalOnly, tooShort, tooLong, invalidLength
  }
}
