import Dispatch
import PhoneNumbers
import UnicodeText

/// A batch of a source's events, in file order, with the bytes of its
/// records copied out of the reader's buffer so that normalizing can run on
/// another core while reading goes on.
final class RecordBatch: @unchecked Sendable {
  /// One event of the source, in order.
  enum Item {
    /// A record: its number (and label) bytes are `bytes[numberStart..<labelStart]`
    /// (and `bytes[labelStart..<labelEnd]`, when `hasLabel`), the start of
    /// its text as read `bytes[labelEnd..<textEnd]`.
    case record(line: Int, numberStart: Int, labelStart: Int, labelEnd: Int, textEnd: Int, hasLabel: Bool)
    case range(ClosedRange<Int64>, line: Int, text: String)
    case issue(line: Int, reason: String, text: String)
  }

  /// What normalizing a record gave.
  enum Outcome {
    case number(Int64, label: String?)
    /// The reason, and the record's text as the rejects report shows it.
    case rejected(String, text: String)
  }

  private(set) var items: [Item] = []
  private(set) var bytes: [UInt8] = []
  /// One outcome per `.record` item, in order, after `normalize`.
  private(set) var outcomes: [Outcome] = []
  /// The numbers of the accepted records, in order, after `normalize`.
  private(set) var acceptedNumbers: [Int64] = []
  private(set) var recordCount = 0
  /// Whether the batch holds only records (no ranges, no reader issues).
  private(set) var holdsOnlyRecords = true

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
    items.append(.record(
      line: record.line, numberStart: numberStart, labelStart: labelStart, labelEnd: labelEnd, textEnd: bytes.count,
      hasLabel: record.labelBytes != nil))
    recordCount += 1
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
    recordCount = 0
    holdsOnlyRecords = true
  }

  /// Normalizes every record (and cleans its label when `labels`).
  func normalize(with normalizer: PhoneNumberNormalizer, region: RegionMetadata?, labels: LabelSanitizer?) {
    outcomes.reserveCapacity(recordCount)
    acceptedNumbers.reserveCapacity(recordCount)
    bytes.withUnsafeBufferPointer { buffer in
      for item in items {
        guard case .record(_, let numberStart, let labelStart, let labelEnd, let textEnd, let hasLabel) = item
        else { continue }
        let field = UnsafeBufferPointer(rebasing: buffer[numberStart..<labelStart])
        func text() -> String {
          _LineText.escaped(textEnd > labelEnd ? UnsafeBufferPointer(rebasing: buffer[labelEnd..<textEnd]) : field)
        }
        let number: Int64
        switch RecordAcceptance.number(field, normalizer: normalizer, region: region) {
        case .number(let value): number = value
        case .rejected(let reason):
          outcomes.append(.rejected(reason, text: text()))
          continue
        }
        guard let labels else {
          outcomes.append(.number(number, label: nil))
          acceptedNumbers.append(number)
          continue
        }
        let labelBytes = hasLabel ? UnsafeBufferPointer(rebasing: buffer[labelStart..<labelEnd]) : nil
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
