import CallDirectorySources
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
  private let accepted = _GrowableBuffer<Int64>(capacity: 1 << 16)
  /// Where ``numbers`` are laid out by length.
  private let scratch = _GrowableBuffer<Int64>(capacity: 1 << 16)
  /// Accepted numbers, in file order (a one-number pattern counts as a
  /// number), less adjacent repeats when they run one way (see ``order``);
  /// laid out by length when ``laidOutByLength``.
  var numbers: UnsafeBufferPointer<Int64> { accepted.elements }
  /// How ``numbers`` ran in the file (``SourceOrder/summarize(_:count:)``).
  private(set) var order = SourceOrder()
  /// Whether ``numbers``, in text order but not in numeric order, were laid
  /// out by length (``TextOrder/layOutByLength(_:count:order:scratch:)``).
  private(set) var laidOutByLength = false
  /// Accepted numbers removed from ``numbers`` as repeats of the one before.
  private(set) var repeats = 0
  /// Accepted ranges of more than one number, in file order.
  private(set) var ranges: [ClosedRange<Int64>] = []
  /// Rejected data lines in order, numbered within the piece, with their
  /// text as the rejects report shows it and the numbers each held
  /// (``RecordAcceptance/Verdict``).
  private(set) var rejects: [(line: Int, reason: String, text: String, numbers: Int)] = []
  /// The numbers the accepted lines hold (ranges in full), saturating.
  private(set) var acceptedNumbers = 0
  /// What the reader saw; `physicalLines` is the piece's line count.
  private(set) var summary = SourceSummary()
  /// Numbers left out for not being of the source's `types`.
  private(set) var dropped = 0
  /// The wrong-region guard's counts for the piece.
  private(set) var national = NationalTally()
  /// See ``formattedReader(_:region:)``.
  private var formatted: FormattedNumberReader?

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

  /// Parses the piece with `format`'s line rules and normalizes its records,
  /// each cut by `cells` first; ranges over `maxRangeSize` numbers, or of
  /// no possible number, are rejected.
  func run(
    format: any _LineIndependentReader.Type, normalizer: PhoneNumberNormalizer, region: RegionMetadata?,
    maxRangeSize: Int64, check: NumberCheck? = nil, cells: CellRules = .none
  ) {
    run(format, normalizer: normalizer, region: region, maxRangeSize: maxRangeSize, check: check, cells: cells)
  }

  private func run<Format: _LineIndependentReader>(
    _ format: Format.Type, normalizer: PhoneNumberNormalizer, region: RegionMetadata?, maxRangeSize: Int64,
    check: NumberCheck?, cells: CellRules
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
        bytes: bytes.elements, endsWithTooLongLine: endsWithTooLongLine, tooLongStart: tooLongStart.elements)
    }
    // `+` and digits: the exact E.164 path, unless the number's type or
    // validity must be checked (numbers written with a country code never
    // count for the wrong-region guard).
    let bareNumbers = Format._bareNumberLineIsRecord && check.map { !$0.requireValid && $0.typeMask == nil } != false
    // Every number takes a line of two bytes or more; with cell rules, a
    // piece of a line of one byte or more (pieces never overlap).
    var out = accepted.reserve((cells.isEmpty ? piece.bytes.count / 2 : piece.bytes.count) + 1)
    var records = 0
    let recordCheck = check.map(RecordCheck.init)
    let reader = formattedReader(normalizer, region: region)
    let plan = normalizer.plan
    // A number field (the whole record, or a piece of its cell).
    func number(_ field: UnsafeBufferPointer<UInt8>, _ p: UnsafePointer<UInt8>, _ count: Int, _ line: Int) {
      records += 1
      switch RecordAcceptance.number(
        field, reader: reader, check: recordCheck, national: &national, normalizer: normalizer, region: region,
        cellKeys: .all)
      {
      case .number(let number):
        out.pointee = number
        out += 1
      case .rejected(let reason, let numbers): rejects.append((line, reason, _LineText.escaped(p, count), numbers))
      case .dropped: dropped += 1
      }
    }
    // An exact range: one number, or a range of more.
    func take(_ range: NumberRange, _ p: UnsafePointer<UInt8>, _ count: Int, _ line: Int) {
      if let reason = RecordAcceptance.rangeRejection(range, maxRangeSize: maxRangeSize, plan: plan) {
        rejects.append((line, reason, _LineText.escaped(p, count), 1))
        return
      }
      if range.lower == range.upper {
        out.pointee = range.lower
        out += 1
      } else {
        ranges.append(range.lower...range.upper)
      }
    }
    // Any line but `+` and digits: the reader's own rules, without events.
    func general(_ p: UnsafePointer<UInt8>, _ count: Int, _ line: Int) {
      switch Format._parseLine(p, count) {
      case .skip:
        break
      case .record(let lower, let upper):
        let field = UnsafeBufferPointer(start: p + lower, count: upper - lower)
        guard !cells.isEmpty else { return number(field, p, count, line) }
        var counts = summary.cells
        defer { summary.cells = counts }
        cells.forEachPart(field, counts: &counts) { part in
          switch part {
          case .number(let piece):
            number(piece, p, count, line)
          case .range(let start, let end, let wildcardDigits):
            records += 1
            switch RecordAcceptance.range(
              start, end, normalizer: normalizer, region: region, wildcardDigits: wildcardDigits)
            {
            case .range(let range): take(range, p, count, line)
            case .rejected(let reason): rejects.append((line, reason, _LineText.escaped(p, count), 1))
            }
          case .issue(let reason):
            summary.issues += 1
            rejects.append((line, reason, _LineText.escaped(p, count), 1))
          }
        }
      case .range(let range):
        summary.ranges += 1
        take(range, p, count, line)
      case .issue(let reason):
        summary.issues += 1
        rejects.append((line, reason, _LineText.escaped(p, count), 1))
      }
    }
    let exact = ExactE164Reader(normalizer)
    // The lines as ``_forEachLine(in:firstLine:maxLineBytes:onLine:onTooLong:)``
    // cuts them, in one loop with the common line inline.
    var line = 1
    // The length of the last `+` and digits line and of its ending (1: a
    // line feed; 2: a carriage return and a line feed): lists run in lines
    // of one length, and a line of that length that ends alike and is all
    // `+` and digits needs no search for its end.
    var expected = 0
    var ending = 1
    // The line from which lines of that length may next be read four at a
    // time: from the second on (the first teaches the reader their shape),
    // and 32 lines after four that could not be.
    var bulkFromLine = 2
    if var cursor = piece.bytes.baseAddress {
      let begin = cursor
      let end = cursor + piece.bytes.count
      while cursor < end {
        if expected > 0, line >= bulkFromLine {
          let read = exact.readLines(at: cursor, length: expected, ending: ending, begin: begin, end: end, into: out)
          records += read
          out += read
          line += read
          cursor += read * (expected + ending)
          if read == 0 { bulkFromLine = line + 32 }
          if cursor == end { break }
        }
        if expected > 0, end - cursor > expected + ending - 1, cursor[expected + ending - 1] == _ASCII.lineFeed,
          ending == 1 || cursor[expected] == _ASCII.carriageReturn,
          let number = exact.read(utf8: UnsafeBufferPointer(start: cursor, count: expected))
        {
          records += 1
          out.pointee = number
          out += 1
          line += 1
          cursor += expected + ending
          continue
        }
        let newline = _nextLineFeed(from: cursor, end: end)
        var length = newline - cursor
        if length > 0, newline[-1] == _ASCII.carriageReturn { length -= 1 }
        if length > _maxRecordBytes {
          summary.issues += 1
          rejects.append((line, "line too long", _LineText.escaped(
            UnsafeBufferPointer(start: cursor, count: min(length, _LineText.maximumBytes))), 1))
        } else if bareNumbers, let number = exact.read(utf8: UnsafeBufferPointer(start: cursor, count: length)) {
          records += 1
          out.pointee = number
          out += 1
          expected = length
          ending = newline - cursor - length + 1
        } else {
          general(cursor, length, line)
        }
        line += 1
        cursor = newline + 1
      }
    }
    if piece.endsWithTooLongLine {
      summary.issues += 1
      rejects.append((line, "line too long", _LineText.escaped(piece.tooLongStart), 1))
      line += 1
    }
    // Every number taken went to `out`; ranges count in full.
    acceptedNumbers = ranges.reduce(out - (accepted.base + accepted.count)) { total, range in
      let size = range.upperBound - range.lowerBound
      return total.addingSaturating(size >= Int64(Int.max) ? Int.max : Int(size) + 1)
    }
    summary.physicalLines = line - 1
    summary.records = records
    accepted.grow(by: out - (accepted.base + accepted.count))
    summarizeOrder()
  }

  /// The reader of this job's lines that are not bare E.164, kept from
  /// piece to piece (and what it learned with it) while the normalizer's
  /// plan and the region stay the same.
  private func formattedReader(_ normalizer: PhoneNumberNormalizer, region: RegionMetadata?) -> FormattedNumberReader {
    if let formatted, formatted.reads(for: normalizer, region: region) { return formatted }
    let reader = FormattedNumberReader(normalizer, region: region)
    formatted = reader
    return reader
  }

  /// Sums up the accepted numbers while they are in the cache, drops
  /// their adjacent repeats when they run one way, and lays them out by
  /// length when they are in text order only.
  @inline(never)
  private func summarizeOrder() {
    let (order, kept) = SourceOrder.summarize(accepted.base, count: accepted.count)
    self.order = order
    repeats = accepted.count - kept
    accepted.truncate(to: kept)
    scratch.removeAll()
    laidOutByLength = TextOrder.layOutByLength(accepted.base, count: kept, order: order, scratch: scratch.reserve(kept))
  }

  func reset() {
    bytes.removeAll()
    endsWithTooLongLine = false
    tooLongStart.removeAll()
    stretch = nil
    stretchContents = nil
    readError = nil
    accepted.removeAll()
    order = SourceOrder()
    laidOutByLength = false
    repeats = 0
    ranges.removeAll(keepingCapacity: true)
    rejects.removeAll(keepingCapacity: true)
    summary = SourceSummary()
    dropped = 0
    national = NationalTally()
    acceptedNumbers = 0
  }
}
