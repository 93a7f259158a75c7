import PhoneNumbers

/// A piece of a line-by-line blocking or allow source (``_LineIndependentReader``),
/// parsed and normalized on a worker thread.
///
/// Line numbers inside the job count from 1 at the piece's first line; the
/// fold adds the lines of the pieces before it.
final class LineChunkJob: @unchecked Sendable {
  private var bytes: [UInt8] = []
  private var endsWithTooLongLine = false
  private var tooLongStart: [UInt8] = []
  /// Accepted numbers, in file order (a one-number pattern counts as a number).
  private(set) var numbers: [Int64] = []
  /// Accepted ranges of more than one number, in file order.
  private(set) var ranges: [ClosedRange<Int64>] = []
  /// Rejected data lines in order, numbered within the piece, with their
  /// text as the rejects report shows it.
  private(set) var rejects: [(line: Int, reason: String, text: String)] = []
  /// What the reader saw; `physicalLines` is the piece's line count.
  private(set) var summary = SourceSummary()
  /// Numbers left out for not being of the source's `types`.
  private(set) var dropped = 0
  /// The wrong-region guard's counts for the piece.
  private(set) var national = NationalTally()

  /// Takes a copy of `piece`.
  func load(_ piece: _LinePiece) {
    bytes.append(contentsOf: piece.bytes)
    endsWithTooLongLine = piece.endsWithTooLongLine
    tooLongStart.append(contentsOf: piece.tooLongStart)
  }

  /// Parses the piece with `format`'s line rules and normalizes its records;
  /// ranges over `maxRangeSize` numbers are rejected.
  func run(
    format: any _LineIndependentReader.Type, normalizer: PhoneNumberNormalizer, region: RegionMetadata?,
    maxRangeSize: Int64, check: NumberCheck? = nil
  ) {
    run(format, normalizer: normalizer, region: region, maxRangeSize: maxRangeSize, check: check)
  }

  private func run<Format: _LineIndependentReader>(
    _ format: Format.Type, normalizer: PhoneNumberNormalizer, region: RegionMetadata?, maxRangeSize: Int64,
    check: NumberCheck?
  ) {
    numbers.reserveCapacity(bytes.count / 8)
    // `+` and digits: the exact E.164 path, unless the number's type or
    // validity must be checked (numbers written with a country code never
    // count for the wrong-region guard).
    let bareNumbers = Format._bareNumberLineIsRecord && check.map { !$0.requireValid && $0.typeMask == nil } != false
    bytes.withUnsafeBufferPointer { buffer in
      tooLongStart.withUnsafeBufferPointer { tooLong in
      let piece = _LinePiece(bytes: buffer, endsWithTooLongLine: endsWithTooLongLine, tooLongStart: tooLong)
      // The reader's per-line rules, without building events.
      summary.physicalLines = _forEachLine(
        in: piece, firstLine: 1,
        onLine: { p, count, line in
          if bareNumbers, let number = normalizer.exactE164(utf8: UnsafeBufferPointer(start: p, count: count)) {
            summary.records += 1
            numbers.append(number)
            return
          }
          switch Format._parseLine(p, count) {
          case .skip:
            break
          case .record(let lower, let upper):
            summary.records += 1
            let field = UnsafeBufferPointer(start: p + lower, count: upper - lower)
            switch RecordAcceptance.number(
              field, normalizer: normalizer, region: region, check: check, national: &national)
            {
            case .number(let number): numbers.append(number)
            case .rejected(let reason): rejects.append((line, reason, _LineText.escaped(p, count)))
            case .dropped: dropped += 1
            }
          case .range(let range):
            summary.ranges += 1
            if let reason = RecordAcceptance.rangeRejection(range, maxRangeSize: maxRangeSize) {
              rejects.append((line, reason, _LineText.escaped(p, count)))
            } else if range.lower == range.upper {
              numbers.append(range.lower)
            } else {
              ranges.append(range.lower...range.upper)
            }
          case .issue(let reason):
            summary.issues += 1
            rejects.append((line, reason, _LineText.escaped(p, count)))
          }
        },
        onTooLong: { line, start in
          summary.issues += 1
          rejects.append((line, "line too long", _LineText.escaped(start)))
        })
      }
    }
  }

  func reset() {
    bytes.removeAll(keepingCapacity: true)
    endsWithTooLongLine = false
    tooLongStart.removeAll(keepingCapacity: true)
    numbers.removeAll(keepingCapacity: true)
    ranges.removeAll(keepingCapacity: true)
    rejects.removeAll(keepingCapacity: true)
    summary = SourceSummary()
    dropped = 0
    national = NationalTally()
  }
}
