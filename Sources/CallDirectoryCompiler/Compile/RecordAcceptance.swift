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
    /// A number that is not of the source's `types`: left out, not rejected.
    case dropped
  }

  /// The normalizer's verdict on a number field, overruled for a field that
  /// is really a pattern (``WildcardCheck``), which must never become one
  /// number.
  @inline(__always)
  static func number(
    _ field: UnsafeBufferPointer<UInt8>, normalizer: PhoneNumberNormalizer, region: RegionMetadata?
  ) -> Verdict {
    verdict(normalizer.normalize(utf8: field, region: region), field: field)
  }

  /// ``number(_:normalizer:region:)`` for the normalizer's `result` on `field`.
  @inline(__always)
  private static func verdict(_ result: Result<Int64, NormalizationRejection>, field: UnsafeBufferPointer<UInt8>) -> Verdict {
    switch result {
    case .success(let number):
      if WildcardCheck.mayHoldPattern(field), let reason = WildcardCheck.reason(for: field) {
        return .rejected(reason)
      }
      return .number(number)
    case .failure(let rejection):
      return .rejected(WildcardCheck.reason(for: field) ?? SpreadsheetNotation.reason(for: field) ?? rejection.description)
    }
  }

  /// `number(_:normalizer:region:)` under a source's number rules: invalid
  /// numbers rejected (`require: valid`), numbers of other types dropped
  /// (`types`), and numbers written without a country code counted in
  /// `national` for the wrong-region guard.
  @inline(__always)
  static func number(
    _ field: UnsafeBufferPointer<UInt8>, normalizer: PhoneNumberNormalizer, region: RegionMetadata?,
    check: RecordCheck?, national: inout NationalTally
  ) -> Verdict {
    guard let check else { return number(field, normalizer: normalizer, region: region) }
    var writtenNationally = false
    let result = normalizer.normalize(utf8: field, region: region, writtenNationally: &writtenNationally)
    return verdict(result, writtenNationally: writtenNationally, field: field, check: check, national: &national)
  }

  /// ``number(_:normalizer:region:check:national:)`` with the numbers read
  /// by `reader` (one region's, for many records in a row).
  @inline(__always)
  static func number(
    _ field: UnsafeBufferPointer<UInt8>, reader: FormattedNumberReader, check: RecordCheck?,
    national: inout NationalTally
  ) -> Verdict {
    var writtenNationally = false
    let result = reader.normalize(utf8: field, writtenNationally: &writtenNationally)
    guard let check else { return verdict(result, field: field) }
    return verdict(result, writtenNationally: writtenNationally, field: field, check: check, national: &national)
  }

  /// The verdict under `check` on the normalizer's `result` for `field`.
  @inline(__always)
  private static func verdict(
    _ result: Result<Int64, NormalizationRejection>, writtenNationally: Bool, field: UnsafeBufferPointer<UInt8>,
    check: RecordCheck, national: inout NationalTally
  ) -> Verdict {
    switch result {
    case .success(let number):
      if WildcardCheck.mayHoldPattern(field), let reason = WildcardCheck.reason(for: field) {
        return .rejected(reason)
      }
      guard writtenNationally || check.requireValid || check.typeMask != nil else { return .number(number) }
      let validity = check.validity(of: number)
      let valid = validity?.isValid == true
      if writtenNationally && check.countsNational { national.add(valid: valid, field: field) }
      if check.requireValid && !valid {
        return .rejected(validity?.invalidReason ?? NormalizationRejection.invalidCountryCode.description)
      }
      if !check.keeps(validity?.type ?? .unknown) { return .dropped }
      return .number(number)
    case .failure(let rejection):
      let wildcard = WildcardCheck.reason(for: field)
      if writtenNationally && check.countsNational && wildcard == nil {
        switch rejection {
        case .tooShort: national.add(valid: false, field: field, sample: false)
        case .tooLong, .invalidLength: national.add(valid: false, field: field)
        default: break
        }
      }
      return .rejected(wildcard ?? SpreadsheetNotation.reason(for: field) ?? rejection.description)
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
