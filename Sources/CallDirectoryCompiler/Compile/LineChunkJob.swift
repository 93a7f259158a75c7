import PhoneNumbers

/// A piece of a line-by-line blocking or allow source (``_LineIndependentReader``),
/// parsed and normalized on a worker thread: either lines the reading
/// thread cut and copied in (``load(_:)``), or a stretch of a regular file
/// that the worker reads itself (``load(_:)-(_FileStretch)``), checksum
/// included, so that a large file is read on every core.
///
/// Line numbers inside the job count from 1 at the piece's first line; the
/// fold adds the lines of the pieces before it.
final class LineChunkJob: @unchecked Sendable {
  private let bytes = _ByteBuffer(capacity: 1 << 20)
  private var endsWithTooLongLine = false
  private let tooLongStart = _ByteBuffer()
  private var stretch: _FileStretch?
  /// The stretch's checksum and size, once read.
  private(set) var stretchContents: _FileStretch.Contents?
  /// Why the stretch could not be read.
  private(set) var readError: SourceError?
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
    bytes.append(piece.bytes)
    endsWithTooLongLine = piece.endsWithTooLongLine
    tooLongStart.append(piece.tooLongStart)
  }

  /// Takes a stretch of a file to read on the worker.
  func load(_ stretch: _FileStretch) {
    self.stretch = stretch
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
    let piece: _LinePiece
    if let stretch {
      do {
        let contents = try stretch.read(into: bytes)
        stretchContents = contents
        let base = UnsafePointer(bytes.base)
        piece = _LinePiece(
          bytes: UnsafeBufferPointer(start: base + contents.lines.lowerBound, count: contents.lines.count),
          endsWithTooLongLine: contents.tooLongStart != nil,
          tooLongStart: contents.tooLongStart.map { UnsafeBufferPointer(start: base + $0.lowerBound, count: $0.count) }
            ?? UnsafeBufferPointer(start: nil, count: 0))
      } catch {
        readError = error
        return
      }
    } else {
      piece = _LinePiece(
        bytes: bytes.bytes, endsWithTooLongLine: endsWithTooLongLine, tooLongStart: tooLongStart.bytes)
    }
    numbers.reserveCapacity(piece.bytes.count / 8)
    // `+` and digits: the exact E.164 path, unless the number's type or
    // validity must be checked (numbers written with a country code never
    // count for the wrong-region guard).
    let bareNumbers = Format._bareNumberLineIsRecord && check.map { !$0.requireValid && $0.typeMask == nil } != false
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

  func reset() {
    bytes.removeAll()
    endsWithTooLongLine = false
    tooLongStart.removeAll()
    stretch = nil
    stretchContents = nil
    readError = nil
    numbers.removeAll(keepingCapacity: true)
    ranges.removeAll(keepingCapacity: true)
    rejects.removeAll(keepingCapacity: true)
    summary = SourceSummary()
    dropped = 0
    national = NationalTally()
  }
}
