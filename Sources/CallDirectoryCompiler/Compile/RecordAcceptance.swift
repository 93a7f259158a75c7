import CallDirectorySources
import PhoneNumbers
import UnicodeText

/// The compiler's verdict on one record: what `build` takes from a line and
/// what it rejects, in one place, so that `explain` finds exactly the lines
/// a build used.
package enum RecordAcceptance {
  /// What a record's number field gives.
  package enum Verdict {
    case number(Int64)
    /// Why the field is rejected, and how many numbers it holds (more than
    /// one for a field of several numbers, a wildcard block or a range:
    /// ``CellFinding``), which the reject guard counts.
    case rejected(String, numbers: Int)
    /// A number that is not of the source's `types`: left out, not rejected.
    case dropped
  }

  /// The normalizer's verdict on a number field, overruled for a field that
  /// is really a pattern (``WildcardCheck``) or holds several numbers, a
  /// wildcard block or a range (``CellCheck``), which must never become one
  /// number. `cellKeys`: the cell keys (`numberSeparator`, `wildcard`,
  /// `rangeSeparator`) the source may set, which a reject names.
  @inline(__always)
  static func number(
    _ field: UnsafeBufferPointer<UInt8>, normalizer: PhoneNumberNormalizer, region: RegionMetadata?,
    cellKeys: CellKeys = []
  ) -> Verdict {
    verdict(
      normalizer.normalize(utf8: field, region: region), field: field, normalizer: normalizer, region: region,
      cellKeys: cellKeys)
  }

  /// ``number(_:normalizer:region:cellKeys:)`` for the normalizer's `result` on `field`.
  @inline(__always)
  private static func verdict(
    _ result: Result<Int64, NormalizationRejection>, field: UnsafeBufferPointer<UInt8>,
    normalizer: PhoneNumberNormalizer, region: RegionMetadata?, cellKeys: CellKeys
  ) -> Verdict {
    switch result {
    case .success(let number):
      if WildcardCheck.mayHoldPattern(field),
        let finding = finding(field, wholeIsNumber: true, normalizer: normalizer, region: region, cellKeys: cellKeys)
      {
        return .rejected(finding.reason, numbers: finding.numbers)
      }
      return .number(number)
    case .failure(let rejection):
      let finding = finding(field, wholeIsNumber: false, normalizer: normalizer, region: region, cellKeys: cellKeys)
      return .rejected(
        finding?.reason ?? SpreadsheetNotation.reason(for: field) ?? rejection.description, numbers: finding?.numbers ?? 1)
    }
  }

  /// Why a field is not the one number the normalizer may read in it: a
  /// regular expression, several numbers, a wildcard block, a range, a
  /// wildcard pattern; nil when it is a number.
  @inline(never)
  static func finding(
    _ field: UnsafeBufferPointer<UInt8>, wholeIsNumber: Bool, normalizer: PhoneNumberNormalizer,
    region: RegionMetadata?, cellKeys: CellKeys
  ) -> CellFinding? {
    if let reason = WildcardCheck.regularExpressionReason(for: field, alternation: false) {
      return CellFinding(reason: reason, numbers: 1)
    }
    switch CellCheck.finding(field, wholeIsNumber: wholeIsNumber, normalizer: normalizer, region: region, keys: cellKeys) {
    case .holds(let finding): return finding
    case .oneNumber: return WildcardCheck.wildcardReason(for: field).map { CellFinding(reason: $0, numbers: 1) }
    case .none:
      return WildcardCheck.wildcardReason(for: field, alternation: true).map { CellFinding(reason: $0, numbers: 1) }
    }
  }

  /// `number(_:normalizer:region:cellKeys:)` under a source's number
  /// rules: invalid numbers rejected (`require: valid`), numbers of other
  /// types dropped (`types`), and numbers written without a country code
  /// counted in `national` for the wrong-region guard.
  @inline(__always)
  static func number(
    _ field: UnsafeBufferPointer<UInt8>, normalizer: PhoneNumberNormalizer, region: RegionMetadata?,
    check: RecordCheck?, national: inout NationalTally, cellKeys: CellKeys = []
  ) -> Verdict {
    guard let check else { return number(field, normalizer: normalizer, region: region, cellKeys: cellKeys) }
    var writtenNationally = false
    let result = normalizer.normalize(utf8: field, region: region, writtenNationally: &writtenNationally)
    return verdict(
      result, writtenNationally: writtenNationally, field: field, check: check, national: &national,
      normalizer: normalizer, region: region, cellKeys: cellKeys)
  }

  /// ``number(_:normalizer:region:check:national:cellKeys:)`` with the
  /// numbers read by `reader` (one region's, for many records in a row;
  /// `normalizer` and `region` are the reader's).
  @inline(__always)
  static func number(
    _ field: UnsafeBufferPointer<UInt8>, reader: FormattedNumberReader, check: RecordCheck?,
    national: inout NationalTally, normalizer: PhoneNumberNormalizer, region: RegionMetadata?, cellKeys: CellKeys
  ) -> Verdict {
    var writtenNationally = false
    let result = reader.normalize(utf8: field, writtenNationally: &writtenNationally)
    guard let check else {
      return verdict(result, field: field, normalizer: normalizer, region: region, cellKeys: cellKeys)
    }
    return verdict(
      result, writtenNationally: writtenNationally, field: field, check: check, national: &national,
      normalizer: normalizer, region: region, cellKeys: cellKeys)
  }

  /// The verdict under `check` on the normalizer's `result` for `field`.
  @inline(__always)
  private static func verdict(
    _ result: Result<Int64, NormalizationRejection>, writtenNationally: Bool, field: UnsafeBufferPointer<UInt8>,
    check: RecordCheck, national: inout NationalTally, normalizer: PhoneNumberNormalizer, region: RegionMetadata?,
    cellKeys: CellKeys
  ) -> Verdict {
    switch result {
    case .success(let number):
      if WildcardCheck.mayHoldPattern(field),
        let finding = finding(field, wholeIsNumber: true, normalizer: normalizer, region: region, cellKeys: cellKeys)
      {
        return .rejected(finding.reason, numbers: finding.numbers)
      }
      guard writtenNationally || check.requireValid || check.typeMask != nil else { return .number(number) }
      let validity = check.validity(of: number)
      let valid = validity?.isValid == true
      if writtenNationally && check.countsNational { national.add(valid: valid, field: field) }
      if check.requireValid && !valid {
        return .rejected(validity?.invalidReason ?? NormalizationRejection.invalidCountryCode.description, numbers: 1)
      }
      if !check.keeps(validity?.type ?? .unknown) { return .dropped }
      return .number(number)
    case .failure(let rejection):
      let finding = finding(field, wholeIsNumber: false, normalizer: normalizer, region: region, cellKeys: cellKeys)
      if writtenNationally && check.countsNational && finding == nil {
        switch rejection {
        case .tooShort: national.add(valid: false, field: field, sample: false)
        case .tooLong, .invalidLength: national.add(valid: false, field: field)
        default: break
        }
      }
      return .rejected(
        finding?.reason ?? SpreadsheetNotation.reason(for: field) ?? rejection.description, numbers: finding?.numbers ?? 1)
    }
  }

  /// Why a range or pattern is rejected, or nil: one holding more than
  /// `maxRangeSize` numbers (the config's `maxRangeSize`) would make every
  /// command that reads the output work for as long; one none of whose
  /// numbers is a possible number (`3950`: +39 50, too short) holds nothing
  /// a phone can receive a call from, and is rejected with libphonenumber's
  /// reason for its first number, as `lines` rejects such a number
  /// (``NumberingPlan/possibilityRejection(ofRange:_:)``).
  @inline(__always)
  static func rangeRejection(_ range: NumberRange, maxRangeSize: Int64, plan: NumberingPlan) -> String? {
    if range.upper - range.lower >= maxRangeSize {
      return "range of \(range.upper - range.lower + 1) numbers is larger than maxRangeSize \(maxRangeSize) "
        + "(split it, or raise maxRangeSize)"
    }
    return plan.possibilityRejection(ofRange: range.lower, range.upper)?.description
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
package struct LabelRejectionReason: Error {
  package let description: String
}
