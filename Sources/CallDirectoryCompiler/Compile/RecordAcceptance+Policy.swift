import CallDirectorySources
import PhoneNumbers
import UnicodeText

extension RecordAcceptance {
  /// One source's acceptance policy: the one place where a record, a range
  /// or a range row of that source is judged, whichever way it was read.
  /// The workers apply it (``LineChunkJob``, ``RecordBatch``), `explain`
  /// applies it (``ProvenanceScanner``); nothing judges again after it.
  ///
  /// - A number: the normalizer's verdict under the source's number rules
  ///   (`require`, `types`) and cell findings
  ///   (``number(_:region:national:)``).
  /// - A range, an exact one or a range row's: none for an identify list
  ///   ("a range cannot carry a label"), none larger than `maxRangeSize`,
  ///   none of no possible number (``range(_:)``, ``range(_:_:region:wildcardDigits:)``).
  /// - An identification entry's label (``label(_:)``).
  ///
  /// Sendable by hand: ``recordCheck`` holds its classifier unretained,
  /// valid while the policy holds the check it came from.
  package struct Policy: @unchecked Sendable {
    /// The list the source feeds.
    package let list: SourceList
    /// The config's `maxRangeSize`.
    package let maxRangeSize: Int64
    /// How numbers are read.
    let normalizer: PhoneNumberNormalizer
    /// The source's number rules, held so that ``recordCheck`` stays valid.
    private let check: NumberCheck?
    /// ``check`` as the per-record loops use it (no reference counting).
    let recordCheck: RecordCheck?
    /// The cell keys the source may set, which rejects name.
    let cellKeys: CellKeys
    /// How an identify list's labels are cleaned; nil for other lists.
    let labels: LabelSanitizer?

    /// The policy for `spec` read in `region`, in a build whose
    /// `maxRangeSize` is given.
    package init(
      _ spec: SourceSpec, region: RegionMetadata?, maxRangeSize: Int64, normalizer: PhoneNumberNormalizer,
      cellKeys: CellKeys, labels: LabelSanitizer
    ) {
      self.init(
        list: spec.list, maxRangeSize: maxRangeSize, normalizer: normalizer,
        check: NumberCheck(rules: spec.numberRules, region: region, plan: normalizer.plan), cellKeys: cellKeys,
        labels: labels)
    }

    /// The policy for a source of `list` without number rules (`explain`
    /// reads sources as the catalog recorded them, without rules).
    package init(
      list: SourceList, maxRangeSize: Int64, normalizer: PhoneNumberNormalizer, cellKeys: CellKeys = [],
      labels: LabelSanitizer = LabelSanitizer()
    ) {
      self.init(
        list: list, maxRangeSize: maxRangeSize, normalizer: normalizer, check: nil, cellKeys: cellKeys, labels: labels)
    }

    /// A policy from its parts (`labels` is kept for an identify list only).
    private init(
      list: SourceList, maxRangeSize: Int64, normalizer: PhoneNumberNormalizer, check: NumberCheck?,
      cellKeys: CellKeys, labels: LabelSanitizer
    ) {
      self.list = list
      self.maxRangeSize = maxRangeSize
      self.normalizer = normalizer
      self.check = check
      recordCheck = check.map(RecordCheck.init)
      self.cellKeys = cellKeys
      self.labels = list == .identify ? labels : nil
    }

    /// Whether a `+` and digits line may be taken by the exact E.164 path
    /// as it is: unless the number's type or validity must be checked.
    var takesBareNumbers: Bool { check.map { !$0.requireValid && $0.typeMask == nil } != false }

    /// The verdict on a number field read in `region`; numbers written
    /// without a country code are counted in `national` for the
    /// wrong-region guard.
    @inline(__always)
    func number(_ field: UnsafeBufferPointer<UInt8>, region: RegionMetadata?, national: inout NationalTally) -> Verdict {
      RecordAcceptance.number(
        field, normalizer: normalizer, region: region, check: recordCheck, national: &national, cellKeys: cellKeys)
    }

    /// ``number(_:region:national:)`` without the wrong-region guard's
    /// counts.
    package func number(_ field: UnsafeBufferPointer<UInt8>, region: RegionMetadata?) -> Verdict {
      var national = NationalTally()
      return number(field, region: region, national: &national)
    }

    /// ``number(_:region:national:)`` with the numbers read by `reader`
    /// (one made for `region`, kept from record to record).
    @inline(__always)
    func number(
      _ field: UnsafeBufferPointer<UInt8>, reader: FormattedNumberReader, region: RegionMetadata?,
      national: inout NationalTally
    ) -> Verdict {
      RecordAcceptance.number(
        field, reader: reader, check: recordCheck, national: &national, normalizer: normalizer, region: region,
        cellKeys: cellKeys)
    }

    /// The verdict on an exact range (a `patterns` line, or a range row's
    /// ends once read): rejected in an identify list, past `maxRangeSize`,
    /// or when none of its numbers is possible.
    @inline(__always)
    package func range(_ range: NumberRange) -> RangeVerdict {
      if list == .identify { return .rejected("a range cannot carry a label") }
      if let reason = RecordAcceptance.rangeRejection(range, maxRangeSize: maxRangeSize, plan: normalizer.plan) {
        return .rejected(reason)
      }
      return .range(range)
    }

    /// The verdict on a range row, a range in one cell or a wildcard block
    /// (``RecordAcceptance/range(_:_:normalizer:region:wildcardDigits:)``)
    /// read in `region`, then on the range it gives (``range(_:)``).
    package func range(
      _ start: UnsafeBufferPointer<UInt8>, _ end: UnsafeBufferPointer<UInt8>, region: RegionMetadata?,
      wildcardDigits: Int
    ) -> RangeVerdict {
      switch RecordAcceptance.range(start, end, normalizer: normalizer, region: region, wildcardDigits: wildcardDigits) {
      case .range(let exact): return range(exact)
      case .rejected(let reason): return .rejected(reason)
      }
    }

    /// An identification entry's cleaned label, or why it is rejected; nil
    /// for other lists, whose records carry no label.
    package func label(_ bytes: UnsafeBufferPointer<UInt8>?) -> Result<String, LabelRejectionReason>? {
      labels.map { RecordAcceptance.label(bytes, sanitizer: $0) }
    }
  }
}
