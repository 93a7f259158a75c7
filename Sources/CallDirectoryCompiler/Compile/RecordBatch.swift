import CallDirectorySources
import CalldirHost
import CalldirSystem
import Dispatch
import PhoneNumbers
import UnicodeText

/// A batch of a source's events, in file order, with the bytes of its
/// records copied out of the reader's buffer so that normalizing can run on
/// another core while reading goes on.
final class RecordBatch: SourcePiece, @unchecked Sendable {
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
    case range(NumberRange, line: Int, text: String)
    case issue(line: Int, reason: String, text: String)
  }

  private var items: [Item] = []
  private var bytes: [UInt8] = []
  private var recordCount = 0
  /// The numbers of the accepted records, in order, while every event
  /// before them was a record that normalized (``PieceYield/numbers``).
  private let acceptedNumbers: GrowableBuffer<Int64>
  /// What normalizing gave: its numbers in one copy while every event is a
  /// record that normalizes in a blocking or allow source, else every
  /// accepted record as an entry, in file order.
  private(set) var yield = PieceYield()

  let capacity: Int

  init(capacity: Int) {
    self.capacity = capacity
    acceptedNumbers = GrowableBuffer(capacity: capacity)
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
    if let rangeEnd = record.rangeEndBytes { bytes.append(contentsOf: rangeEnd) }
    items.append(.record(Slice(
      line: record.line, numberStart: numberStart, labelStart: labelStart, labelEnd: labelEnd, textEnd: textEnd,
      rangeEnd: bytes.count, hasLabel: record.labelBytes != nil, isRange: record.rangeEndBytes != nil,
      region: record.region, day: record.day, wildcardDigits: record.wildcardDigits)))
    recordCount += 1
  }

  func append(range: NumberRange, line: Int, text: String) {
    items.append(.range(range, line: line, text: text))
  }

  func append(issue: SourceIssue) {
    items.append(.issue(line: issue.line, reason: issue.reason, text: issue.text ?? ""))
  }

  func reset() {
    items.removeAll(keepingCapacity: true)
    bytes.removeAll(keepingCapacity: true)
    acceptedNumbers.removeAll()
    recordCount = 0
    yield.reset()
  }

  /// Judges every event by `policy`, reading records in `region` (a row
  /// with its own region in that one; such rows are not counted for the
  /// wrong-region guard). With `inOrder` (an identify list, or reports
  /// held for evidence rules), every accepted record becomes an entry with
  /// its label, line and date; otherwise accepted numbers are taken in one
  /// copy for as long as nothing else came before them.
  func normalize(with policy: RecordAcceptance.Policy, region: RegionMetadata?, inOrder: Bool) {
    var judge = _Judge(batch: self, policy: policy, region: region, inOrder: inOrder)
    bytes.withUnsafeBufferPointer { buffer in
      for item in items {
        switch item {
        case .record(let slice): judge.record(slice, in: buffer)
        case .range(let range, let line, let text): judge.range(policy.range(range), line: line, text: text)
        case .issue(let line, let reason, let text): judge.reject(reason, line: line, text: text)
        }
      }
    }
    yield.numbers = acceptedNumbers.elements
    yield.accept(numbers: acceptedNumbers.count)
  }
}

extension RecordBatch {
  /// One pass of ``normalize(with:region:inOrder:)`` over the batch's
  /// events: each judged by the policy, its outcome put in the yield.
  private struct _Judge {
    let batch: RecordBatch
    let policy: RecordAcceptance.Policy
    let region: RegionMetadata?
    /// Whether accepted numbers are entries with their label, line and
    /// date (``PieceYield/Entry/report(_:label:line:day:)``).
    let reports: Bool
    /// Whether accepted records go to the yield's entries: from the first
    /// event that is not a number on (numbers before it are moved there).
    var inOrder: Bool
    /// Rows' own regions, as read.
    var rowRegions: [String: RegionMetadata?] = [:]

