/// One item a reader delivers to its callback, in file order.
///
/// Every data line yields exactly one event; blank and comment lines yield
/// none. A ``RawRecord`` payload is only valid during the callback.
public enum SourceEvent {
  /// A raw number (and label) for the normalizer.
  case record(RawRecord)
  /// An exact inclusive range of E.164 numbers (from `patterns`).
  case range(SourceRange)
  /// A data line the reader could not parse.
  case issue(SourceIssue)
}

@available(*, unavailable)
extension SourceEvent: Sendable {}

/// Counts a reader reports after reading a whole source.
///
/// The compiler fails a source when more than `maxRejectRatio` of its
/// ``dataLines`` are rejected (reader issues plus normalizer rejections).
public struct SourceSummary: Sendable, Hashable {
  /// Records delivered.
  public var records: Int = 0
  /// Ranges delivered.
  public var ranges: Int = 0
  /// Issues delivered.
  public var issues: Int = 0
  /// Rows left out by a `where` filter: neither data lines nor rejects.
  public var filtered: Int = 0
  /// The `where` values no row held, by column (`{"Mnémo": ["FRTEE"]}`).
  public var unmatchedFilterValues: [String: [String]] = [:]
  /// Physical lines in the file (after the BOM), including blank and
  /// comment lines and a header row.
  public var physicalLines: Int = 0
  /// Bytes read, and their CRC-32C (the catalog records both).
  public var bytes: Int = 0
  public var checksum: UInt32 = 0
  /// What the source's ``CellRules`` found in its cells: cells cut into
  /// several numbers, wildcard blocks, ranges (each piece is one of
  /// ``records`` or ``issues``).
  public var cells = CellCounts()

  /// Creates a summary.
  public init(
    records: Int = 0, ranges: Int = 0, issues: Int = 0,
    physicalLines: Int = 0
  ) {
    self.records = records
    self.ranges = ranges
    self.issues = issues
    self.physicalLines = physicalLines
  }

  /// Data lines seen: `records + ranges + issues` (not blank or comment
  /// lines, not a header). A CSV record spanning several physical lines
  /// counts once.
  public var dataLines: Int { records + ranges + issues }
}

/// Everything a reader produced, copied out (for tests and small sources).
public struct SourceContents: Sendable, Hashable {
  /// Owned copies of the records.
  public var records: [SourceRecord] = []
  /// The ranges.
  public var ranges: [SourceRange] = []
  /// The issues.
  public var issues: [SourceIssue] = []
  /// The counts.
  public var summary = SourceSummary()

  /// Creates empty contents.
  public init() {}
}
