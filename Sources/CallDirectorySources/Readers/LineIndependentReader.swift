/// What one line of a line-by-line format holds.
package enum _LineOutcome: Equatable {
  /// A blank or comment line: not a data line.
  case skip
  /// A raw number at `line[lower..<upper]`, for the normalizer.
  case record(Int, Int)
  /// An exact range of E.164 numbers.
  case range(NumberRange)
  /// A data line that cannot be read, with a lowercase reason.
  case issue(String)
}

/// A reader whose every line is read on its own (no headers, no records
/// spanning lines), so that a file can be cut at line ends and its pieces
/// parsed on several cores with the same result as one pass.
package protocol _LineIndependentReader: SourceReader, _ChunkSizeAdjustable {
  /// Where the bytes come from.
  var input: SourceInput { get }
  /// What one line (without its line ending) holds.
  static func _parseLine(_ p: UnsafePointer<UInt8>, _ count: Int) -> _LineOutcome
  /// Whether a line that is exactly `+` and digits is always the record
  /// `.record(0, count)`, so that a compiler may hand it to the normalizer's
  /// exact E.164 path without parsing it (`lines`: yes; separators and
  /// wildcards never hold a digit or `+`).
  static var _bareNumberLineIsRecord: Bool { get }
  /// How a record's number may hold several numbers (``CellRules``).
  var _cells: CellRules { get }
}

extension _LineIndependentReader {
  /// Reads the source; see ``SourceReader/read(_:)``.
  public func read(_ body: (SourceEvent) throws -> Void) throws -> SourceSummary {
    let bytes = try _ByteInput(input, chunkSize: _chunkSize)
    let chunker = try _LineChunker(bytes)
    let cells = _cells
    var summary = SourceSummary()
    while let piece = try chunker.next() {
      let lines = try _forEachLine(
        in: piece, firstLine: summary.physicalLines + 1,
        onLine: { p, count, line in
          switch Self._parseLine(p, count) {
          case .skip:
            break
          case .record(let lower, let upper):
            let record = RawRecord(
              line: line, numberBytes: UnsafeBufferPointer(start: p + lower, count: upper - lower),
              textBytes: UnsafeBufferPointer(start: p, count: count))
            try cells.forEachRecord(
              in: record, shownAs: UnsafeBufferPointer(start: p, count: count), summary: &summary,
              deliver: { try body(.record($0)) }, report: { try body(.issue($0)) })
          case .range(let range):
            summary.ranges += 1
            try body(.range(SourceRange(range: range, line: line, text: _LineText.escaped(p, count))))
          case .issue(let reason):
            summary.issues += 1
            try body(.issue(SourceIssue(line: line, reason: reason, text: _LineText.escaped(p, count))))
          }
        },
        onTooLong: { line, start in
          summary.issues += 1
          try body(.issue(SourceIssue(line: line, reason: "line too long", text: _LineText.escaped(start))))
        })
      summary.physicalLines += lines
    }
    bytes.sign(&summary)
    return summary
  }
}

extension LinesSourceReader: _LineIndependentReader {
  package static var _bareNumberLineIsRecord: Bool { true }
  package var _cells: CellRules { cells }
}

extension PatternsSourceReader: _LineIndependentReader {
  package static var _bareNumberLineIsRecord: Bool { false }
  package var _cells: CellRules { .none }
}
