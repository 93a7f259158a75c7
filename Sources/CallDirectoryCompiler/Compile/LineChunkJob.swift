import CallDirectorySources
import CalldirHost
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
  private let bytes = ByteBuffer(capacity: 1 << 20)
  private var endsWithTooLongLine = false
  private let tooLongStart = ByteBuffer()
  private var stretch: _FileStretch?
  /// The stretch's checksum and size, once read.
  private(set) var stretchContents: _FileStretch.Contents?
  /// Why the stretch could not be read.
  private(set) var readError: SourceError?
  private let accepted = GrowableBuffer<Int64>(capacity: 1 << 16)
  /// Where ``numbers`` are laid out by length.
  private let scratch = GrowableBuffer<Int64>(capacity: 1 << 16)
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
    guard let piece = takePiece() else { return }
    // Every number takes a line of two bytes or more; with cell rules, a
    // piece of a line of one byte or more (pieces never overlap).
    var pass = _LinePass<Format>(
      job: self, normalizer: normalizer, region: region, maxRangeSize: maxRangeSize, check: check, cells: cells,
      out: accepted.reserve((cells.isEmpty ? piece.bytes.count / 2 : piece.bytes.count) + 1))
    pass.scan(piece.bytes)
    if piece.endsWithTooLongLine {
      summary.issues += 1
      rejects.append((pass.line, "line too long", _LineText.escaped(piece.tooLongStart), 1))
      pass.line += 1
    }
    finish(out: pass.out, lines: pass.line - 1, records: pass.records)
  }

  /// The lines to parse: the stretch, read from its file on this thread,
  /// or the lines loaded; nil when the stretch could not be read
  /// (``readError`` says why).
  private func takePiece() -> _LinePiece? {
    guard let stretch else {
      return _LinePiece(
        bytes: bytes.elements, endsWithTooLongLine: endsWithTooLongLine, tooLongStart: tooLongStart.elements)
    }
    do {
      let contents = try stretch.read(into: bytes)
      stretchContents = contents
      let base = UnsafePointer(bytes.base)
      return _LinePiece(
        bytes: UnsafeBufferPointer(start: base + contents.lines.lowerBound, count: contents.lines.count),
        endsWithTooLongLine: contents.tooLongStart != nil,
        tooLongStart: contents.tooLongStart.map { UnsafeBufferPointer(start: base + $0.lowerBound, count: $0.count) }
          ?? UnsafeBufferPointer(start: nil, count: 0))
    } catch {
      readError = error
      return nil
    }
  }

  /// Counts what the pass took (every number taken went to `out`; ranges
  /// count in full) and keeps the numbers written up to `out`.
  private func finish(out: UnsafeMutablePointer<Int64>, lines: Int, records: Int) {
    acceptedNumbers = ranges.reduce(out - (accepted.base + accepted.count)) { total, range in
      let size = range.upperBound - range.lowerBound
      return total.addingSaturating(size >= Int64(Int.max) ? Int.max : Int(size) + 1)
    }
    summary.physicalLines = lines
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

extension LineChunkJob {
  /// One pass over a piece's lines: the common line (`+` and digits, of the
  /// length of the one before) read inline, four at a time where it can,
  /// every other line by `Format`'s own rules (``general(_:_:)``), its
  /// numbers and ranges accepted or rejected as a record
  /// (``RecordAcceptance``). Accepted numbers go to ``out``; the rest to
  /// the job.
  private struct _LinePass<Format: _LineIndependentReader> {
    let job: LineChunkJob
    let normalizer: PhoneNumberNormalizer
    let region: RegionMetadata?
    let maxRangeSize: Int64
    let cells: CellRules
    let recordCheck: RecordCheck?
    let reader: FormattedNumberReader
    /// Whether a `+` and digits line is a number by the exact E.164 path:
    /// unless the number's type or validity must be checked (numbers
    /// written with a country code never count for the wrong-region guard).
    let bareNumbers: Bool
    /// Where the next accepted number goes.
    var out: UnsafeMutablePointer<Int64>
    /// The records seen.
    var records = 0
    /// The number of the line being read, from 1.
    var line = 1

    init(
      job: LineChunkJob, normalizer: PhoneNumberNormalizer, region: RegionMetadata?, maxRangeSize: Int64,
      check: NumberCheck?, cells: CellRules, out: UnsafeMutablePointer<Int64>
    ) {
      self.job = job
      self.normalizer = normalizer
      self.region = region
      self.maxRangeSize = maxRangeSize
      self.cells = cells
      recordCheck = check.map(RecordCheck.init)
      reader = job.formattedReader(normalizer, region: region)
      bareNumbers = Format._bareNumberLineIsRecord && check.map { !$0.requireValid && $0.typeMask == nil } != false
      self.out = out
    }

    /// The lines as ``_forEachLine(in:firstLine:maxLineBytes:onLine:onTooLong:)``
    /// cuts them, in one loop with the common line inline.
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) {
      guard var cursor = bytes.baseAddress else { return }
      let exact = ExactE164Reader(normalizer)
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
      let begin = cursor
      let end = cursor + bytes.count
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
          accept(number)
          line += 1
          cursor += expected + ending
          continue
        }
        let newline = _nextLineFeed(from: cursor, end: end)
        var length = newline - cursor
        if length > 0, newline[-1] == _ASCII.carriageReturn { length -= 1 }
        if length > _maxRecordBytes {
          job.summary.issues += 1
          job.rejects.append((line, "line too long", _LineText.escaped(
            UnsafeBufferPointer(start: cursor, count: min(length, _LineText.maximumBytes))), 1))
        } else if bareNumbers, let number = exact.read(utf8: UnsafeBufferPointer(start: cursor, count: length)) {
          accept(number)
          expected = length
          ending = newline - cursor - length + 1
        } else {
          general(cursor, length)
        }
        line += 1
        cursor = newline + 1
      }
    }

    /// A record of one accepted number.
    @inline(__always)
    private mutating func accept(_ number: Int64) {
      records += 1
      out.pointee = number
      out += 1
    }

    /// Any line but `+` and digits: the reader's own rules, without events.
    private mutating func general(_ p: UnsafePointer<UInt8>, _ count: Int) {
      switch Format._parseLine(p, count) {
      case .skip:
        break
      case .record(let lower, let upper):
        let field = UnsafeBufferPointer(start: p + lower, count: upper - lower)
        guard !cells.isEmpty else { return number(field, p, count) }
        cellParts(field, p, count)
      case .range(let range):
        job.summary.ranges += 1
        take(range, p, count)
      case .issue(let reason):
        reject(reason, p, count, issue: true)
      }
    }

    /// A record's field cut by the cell rules: numbers, ranges and issues.
    private mutating func cellParts(_ field: UnsafeBufferPointer<UInt8>, _ p: UnsafePointer<UInt8>, _ count: Int) {
      let cells = self.cells
      var counts = job.summary.cells
      defer { job.summary.cells = counts }
      cells.forEachPart(field, counts: &counts) { part in
        switch part {
        case .number(let piece):
          number(piece, p, count)
        case .range(let start, let end, let wildcardDigits):
          records += 1
          switch RecordAcceptance.range(start, end, normalizer: normalizer, region: region, wildcardDigits: wildcardDigits) {
          case .range(let range): take(range, p, count)
          case .rejected(let reason): reject(reason, p, count)
          }
        case .issue(let reason):
          reject(reason, p, count, issue: true)
        }
      }
    }

    /// A number field (the whole record, or a piece of its cell).
    private mutating func number(_ field: UnsafeBufferPointer<UInt8>, _ p: UnsafePointer<UInt8>, _ count: Int) {
      records += 1
      switch RecordAcceptance.number(
        field, reader: reader, check: recordCheck, national: &job.national, normalizer: normalizer, region: region,
        cellKeys: .all)
      {
      case .number(let number):
        out.pointee = number
        out += 1
      case .rejected(let reason, let numbers): job.rejects.append((line, reason, _LineText.escaped(p, count), numbers))
      case .dropped: job.dropped += 1
      }
    }

    /// An exact range: one number, or a range of more.
    private mutating func take(_ range: NumberRange, _ p: UnsafePointer<UInt8>, _ count: Int) {
      if let reason = RecordAcceptance.rangeRejection(range, maxRangeSize: maxRangeSize, plan: normalizer.plan) {
        return reject(reason, p, count)
      }
      if range.lower == range.upper {
        out.pointee = range.lower
        out += 1
      } else {
        job.ranges.append(range.lower...range.upper)
      }
    }

    /// Rejects the line (an issue of the reader's when `issue`).
    private func reject(_ reason: String, _ p: UnsafePointer<UInt8>, _ count: Int, issue: Bool = false) {
      if issue { job.summary.issues += 1 }
      job.rejects.append((line, reason, _LineText.escaped(p, count), 1))
    }
  }
}
