/// Reads `csv` and `tsv` sources (RFC 4180) with a header row.
///
/// # Rules
///
/// - The first non-blank row is the header. Columns are chosen by name:
///   names match exactly after trimming spaces (the FTC files write
///   `Company_Phone_Number, Created_Date, …`) and a byte-order mark.
/// - Fields may be quoted: `"a, b"`, doubled quotes `"say ""hi"""`, and
///   line breaks inside quotes. A record's ``RawRecord/line`` is the physical
///   line where it starts. CRLF and LF both end records.
/// - Whitespace around unquoted fields and outside quotes is ignored; a
///   quote inside an unquoted field is kept as a literal character.
/// - Blank lines are skipped and are not data lines. Extra fields beyond
///   the header are ignored.
/// - A first line `sep=X` (Excel's delimiter line, `sep=;`) sets the
///   delimiter to X and is not the header.
/// - Only the chosen fields are validated as UTF-8; other columns may hold
///   any bytes. With an ``encoding`` (ISO-8859-1, Windows-1252, …) the file
///   is converted to UTF-8 through ICU as it streams, header included.
/// - With ``rangeEndColumn``, a row is an inclusive range from the number
///   column to it: the record carries both texts (``RawRecord/rangeEndBytes``)
///   and the compiler normalizes and checks them.
/// - ``filter`` (`where`) leaves out rows whose columns hold none of their
///   values: they are counted in ``SourceSummary/filtered``, not delivered.
/// - ``regionColumn`` gives each row its region through ``regions``
///   (``RawRecord/region``).
/// - With ``additionalNumberColumns`` a row may report several numbers
///   (the FCC files' caller ID and advertiser numbers): one record per
///   non-empty number column, all with the row's line; a row whose number
///   columns are all empty is `empty number`. A number cell without a
///   letter, a digit or a non-ASCII character (the FCC's `-`) is empty.
/// - ``columnAliases`` name other headers a column may have: the first
///   the header holds serves when the configured name is absent.
/// - ``dateColumn`` gives each record its date (``RawRecord/day``) in
///   ``dateFormat``; a row with an empty or unreadable date is rejected.
/// - ``prefixRewrites`` replace the leading text of a number (or of a
///   range's ends) before the compiler normalizes it: ARCEP writes
///   Saint-Pierre-et-Miquelon's `+508 41 12 34` as `0508411234`.
/// - ``cells`` (``CellRules``) cut a number cell into several numbers,
///   wildcard blocks and ranges, each a record of the row (before the
///   prefix rewrites); a piece they cannot read is an issue of the row.
///
/// # Issues
///
/// - `short row: N fields, expected at least M`, `empty number`,
///   `invalid utf-8` (number) and `invalid utf-8 in label`; for ranges
///   `empty range start`, `empty range end` and `invalid utf-8 in range
///   start`/`end`; `region column 'C' value 'V' is not in regions`.
/// - `unexpected text after closing quote` (`"123"x`): the rest of that
///   physical line is skipped.
/// - `unbalanced quotes`, `unterminated quoted field` and `quoted field
///   not closed within 1 MiB`: a quoted field ran over line breaks and then
///   did not close cleanly (or never closed, or not within 1 MiB of the
///   record's start). This is almost always a stray quote, so only the
///   record's start line is rejected and reading resumes on the next
///   physical line; a stray quote costs one line, not the rest of the file.
/// - `line too long`: an unquoted record over 1 MiB.
/// - With ``cells``: a piece of a number cell the rules cannot read
///   (`wildcard 'X' must end the number`, `more than one range separator
///   (' bis ') in a cell`, `range is missing its end`, …), one issue per
///   piece; a cell of nothing but separators is `empty number`.
///
/// The header row itself must parse, or reading throws
/// ``SourceError/invalidHeader(path:reason:)``.
public struct DelimitedSourceReader: SourceReader {
  /// Where the bytes come from.
  public var input: SourceInput
  /// The field separator: `,` for `csv`, tab for `tsv`, or another ASCII
  /// byte.
  public var delimiter: UInt8
  /// The header name of the number column.
  public var numberColumn: String
  /// The header name of the label column, if any.
  public var labelColumn: String?
  /// The source's character set when it is not UTF-8 (`ISO-8859-1`,
  /// `Windows-1252`, any ICU name or alias); nil reads UTF-8 as is.
  public var encoding: String?
  /// The header name of the column holding each row's last number: rows are
  /// then inclusive ranges from ``numberColumn`` to it.
  public var rangeEndColumn: String?
  /// Rows are kept only when each named column holds one of its values
  /// (exact match after trimming); the others are filtered, not rejected.
  public var filter: [String: Set<String>]
  /// The column whose value gives each row's region through ``regions``.
  public var regionColumn: String?
  /// Region codes by ``regionColumn`` value.
  public var regions: [String: String]
  /// More columns that each hold a number of the row (not with ranges).
  public var additionalNumberColumns: [String]
  /// The header name of the column holding each row's date.
  public var dateColumn: String?
  /// Other header names a column may go by, tried in order when the header
  /// lacks the configured one (`Ticket Created` for `Date (Ticket
  /// Created)`): files that renamed their columns over the years.
  public var columnAliases: [String: [String]]
  /// How ``dateColumn`` writes dates.
  public var dateFormat: ReportDateFormat
  /// How a number cell may hold several numbers, a wildcard block or a
  /// range (`numberSeparator`, `wildcard`, `rangeSeparator`): each is a
  /// record of the row. Not with ``rangeEndColumn``.
  public var cells: CellRules
  /// Leading texts of numbers and their replacements (`0508` → `+508`);
  /// the longest matching prefix applies.
  public var prefixRewrites: [String: String] {
    didSet { _rewrites = Self.rewrites(prefixRewrites) }
  }
  fileprivate var _rewrites: [(from: [UInt8], to: [UInt8])] = []
  package var _chunkSize = _defaultChunkSize

