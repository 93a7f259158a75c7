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
/// fold adds the lines of the pieces before it (``PieceYield``).
final class LineChunkJob: SourcePiece, @unchecked Sendable {
  private let bytes = ByteBuffer(capacity: 1 << 20)
  private var endsWithTooLongLine = false
  private let tooLongStart = ByteBuffer()
  private var stretch: _FileStretch?
  /// Accepted numbers, in file order (a one-number pattern counts as a
  /// number), less adjacent repeats when they run one way; laid out by
  /// length when they are in text order only (``PieceYield/numbers``).
  private let accepted = GrowableBuffer<Int64>(capacity: 1 << 16)
  /// Where ``accepted`` is laid out by length.
  private let scratch = GrowableBuffer<Int64>(capacity: 1 << 16)
  /// What the piece gave: its numbers in one copy, with their order; its
  /// ranges of more than one number; its rejects numbered within the
  /// piece; `summary.physicalLines` is the piece's line count.
  private(set) var yield = PieceYield()
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

  /// Parses the piece with `format`'s line rules and judges its records,
  /// each cut by `cells` first, by `policy`, reading them in `region`.
  func run(
    format: any _LineIndependentReader.Type, policy: RecordAcceptance.Policy, region: RegionMetadata?,
    cells: CellRules = .none
  ) {
    run(format, policy: policy, region: region, cells: cells)
  }

  private func run<Format: _LineIndependentReader>(
    _ format: Format.Type, policy: RecordAcceptance.Policy, region: RegionMetadata?, cells: CellRules
  ) {
    guard let piece = takePiece() else { return }
    // Every number takes a line of two bytes or more; with cell rules, a
    // piece of a line of one byte or more (pieces never overlap).
    var pass = _LinePass<Format>(
      job: self, policy: policy, region: region, cells: cells,
      out: accepted.reserve((cells.isEmpty ? piece.bytes.count / 2 : piece.bytes.count) + 1))
    pass.scan(piece.bytes)
    if piece.endsWithTooLongLine {
      yield.summary.issues += 1
      yield.rejects.append(PieceYield.Reject(
        line: pass.line, reason: "line too long", text: _LineText.escaped(piece.tooLongStart), numbers: 1))
      pass.line += 1
    }
    finish(out: pass.out, lines: pass.line - 1, records: pass.records)
  }

  /// The lines to parse: the stretch, read from its file on this thread,
  /// or the lines loaded; nil when the stretch could not be read
  /// (``PieceYield/readError`` says why).
  private func takePiece() -> _LinePiece? {
    guard let stretch else {
      return _LinePiece(
        bytes: bytes.elements, endsWithTooLongLine: endsWithTooLongLine, tooLongStart: tooLongStart.elements)
    }
    do {
      let contents = try stretch.read(into: bytes)
      yield.stretchContents = contents
      let base = UnsafePointer(bytes.base)
      return _LinePiece(
        bytes: UnsafeBufferPointer(start: base + contents.lines.lowerBound, count: contents.lines.count),
        endsWithTooLongLine: contents.tooLongStart != nil,
        tooLongStart: contents.tooLongStart.map { UnsafeBufferPointer(start: base + $0.lowerBound, count: $0.count) }
          ?? UnsafeBufferPointer(start: nil, count: 0))
    } catch {
      yield.readError = error
      return nil
    }
  }

  /// Counts what the pass took (every number taken went to `out`; ranges
  /// count in full) and keeps the numbers written up to `out`.
  private func finish(out: UnsafeMutablePointer<Int64>, lines: Int, records: Int) {
    let taken = out - (accepted.base + accepted.count)
    yield.accept(numbers: taken)
    for range in yield.ranges { yield.accept(range: range) }
    yield.summary.physicalLines = lines
    yield.summary.records = records
    accepted.grow(by: taken)
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
    yield.order = order
    yield.repeats = accepted.count - kept
    accepted.truncate(to: kept)
    scratch.removeAll()
    yield.laidOutByLength = TextOrder.layOutByLength(
      accepted.base, count: kept, order: order, scratch: scratch.reserve(kept))
    yield.numbers = accepted.elements
  }

