import PhoneNumbers
import UnicodeText

/// The compiler's verdict on one record: what `build` takes from a line and
/// what it rejects, in one place, so that `explain` finds exactly the lines
/// a build used.
enum RecordAcceptance {
  /// What a record's number field gives.
  enum Verdict {
    case number(Int64)
    case rejected(String)
  }

  /// The normalizer's verdict on a number field, overruled for a field that
  /// is really a pattern (``WildcardCheck``), which must never become one
  /// number.
  @inline(__always)
  static func number(
    _ field: UnsafeBufferPointer<UInt8>, normalizer: PhoneNumberNormalizer, region: RegionMetadata?
  ) -> Verdict {
    switch normalizer.normalize(utf8: field, region: region) {
    case .success(let number):
      if WildcardCheck.mayHoldPattern(field), let reason = WildcardCheck.reason(for: field) {
        return .rejected(reason)
      }
      return .number(number)
    case .failure(let rejection):
      return .rejected(WildcardCheck.reason(for: field) ?? rejection.description)
    }
  }

  /// Why a range or pattern is rejected, or nil: one holding more than
  /// `maxRangeSize` numbers (the config's `maxRangeSize`) would make every
  /// command that reads the output work for as long.
  @inline(__always)
  static func rangeRejection(_ range: NumberRange, maxRangeSize: Int64) -> String? {
    guard range.upper - range.lower >= maxRangeSize else { return nil }
    return "range of \(range.upper - range.lower + 1) numbers is larger than maxRangeSize \(maxRangeSize) "
      + "(split it, or raise maxRangeSize)"
  }

  /// A record's cleaned label, or why the record is rejected: identification
  /// entries need a label that survives ``LabelSanitizer``.
  static func label(_ bytes: UnsafeBufferPointer<UInt8>?, sanitizer: LabelSanitizer) -> Result<String, LabelRejectionReason> {
    guard let bytes else { return .failure(LabelRejectionReason(description: "missing label")) }
    switch sanitizer.sanitize(bytes: bytes) {
    case .success(let label): return .success(label)
    case .failure(let rejection): return .failure(LabelRejectionReason(description: rejection.description))
    }
  }
}

/// Why a record's label was refused, lowercase.
struct LabelRejectionReason: Error {
  let description: String
}