  /// Creates a reader.
  ///
  /// - Parameters:
  ///   - input: The bytes.
  ///   - delimiter: The field separator (`0x2C` comma, `0x09` tab, …).
  ///   - numberColumn: The header name of the number column (the first
  ///     number of a range when `rangeEndColumn` is set).
  ///   - labelColumn: The header name of the label column, if any.
  ///   - encoding: The character set, nil for UTF-8.
  ///   - rangeEndColumn: The header name of the range's last number.
  ///   - filter: Values to keep by column name.
  ///   - regionColumn: The column that picks each row's region.
  ///   - regions: Region codes by `regionColumn` value.
  ///   - additionalNumberColumns: More number columns of a row.
  ///   - dateColumn: The column holding each row's date.
  ///   - dateFormat: How that column writes dates.
  ///   - prefixRewrites: Leading texts of numbers to replace.
  ///   - columnAliases: Other names of columns, by configured name.
  ///   - cells: How a number cell may hold several numbers.
  public init(
    input: SourceInput, delimiter: UInt8 = 0x2C,
    numberColumn: String, labelColumn: String? = nil,
    encoding: String? = nil, rangeEndColumn: String? = nil,
    filter: [String: Set<String>] = [:],
    regionColumn: String? = nil, regions: [String: String] = [:],
    additionalNumberColumns: [String] = [], dateColumn: String? = nil,
    dateFormat: ReportDateFormat = .iso, prefixRewrites: [String: String] = [:],
    columnAliases: [String: [String]] = [:], cells: CellRules = .none
  ) {
    self.cells = cells
    self.columnAliases = columnAliases
    self.additionalNumberColumns = additionalNumberColumns
    self.dateColumn = dateColumn
    self.dateFormat = dateFormat
    self.prefixRewrites = prefixRewrites
    self._rewrites = Self.rewrites(prefixRewrites)
    self.input = input
    self.delimiter = delimiter
    self.numberColumn = numberColumn
    self.labelColumn = labelColumn
    self.encoding = encoding
    self.rangeEndColumn = rangeEndColumn
    self.filter = filter
    self.regionColumn = regionColumn
    self.regions = regions
  }