  func reset() {
    bytes.removeAll()
    endsWithTooLongLine = false
    tooLongStart.removeAll()
    stretch = nil
    accepted.removeAll()
    yield.reset()
  }
}

extension LineChunkJob {
  /// One pass over a piece's lines: the common line (`+` and digits, of the
  /// length of the one before) read inline, four at a time where it can,
  /// every other line by `Format`'s own rules (``general(_:_:)``), its
  /// numbers and ranges judged by the source's policy
  /// (``RecordAcceptance/Policy``). Accepted numbers go to ``out``; the
  /// rest to the job's yield.
  private struct _LinePass<Format: _LineIndependentReader> {
    let job: LineChunkJob
    let policy: RecordAcceptance.Policy
    let region: RegionMetadata?
    let cells: CellRules
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
      job: LineChunkJob, policy: RecordAcceptance.Policy, region: RegionMetadata?, cells: CellRules,
      out: UnsafeMutablePointer<Int64>
    ) {
      self.job = job
      self.policy = policy
      self.region = region
      self.cells = cells
      reader = job.formattedReader(policy.normalizer, region: region)
      bareNumbers = Format._bareNumberLineIsRecord && policy.takesBareNumbers
      self.out = out
    }

    /// The lines as ``_forEachLine(in:firstLine:maxLineBytes:onLine:onTooLong:)``
    /// cuts them, in one loop with the common line inline.
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) {
      guard var cursor = bytes.baseAddress else { return }
      let exact = ExactE164Reader(policy.normalizer)
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
          job.yield.summary.issues += 1
          job.yield.rejects.append(PieceYield.Reject(
            line: line, reason: "line too long",
            text: _LineText.escaped(UnsafeBufferPointer(start: cursor, count: min(length, _LineText.maximumBytes))),
            numbers: 1))
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
        job.yield.summary.ranges += 1
        take(policy.range(range), p, count)
      case .issue(let reason):
        reject(reason, p, count, issue: true)
      }
    }

    /// A record's field cut by the cell rules: numbers, ranges and issues.
    private mutating func cellParts(_ field: UnsafeBufferPointer<UInt8>, _ p: UnsafePointer<UInt8>, _ count: Int) {
      let cells = self.cells
      var counts = job.yield.summary.cells
      defer { job.yield.summary.cells = counts }
      cells.forEachPart(field, counts: &counts) { part in
        switch part {
        case .number(let piece):
          number(piece, p, count)
        case .range(let start, let end, let wildcardDigits):
          records += 1
          take(policy.range(start, end, region: region, wildcardDigits: wildcardDigits), p, count)
        case .issue(let reason):
          reject(reason, p, count, issue: true)
        }
      }
    }

    /// A number field (the whole record, or a piece of its cell).
    private mutating func number(_ field: UnsafeBufferPointer<UInt8>, _ p: UnsafePointer<UInt8>, _ count: Int) {
      records += 1
      switch policy.number(field, reader: reader, region: region, national: &job.yield.national) {
      case .number(let number):
        out.pointee = number
        out += 1
      case .rejected(let reason, let numbers): reject(reason, p, count, numbers: numbers)
      case .dropped: job.yield.dropped += 1
      }
    }

    /// A range the policy judged: one number, a range of more, or a reject.
    private mutating func take(_ verdict: RecordAcceptance.RangeVerdict, _ p: UnsafePointer<UInt8>, _ count: Int) {
      switch verdict {
      case .range(let range) where range.lower == range.upper:
        out.pointee = range.lower
        out += 1
      case .range(let range): job.yield.ranges.append(range.lower...range.upper)
      case .rejected(let reason): reject(reason, p, count)
      }
    }

    /// Rejects the line, holding `numbers` numbers (an issue of the
    /// reader's when `issue`).
    private func reject(
      _ reason: String, _ p: UnsafePointer<UInt8>, _ count: Int, numbers: Int = 1, issue: Bool = false
    ) {
      if issue { job.yield.summary.issues += 1 }
      job.yield.rejects.append(
        PieceYield.Reject(line: line, reason: reason, text: _LineText.escaped(p, count), numbers: numbers))
    }
  }
}