    init(batch: RecordBatch, policy: RecordAcceptance.Policy, region: RegionMetadata?, inOrder: Bool) {
      self.batch = batch
      self.policy = policy
      self.region = region
      self.inOrder = inOrder
      reports = inOrder
      batch.yield.entries.reserveCapacity(inOrder ? batch.recordCount : 0)
    }

    /// A record: an unknown row region, a range row, or a number (with its
    /// label in an identify list).
    mutating func record(_ slice: Slice, in buffer: UnsafeBufferPointer<UInt8>) {
      let field = UnsafeBufferPointer(rebasing: buffer[slice.numberStart..<slice.labelStart])
      func text() -> String {
        _LineText.escaped(
          slice.textEnd > slice.labelEnd ? UnsafeBufferPointer(rebasing: buffer[slice.labelEnd..<slice.textEnd]) : field)
      }
      var recordRegion = region
      if let code = slice.region {
        if rowRegions[code] == nil { rowRegions[code] = .some(code == "ZZ" ? nil : policy.normalizer.plan.region(code)) }
        guard let found = rowRegions[code], code == "ZZ" || found != nil else {
          return reject("unknown region '\(code)'", line: slice.line, text: text())
        }
        recordRegion = found
      }
      if slice.isRange {
        let end = UnsafeBufferPointer(rebasing: buffer[slice.textEnd..<slice.rangeEnd])
        return range(
          policy.range(field, end, region: recordRegion, wildcardDigits: slice.wildcardDigits), line: slice.line,
          text: text())
      }
      var rowTally = NationalTally()
      let verdict = slice.region == nil
        ? policy.number(field, region: recordRegion, national: &batch.yield.national)
        : policy.number(field, region: recordRegion, national: &rowTally)
      switch verdict {
      case .number(let number):
        let labelBytes =
          slice.hasLabel ? UnsafeBufferPointer(rebasing: buffer[slice.labelStart..<slice.labelEnd]) : nil
        switch policy.label(labelBytes) {
        case nil: accept(number, slice: slice, label: nil)
        case .success(let label)?: accept(number, slice: slice, label: label)
        case .failure(let rejection)?: reject(rejection.description, line: slice.line, text: text())
        }
      case .rejected(let reason, let numbers): reject(reason, line: slice.line, text: text(), numbers: numbers)
      case .dropped:
        keepInOrder()
        batch.yield.dropped += 1
      }
    }

    /// An accepted number, in one copy or as an entry.
    private mutating func accept(_ number: Int64, slice: Slice, label: String?) {
      guard inOrder else {
        batch.acceptedNumbers.reserve(1).pointee = number
        batch.acceptedNumbers.grow(by: 1)
        return
      }
      batch.yield.entries.append(
        reports ? .report(number, label: label, line: slice.line, day: slice.day) : .number(number))
      batch.yield.accept(numbers: 1)
    }

    /// A range the policy judged.
    mutating func range(_ verdict: RecordAcceptance.RangeVerdict, line: Int, text: @autoclosure () -> String) {
      switch verdict {
      case .range(let range):
        keepInOrder()
        batch.yield.entries.append(.range(range.lower...range.upper))
        batch.yield.accept(range: range.lower...range.upper)
      case .rejected(let reason): reject(reason, line: line, text: text())
      }
    }

    /// A rejected data line.
    mutating func reject(_ reason: String, line: Int, text: String, numbers: Int = 1) {
      keepInOrder()
      batch.yield.rejects.append(PieceYield.Reject(line: line, reason: reason, text: text, numbers: numbers))
    }

    /// Keeps accepted records in order from here on: the numbers taken so
    /// far become entries.
    private mutating func keepInOrder() {
      guard !inOrder else { return }
      inOrder = true
      for number in batch.acceptedNumbers.elements { batch.yield.entries.append(.number(number)) }
      batch.yield.accept(numbers: batch.acceptedNumbers.count)
      batch.acceptedNumbers.removeAll()
    }
  }
}