  /// The delimiter an Excel `sep=X` line at `start` names, and where the
  /// next line starts; nil when the first line is another one.
  fileprivate static func delimiterLine(_ bytes: _ByteInput, at start: Int) throws(SourceError) -> (UInt8, Int)? {
    try bytes.ensure(start + 7)
    let base = bytes.base
    let available = bytes.end - start
    guard available >= 5,
      Array(UnsafeBufferPointer(start: base + start, count: 4)).map({ $0 | 0x20 }) == Array("sep=".utf8),
      _isFieldDelimiter(base[start + 4])
    else { return nil }
    var next = start + 5
    if next < bytes.end, base[next] == _ASCII.carriageReturn { next += 1 }
    if next < bytes.end {
      guard base[next] == _ASCII.lineFeed else { return nil }
      next += 1
    }
    return (base[start + 4], next)
  }

  /// Reads the source; see ``SourceReader/read(_:)``.
  ///
  /// - Throws: ``SourceError/missingHeader(path:)``,
  ///   ``SourceError/columnNotFound(path:column:available:suggestion:)``,
  ///   I/O errors, or what `body` throws.
  public func read(
    _ body: (SourceEvent) throws -> Void
  ) throws -> SourceSummary {
    var pass = try _DelimitedPass(self)
    try pass.readRows(body)
    return try pass.finish()
  }
}

/// One read of a delimited source: where it stands in the bytes, the
/// header's columns once read, and what it has reported.
private struct _DelimitedPass {
  let reader: DelimitedSourceReader
  let bytes: _ByteInput
  let rewrites: [(from: [UInt8], to: [UInt8])]
  let cells: CellRules
  /// The field separator: the reader's, or the one a `sep=X` line names.
  var delimiter: UInt8
  var pos: Int
  var line = 1
  var summary = SourceSummary()
  var fields: [_Field] = []
  var columns: _Columns?
  /// Whether the rest of a too-long line is being passed over.
  var discarding = false
  var lastByte: UInt8 = _ASCII.lineFeed

  /// Opens the input and reads past its byte-order mark and an Excel
  /// `sep=X` line.
  init(_ reader: DelimitedSourceReader) throws {
    self.reader = reader
    bytes = try _ByteInput(reader.input, chunkSize: reader._chunkSize, encoding: reader.encoding)
    rewrites = reader._rewrites
    cells = reader.cells
    delimiter = reader.delimiter
    pos = try bytes.skipByteOrderMark()
    if let (named, next) = try DelimitedSourceReader.delimiterLine(bytes, at: pos) {
      delimiter = named
      pos = next
      line = 2
    }
  }

  /// Reads every row, refilling the buffer as the rows need.
  mutating func readRows(_ body: (SourceEvent) throws -> Void) throws {
    reading: while true {
      let base = bytes.base
      let end = bytes.end
      if discarding { discardRestOfLine(base, end) }
      while !discarding {
        let step = _parseDelimitedRecord(
          base, from: pos, end: end, atEOF: bytes.isEOF,
          delimiter: delimiter, fields: &fields)
        switch step {
        case .endOfInput:
          break reading
        case .needMore(let inQuotes):
          if end - pos > _maxRecordBytes { try passOverTooLong(inQuotes: inQuotes, base, end, body) }
          break
        case .blank(let next, let newlines):
          pos = next
          line += newlines
          continue
        case .unterminated:
          try unterminated(base, end, body)
          continue
        case .badQuote(let next, let newlines):
          try badQuote(next: next, newlines: newlines, base, body)
          continue
        case .record(let next, let newlines):
          if let chosen = columns {
            try deliverRow(chosen, upTo: next, base, body)
          } else {
            columns = try reader._resolveHeader(base, fields, name: bytes.name)
          }
          pos = next
          line += newlines
          continue
        }
        break
      }
      if bytes.isEOF && !discarding && pos >= end { break }
      if bytes.isEOF && discarding { break }
      if end > 0 { lastByte = base[end - 1] }
      try bytes.refill(keepingFrom: pos)
      pos = 0
    }
  }

