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
  /// The same pattern as an automaton, when it could be built.
  let generalAutomaton: DigitAutomaton?

  init(
    regionCode: String, callingCode: Int, isMainRegion: Bool,
    internationalPrefix: DigitPattern?, nationalPrefixForParsing: DigitPattern?,
    nationalPrefixTransform: [TransformPart]?, possibleLengths: [Int], localOnlyLengths: [Int],
    generalPattern: DigitPattern?
  ) {
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
    self.generalAutomaton = generalPattern.flatMap { DigitAutomaton($0) }
  }

  /// One piece of a national-prefix transform rule.
  enum TransformPart: Sendable, Equatable {
    case digits([UInt8])
    case group(Int)
  }
}

extension RegionMetadata {
  /// libphonenumber's `_match_national_number(number, general_desc, False)`.
  func matchesGeneralPattern(_ digits: UnsafeBufferPointer<UInt8>) -> Bool {
    if let generalAutomaton { return generalAutomaton.fullMatch(digits) }
    return generalPattern?.fullMatch(digits) ?? false
  }

  /// libphonenumber's `_test_number_length` for the unknown number type.
  func lengthCheck(_ length: Int) -> LengthCheck {
    if localOnlyLengths.contains(length) { return .possibleLocalOnly }
    guard let minimum = possibleLengths.first, let maximum = possibleLengths.last else {
      return .invalidLength
    }
    if length == minimum { return .possible }
    if length < minimum { return .tooShort }
    if length > maximum { return .tooLong }
    return possibleLengths.contains(length) ? .possible : .invalidLength
  }

  /// libphonenumber's `ValidationResult` for a length.
  enum LengthCheck: Equatable {
    case possible, possibleLocalOnly, tooShort, tooLong, invalidLength
  }
}
