import CallDirectorySources
import CalldirSystem
import Dispatch
import PhoneNumbers
import UnicodeText

/// A batch of a source's events, in file order, with the bytes of its
/// records copied out of the reader's buffer so that normalizing can run on
/// another core while reading goes on.
final class RecordBatch: @unchecked Sendable {
  /// Where one record's pieces sit in ``bytes``.
  struct Slice {
    let line: Int
    /// The number (a range's first number) is `bytes[numberStart..<labelStart]`,
    /// the label `bytes[labelStart..<labelEnd]` when `hasLabel`, the start of
    /// the text as read `bytes[labelEnd..<textEnd]`, and a range's last
    /// number `bytes[textEnd..<rangeEnd]`.
    let numberStart: Int
    let labelStart: Int
    let labelEnd: Int
    let textEnd: Int
    let rangeEnd: Int
    let hasLabel: Bool
    let isRange: Bool
    /// The row's own region (`regionColumn`), nil for the source's.
    let region: String?
    /// The row's date (`dateColumn`).
    let day: CalendarDay?
    /// A wildcard block's wildcards (``RawRecord/wildcardDigits``).
    let wildcardDigits: Int
  }

  /// One event of the source, in order.
  enum Item {
    /// A record (one number, or a range row to normalize).
    case record(Slice)
    case range(ClosedRange<Int64>, line: Int, text: String)
    case issue(line: Int, reason: String, text: String)
  }

  /// What normalizing a record gave.
  enum Outcome {
    case number(Int64, label: String?)
    /// A range row's exact range.
    case range(NumberRange)
    /// The reason, the record's text as the rejects report shows it, and
    /// the numbers the record held (``RecordAcceptance/Verdict``).
    case rejected(String, text: String, numbers: Int = 1)
    /// Not of the source's `types`: left out and counted.
    case dropped
  }

  private(set) var items: [Item] = []
  private(set) var bytes: [UInt8] = []
  /// One outcome per `.record` item, in order, after `normalize`.
  private(set) var outcomes: [Outcome] = []
  /// The numbers of the accepted records, in order, after `normalize`.
  private(set) var acceptedNumbers: [Int64] = []
  private(set) var recordCount = 0
  /// Whether the batch holds only single-number records with the source's
  /// region (no ranges, no reader issues).
  private(set) var holdsOnlyRecords = true
  /// The wrong-region guard's counts for the batch, after `normalize`.
  private(set) var national = NationalTally()

  /// Whether every event was a record that normalized: the batch then folds
  /// as one `append(contentsOf: acceptedNumbers)`.
  var isClean: Bool { holdsOnlyRecords && acceptedNumbers.count == recordCount }

  let capacity: Int

  init(capacity: Int) {
    self.capacity = capacity
    items.reserveCapacity(capacity)
    bytes.reserveCapacity(capacity * 16)
  }

  var isFull: Bool { items.count >= capacity }
  var isEmpty: Bool { items.isEmpty }

  func append(_ record: RawRecord) {
    let numberStart = bytes.count
    bytes.append(contentsOf: record.numberBytes)
    let labelStart = bytes.count
    if let label = record.labelBytes { bytes.append(contentsOf: label) }
    let labelEnd = bytes.count
    if let text = record.textBytes { bytes.append(contentsOf: text.prefix(_LineText.maximumBytes)) }
    let textEnd = bytes.count
    if let rangeEnd = record.rangeEndBytes {
      bytes.append(contentsOf: rangeEnd)
      holdsOnlyRecords = false
    }
    items.append(.record(Slice(
      line: record.line, numberStart: numberStart, labelStart: labelStart, labelEnd: labelEnd, textEnd: textEnd,
      rangeEnd: bytes.count, hasLabel: record.labelBytes != nil, isRange: record.rangeEndBytes != nil,
      region: record.region, day: record.day, wildcardDigits: record.wildcardDigits)))
    recordCount += 1
  }

  /// A record's text as the rejects report shows it.
  func reportedText(_ slice: Slice) -> String {
    bytes.withUnsafeBufferPointer { buffer in
      _LineText.escaped(UnsafeBufferPointer(rebasing:
        slice.textEnd > slice.labelEnd
          ? buffer[slice.labelEnd..<slice.textEnd] : buffer[slice.numberStart..<slice.labelStart]))
    }
  }