  /// The summary once every row is read.
  /// - Throws: ``SourceError/missingHeader(path:)`` when there was no header row.
  mutating func finish() throws(SourceError) -> SourceSummary {
    guard let columns else {
      throw SourceError.missingHeader(path: bytes.name)
    }
    summary.unmatchedFilterValues = columns.matched.unmatched(columns.filters)
    if bytes.end > 0 { lastByte = bytes.base[bytes.end - 1] }
    summary.physicalLines = line - 1 + (lastByte == _ASCII.lineFeed ? 0 : 1)
    bytes.sign(&summary)
    return summary
  }

  /// Passes over the rest of a too-long line in the buffer, up to its line feed.
  private mutating func discardRestOfLine(_ base: UnsafeMutablePointer<UInt8>, _ end: Int) {
    let scan = Self.lineFeed(base, from: pos, end: end)
    if scan < end {
      pos = scan + 1
      line += 1
      discarding = false
    } else {
      pos = end
    }
  }

  /// Reports a row past the 1 MiB limit (a header that long is refused)
  /// and passes over its line, the part not yet read too.
  private mutating func passOverTooLong(
    inQuotes: Bool, _ base: UnsafeMutablePointer<UInt8>, _ end: Int, _ body: (SourceEvent) throws -> Void
  ) throws {
    let reason = inQuotes ? "quoted field not closed within 1 MiB" : "line too long"
    if columns == nil {
      throw SourceError.invalidHeader(path: bytes.name, reason: reason)
    }
    try issue(reason, pos, min(end, pos + 320), body)
    let scan = Self.lineFeed(base, from: pos, end: end)
    if scan < end {
      pos = scan + 1
      line += 1
    } else {
      pos = end
      discarding = true
    }
  }

  /// Reports a row whose quoted field never closes and goes on after its
  /// first line.
  private mutating func unterminated(
    _ base: UnsafeMutablePointer<UInt8>, _ end: Int, _ body: (SourceEvent) throws -> Void
  ) throws {
    if columns == nil {
      throw SourceError.invalidHeader(path: bytes.name, reason: "unterminated quoted field")
    }
    let scan = Self.lineFeed(base, from: pos, end: end)
    let next = scan < end ? scan + 1 : end
    try issue("unterminated quoted field", pos, next, body)
    pos = next
    line += 1
  }

  /// Reports a row with text after a closing quote.
  private mutating func badQuote(
    next: Int, newlines: Int, _ base: UnsafeMutablePointer<UInt8>, _ body: (SourceEvent) throws -> Void
  ) throws {
    if columns == nil {
      throw SourceError.invalidHeader(path: bytes.name, reason: "unexpected text after closing quote")
    }
    if newlines > 1 {
      // The quoted field ran over line breaks before text followed
      // its "closing" quote: most likely a stray quote. Reject only
      // the start line and resume on the next one.
      var scan = pos
      while base[scan] != _ASCII.lineFeed { scan += 1 }
      try issue("unbalanced quotes", pos, scan + 1, body)
      pos = scan + 1
      line += 1
    } else {
      try issue("unexpected text after closing quote", pos, next, body)
      pos = next
      line += newlines
    }
  }

