/// Why an input could not be turned into a `CXCallDirectoryPhoneNumber`.
///
/// The cases follow libphonenumber's `NumberParseException` error types and
/// its `is_possible_number` verdicts, so a rejection here is a rejection there.
public enum NormalizationRejection: Error, Hashable, Sendable, CaseIterable, CustomStringConvertible {
  /// The text does not look like a phone number (NOT_A_NUMBER).
  case notANumber
  /// No `+` or international prefix and no default region to read it in.
  case missingDefaultRegion
  /// The digits after `+` or the international prefix start no known
  /// country calling code (INVALID_COUNTRY_CODE).
  case invalidCountryCode
  /// Too few digits after `+` or the international prefix (TOO_SHORT_AFTER_IDD).
  case tooShortAfterInternationalPrefix
  /// The national number is shorter than any number of its country.
  case tooShort
  /// The input, or the national number, is longer than any number of its country.
  case tooLong
  /// The national number's length falls between possible lengths (INVALID_LENGTH).
  case invalidLength
  /// The digits do not fit `1...CXCallDirectoryPhoneNumberMax`.
  case outOfRange

  /// A short lowercase reason, as printed after `INVALID` and in reject reports.
  public var description: String {
    switch self {
    case .notANumber: "not a phone number"
    case .missingDefaultRegion: "no country code and no default region"
    case .invalidCountryCode: "invalid country calling code"
    case .tooShortAfterInternationalPrefix: "too short after international prefix"
    case .tooShort: "too short"
    case .tooLong: "too long"
    case .invalidLength: "invalid length for its country"
    case .outOfRange: "outside the CXCallDirectoryPhoneNumber range"
    }
  }
}

extension NormalizationRejection {
  /// Every rejection, in declaration order (the index is its packed code).
  static let all: [NormalizationRejection] = allCases

  /// The position in `allCases` (a small dense code, stable within a build).
  public var index: Int {
    switch self {
    case .notANumber: 0
    case .missingDefaultRegion: 1
    case .invalidCountryCode: 2
    case .tooShortAfterInternationalPrefix: 3
    case .tooShort: 4
    case .tooLong: 5
    case .invalidLength: 6
    case .outOfRange: 7
    }
  }
}

/// A normalization result packed into one `Int64`, so the hot path passes
/// no `Result` or error around: a number is ≥ 0 (in fact ≥ 1), a rejection
/// is `-1 - index`, and `notHandled` is the byte fast path handing over to
/// the general one.
enum PackedOutcome {
  static let notHandled = Int64.min

  @inline(__always)
  static func rejection(_ rejection: NormalizationRejection) -> Int64 { -1 - Int64(rejection.index) }

  /// The rejection of a negative packed value other than `notHandled`.
  @inline(__always)
  static func rejection(packed: Int64) -> NormalizationRejection {
    NormalizationRejection.all[Int(-1 - packed)]
  }

  @inline(__always)
  static func result(_ packed: Int64) -> Result<Int64, NormalizationRejection> {
    packed >= 0 ? .success(packed) : .failure(rejection(packed: packed))
  }
}
