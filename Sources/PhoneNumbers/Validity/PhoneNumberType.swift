/// What kind of line a number is, as libphonenumber's `PhoneNumberType`.
///
/// The raw values are the names `calldir` uses in JSON and in configs
/// (`"types": ["tollFree"]`).
public enum PhoneNumberType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// A geographic landline (FIXED_LINE).
  case fixedLine
  /// A mobile number (MOBILE).
  case mobile
  /// A number the region's plan does not tell apart as fixed line or mobile
  /// (FIXED_LINE_OR_MOBILE), as in the US and Canada.
  case fixedLineOrMobile
  /// Free for the caller (TOLL_FREE).
  case tollFree
  /// Charged above the normal rate (PREMIUM_RATE).
  case premiumRate
  /// The cost is split between caller and callee (SHARED_COST).
  case sharedCost
  /// Voice over IP (VOIP).
  case voip
  /// A personal number that follows its owner (PERSONAL_NUMBER).
  case personalNumber
  /// A pager (PAGER).
  case pager
  /// A universal access number, one number for a company (UAN).
  case uan
  /// Reaches a voicemail box directly (VOICEMAIL).
  case voicemail
  /// Fits no type of its region: the number is not valid (UNKNOWN).
  case unknown

  /// The position in `allCases` (a small dense code: bit sets of types).
  @inline(__always)
  public var index: Int {
    switch self {
    case .fixedLine: 0
    case .mobile: 1
    case .fixedLineOrMobile: 2
    case .tollFree: 3
    case .premiumRate: 4
    case .sharedCost: 5
    case .voip: 6
    case .personalNumber: 7
    case .pager: 8
    case .uan: 9
    case .voicemail: 10
    case .unknown: 11
    }
  }

  /// The raw value, as JSON writes it.
  public var description: String { rawValue }

  /// The types a number type description can stand for in the numbering
  /// plan's types table (`fixedLineOrMobile` and `unknown` are verdicts,
  /// not descriptions), in the order of their bits in ``NumberClassifier``.
  static let described: [PhoneNumberType] = [
    .fixedLine, .mobile, .tollFree, .premiumRate, .sharedCost, .voip, .personalNumber, .pager, .uan, .voicemail,
  ]
}