  /// Turns the data row at `pos` into records, a filtered row or an issue.
  private mutating func deliverRow(
    _ chosen: _Columns, upTo next: Int, _ base: UnsafeMutablePointer<UInt8>, _ body: (SourceEvent) throws -> Void
  ) throws {
    var stop = next
    while stop > pos, base[stop - 1] == _ASCII.lineFeed || base[stop - 1] == _ASCII.carriageReturn {
      stop -= 1
    }
    let text = UnsafeBufferPointer(start: base + pos, count: min(stop - pos, _LineText.maximumBytes))
    // Collapsing doubled quotes rewrites the buffer: keep the
    // record as read for the rejects report first.
    let kept = fields.contains(where: \.escaped) ? Array(text) : nil
    let outcome = reader._extract(base, chosen, fields: &fields, line: line)
    try (kept ?? []).withUnsafeBufferPointer { copy in
      let recordText = kept == nil ? text : copy
      switch outcome {
      case .records(let first, let more):
        try send(first, text: recordText, body)
        for record in more { try send(record, text: recordText, body) }
      case .filtered:
        summary.filtered += 1
      case .issue(let reason):
        summary.issues += 1
        try body(.issue(SourceIssue(line: line, reason: reason, text: _LineText.escaped(recordText))))
      }
    }
  }

  /// Delivers one record of a row (`text`, as read): with cell rules, each
  /// number, block or range of its cell is a record of the row.
  private mutating func send(
    _ record: RawRecord, text recordText: UnsafeBufferPointer<UInt8>, _ body: (SourceEvent) throws -> Void
  ) throws {
    let record = RawRecord(
      line: record.line, numberBytes: record.numberBytes, labelBytes: record.labelBytes,
      textBytes: recordText, rangeEndBytes: record.rangeEndBytes, region: record.region,
      day: record.day)
    let rewrites = self.rewrites
    try cells.forEachRecord(
      in: record, shownAs: recordText, summary: &summary,
      deliver: { try Self.deliver($0, rewriting: rewrites, body) }, report: { try body(.issue($0)) })
  }

  /// Hands a record to `body`, its number texts rewritten first when a
  /// prefix rewrite of `rewrites` applies.
  private static func deliver(
    _ record: RawRecord, rewriting rewrites: [(from: [UInt8], to: [UInt8])], _ body: (SourceEvent) throws -> Void
  ) throws {
    let number = DelimitedSourceReader.rewritten(record.numberBytes, rewrites)
    let rangeEnd = record.rangeEndBytes.flatMap { DelimitedSourceReader.rewritten($0, rewrites) }
    guard number != nil || rangeEnd != nil else { return try body(.record(record)) }
    let numberCopy = number ?? Array(record.numberBytes)
    let rangeEndCopy = rangeEnd ?? record.rangeEndBytes.map(Array.init)
    try numberCopy.withUnsafeBufferPointer { numberBytes in
      guard let rangeEndCopy else {
        return try body(.record(record.replacing(numberBytes: numberBytes, rangeEndBytes: nil)))
      }
      try rangeEndCopy.withUnsafeBufferPointer { rangeEndBytes in
        try body(.record(record.replacing(numberBytes: numberBytes, rangeEndBytes: rangeEndBytes)))
      }
    }
  }

  /// Reports the row `base[start..<next]` (its line ending left out) at ``line``.
  private mutating func issue(
    _ reason: String, _ start: Int, _ next: Int, _ body: (SourceEvent) throws -> Void
  ) throws {
    summary.issues += 1
    var stop = next
    let base = bytes.base
    while stop > start,
      base[stop - 1] == _ASCII.lineFeed
        || base[stop - 1] == _ASCII.carriageReturn
    {
      stop -= 1
    }
    try body(
      .issue(
        SourceIssue(
          line: line, reason: reason,
          text: _LineText.escaped(base + start, stop - start))))
  }

  /// The index of the first line feed at or after `start`, or `end`.
  private static func lineFeed(_ base: UnsafeMutablePointer<UInt8>, from start: Int, end: Int) -> Int {
    var scan = start
    while scan < end, base[scan] != _ASCII.lineFeed { scan += 1 }
    return scan
  }
}

extension DelimitedSourceReader {
  /// The rewrites, longest prefix first.
  fileprivate static func rewrites(_ table: [String: String]) -> [(from: [UInt8], to: [UInt8])] {
    table.map { (Array($0.key.utf8), Array($0.value.utf8)) }
      .sorted { $0.from.count != $1.from.count ? $0.from.count > $1.from.count : $0.from.lexicographicallyPrecedes($1.from) }
  }