  func append(range: ClosedRange<Int64>, line: Int, text: String) {
    items.append(.range(range, line: line, text: text))
    holdsOnlyRecords = false
  }

  func append(issue: SourceIssue) {
    items.append(.issue(line: issue.line, reason: issue.reason, text: issue.text ?? ""))
    holdsOnlyRecords = false
  }

  func reset() {
    items.removeAll(keepingCapacity: true)
    bytes.removeAll(keepingCapacity: true)
    outcomes.removeAll(keepingCapacity: true)
    acceptedNumbers.removeAll(keepingCapacity: true)
    national = NationalTally()
    recordCount = 0
    holdsOnlyRecords = true
  }

  /// Normalizes every record (and cleans its label when `labels`); a row
  /// with its own region is read in that region.
  /// `check` applies the source's number rules; rows with their own region
  /// are not counted for the wrong-region guard. `cellKeys`: the cell
  /// keys the source may set, which rejects may name.
  func normalize(
    with normalizer: PhoneNumberNormalizer, region: RegionMetadata?, labels: LabelSanitizer?, check: NumberCheck? = nil,
    cellKeys: CellKeys = []
  ) {
    outcomes.reserveCapacity(recordCount)
    acceptedNumbers.reserveCapacity(recordCount)
    var rowRegions: [String: RegionMetadata?] = [:]
    let recordCheck = check.map(RecordCheck.init)
    bytes.withUnsafeBufferPointer { buffer in
      for item in items {
        guard case .record(let slice) = item else { continue }
        let field = UnsafeBufferPointer(rebasing: buffer[slice.numberStart..<slice.labelStart])
        func text() -> String {
          _LineText.escaped(
            slice.textEnd > slice.labelEnd
              ? UnsafeBufferPointer(rebasing: buffer[slice.labelEnd..<slice.textEnd]) : field)
        }
        var recordRegion = region
        if let code = slice.region {
          if rowRegions[code] == nil { rowRegions[code] = .some(code == "ZZ" ? nil : normalizer.plan.region(code)) }
          guard let found = rowRegions[code], code == "ZZ" || found != nil else {
            outcomes.append(.rejected("unknown region '\(code)'", text: text()))
            continue
          }
          recordRegion = found
        }
        if slice.isRange {
          let end = UnsafeBufferPointer(rebasing: buffer[slice.textEnd..<slice.rangeEnd])
          switch RecordAcceptance.range(
            field, end, normalizer: normalizer, region: recordRegion, wildcardDigits: slice.wildcardDigits)
          {
          case .range(let range): outcomes.append(.range(range))
          case .rejected(let reason): outcomes.append(.rejected(reason, text: text()))
          }
          continue
        }
        let number: Int64
        var rowTally = NationalTally()
        let verdict = slice.region == nil
          ? RecordAcceptance.number(
            field, normalizer: normalizer, region: recordRegion, check: recordCheck, national: &national,
            cellKeys: cellKeys)
          : RecordAcceptance.number(
            field, normalizer: normalizer, region: recordRegion, check: recordCheck, national: &rowTally,
            cellKeys: cellKeys)
        switch verdict {
        case .number(let value): number = value
        case .rejected(let reason, let numbers):
          outcomes.append(.rejected(reason, text: text(), numbers: numbers))
          continue
        case .dropped:
          outcomes.append(.dropped)
          continue
        }
        guard let labels else {
          outcomes.append(.number(number, label: nil))
          acceptedNumbers.append(number)
          continue
        }
        let labelBytes =
          slice.hasLabel ? UnsafeBufferPointer(rebasing: buffer[slice.labelStart..<slice.labelEnd]) : nil
        switch RecordAcceptance.label(labelBytes, sanitizer: labels) {
        case .success(let label):
          outcomes.append(.number(number, label: label))
          acceptedNumbers.append(number)
        case .failure(let rejection): outcomes.append(.rejected(rejection.description, text: text()))
        }
      }
    }
  }
}