  /// `text` with its longest matching prefix replaced; nil when none matches.
  fileprivate static func rewritten(
    _ text: UnsafeBufferPointer<UInt8>, _ rewrites: [(from: [UInt8], to: [UInt8])]
  ) -> [UInt8]? {
    for rewrite in rewrites where text.count >= rewrite.from.count && !rewrite.from.isEmpty {
      guard text.prefix(rewrite.from.count).elementsEqual(rewrite.from) else { continue }
      return rewrite.to + text.dropFirst(rewrite.from.count)
    }
    return nil
  }
}

/// One field's bytes inside the buffer (quotes excluded).
struct _Field {
  var start: Int
  var end: Int
  /// Whether the field holds doubled quotes to collapse.
  var escaped: Bool
}

/// The result of trying to parse one delimited record.
enum _DelimitedStep: Equatable {
  /// The buffer ends inside the record; read more and parse again.
  case needMore(inQuotes: Bool)
  /// No bytes remain.
  case endOfInput
  /// A blank line.
  case blank(next: Int, newlines: Int)
  /// A complete record in `fields`.
  case record(next: Int, newlines: Int)
  /// Text after a closing quote; `next` skips the rest of that line.
  case badQuote(next: Int, newlines: Int)
  /// A quoted field that never closes before the end of input.
  case unterminated
}

/// Parses the record starting at `start`; fills `fields` on `.record`.
func _parseDelimitedRecord(
  _ p: UnsafePointer<UInt8>, from start: Int, end: Int, atEOF: Bool,
  delimiter: UInt8, fields: inout [_Field]
) -> _DelimitedStep {
  if let step = _blankLineOrEnd(p, from: start, end: end, atEOF: atEOF, delimiter: delimiter) { return step }
  fields.removeAll(keepingCapacity: true)
  var newlines = 0
  var index = start
  while true {
    while index < end, _isPad(p[index], delimiter: delimiter) { index += 1 }
    if index < end, p[index] == _ASCII.quote {
      index += 1
      let contentStart = index
      switch _scanQuotedField(p, index: &index, end: end, atEOF: atEOF, newlines: &newlines) {
      case .needMore: return .needMore(inQuotes: true)
      case .unterminated: return .unterminated
      case .closed(let escaped): fields.append(_Field(start: contentStart, end: index, escaped: escaped))
      }
      index += 1
      if let step = _afterClosingQuote(p, index: &index, end: end, atEOF: atEOF, delimiter: delimiter, newlines: newlines)
      {
        return step
      }
      continue
    }
    let fieldStart = index
    while index < end, p[index] != delimiter, p[index] != _ASCII.lineFeed {
      index += 1
    }
    if index == end, !atEOF { return .needMore(inQuotes: false) }
    var fieldEnd = index
    while fieldEnd > fieldStart, _isBlank(p[fieldEnd - 1]) { fieldEnd -= 1 }
    fields.append(_Field(start: fieldStart, end: fieldEnd, escaped: false))
    if index == end { return .record(next: end, newlines: newlines) }
    if p[index] == delimiter {
      index += 1
      continue
    }
    return .record(next: index + 1, newlines: newlines + 1)
  }
}

/// The step when the bytes at `start` are no record: the end of input, a
/// blank line, or too few bytes to tell; nil when a record starts there.
@inline(__always)
private func _blankLineOrEnd(
  _ p: UnsafePointer<UInt8>, from start: Int, end: Int, atEOF: Bool, delimiter: UInt8
) -> _DelimitedStep? {
  let more = _DelimitedStep.needMore(inQuotes: false)
  if start == end { return atEOF ? .endOfInput : more }
  var index = start
  while index < end, p[index] != delimiter, _isBlank(p[index]) { index += 1 }
  if index == end { return atEOF ? .blank(next: end, newlines: 0) : more }
  if p[index] == _ASCII.lineFeed {
    return .blank(next: index + 1, newlines: 1)
  }
  return nil
}

/// Padding around a field: a space or a tab that is not the delimiter.
@inline(__always)
private func _isPad(_ byte: UInt8, delimiter: UInt8) -> Bool {
  byte != delimiter && (byte == _ASCII.space || byte == _ASCII.tab)
}

/// How a quoted field's scan ended.
private enum _QuotedScan {
  /// At its closing quote; `escaped` when it holds doubled quotes.
  case closed(escaped: Bool)
  /// The buffer ends inside it.
  case needMore
  /// The input ends inside it.
  case unterminated
}

/// Scans a quoted field's content from `index` (past the opening quote)
/// to its closing quote, counting the line feeds inside it.
@inline(__always)
private func _scanQuotedField(
  _ p: UnsafePointer<UInt8>, index: inout Int, end: Int, atEOF: Bool, newlines: inout Int
) -> _QuotedScan {
  var escaped = false
  while index < end {
    let byte = p[index]
    if byte == _ASCII.quote {
      if index + 1 < end {
        if p[index + 1] == _ASCII.quote {
          escaped = true
          index += 2
          continue
        }
      } else if !atEOF {
        return .needMore
      }
      return .closed(escaped: escaped)
    }
    if byte == _ASCII.lineFeed { newlines += 1 }
    index += 1
  }
  return atEOF ? .unterminated : .needMore
}

/// What follows a quoted field (`index` past its closing quote): nil when
/// a delimiter does (`index` then past it), else the record's end, more
/// bytes needed, or text after the closing quote.
@inline(__always)
private func _afterClosingQuote(
  _ p: UnsafePointer<UInt8>, index: inout Int, end: Int, atEOF: Bool, delimiter: UInt8, newlines: Int
) -> _DelimitedStep? {
  let more = _DelimitedStep.needMore(inQuotes: false)
  while index < end, _isPad(p[index], delimiter: delimiter) { index += 1 }
  if index == end {
    return atEOF ? .record(next: end, newlines: newlines) : more
  }
  let byte = p[index]
  if byte == delimiter {
    index += 1
    return nil
  }
  if byte == _ASCII.lineFeed {
    return .record(next: index + 1, newlines: newlines + 1)
  }
  if byte == _ASCII.carriageReturn {
    if index + 1 == end {
      return atEOF ? .record(next: end, newlines: newlines) : more
    }
    if p[index + 1] == _ASCII.lineFeed {
      return .record(next: index + 2, newlines: newlines + 1)
    }
  }
  while index < end, p[index] != _ASCII.lineFeed { index += 1 }
  if index == end {
    return atEOF ? .badQuote(next: end, newlines: newlines) : more
  }
  return .badQuote(next: index + 1, newlines: newlines + 1)
}

/// Collapses doubled quotes of `field` in place.
///
/// - Returns: The new end of the field.
func _unescapeInPlace(
  _ p: UnsafeMutablePointer<UInt8>, _ field: _Field
) -> Int {
  guard field.escaped else { return field.end }
  var read = field.start
  var write = field.start
  while read < field.end {
    let byte = p[read]
    p[write] = byte
    write += 1
    read +=
      (byte == _ASCII.quote && read + 1 < field.end
        && p[read + 1] == _ASCII.quote) ? 2 : 1
  }
  return write
}

extension String {
  /// The string without leading and trailing ASCII spaces and tabs.
  package func trimmingASCIIWhitespace() -> String {
    var view = Substring(self)
    while let first = view.first, first == " " || first == "\t" {
      view.removeFirst()
    }
    while let last = view.last, last == " " || last == "\t" {
      view.removeLast()
    }
    return String(view)
  }
}

/// Whether `byte` may separate fields: one ASCII character other than a
/// digit, a quote, a space or a line break.
func _isFieldDelimiter(_ byte: UInt8) -> Bool {
  byte < 0x80 && byte != _ASCII.quote && byte != _ASCII.space && byte != _ASCII.lineFeed
    && byte != _ASCII.carriageReturn && !_isDigit(byte)
}
