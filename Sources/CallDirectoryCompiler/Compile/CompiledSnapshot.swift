import CallDirectorySources

/// The result of compiling a config: the entries an extension will load, and
/// what happened on the way.
public struct CompiledSnapshot: Sendable {
  /// Blocking numbers: ascending, unique, allowlist applied.
  public internal(set) var blocking: BlockingEntries
  /// Identification entries: ascending unique numbers with an index into
  /// `labels`. Empty when the entries passed the build's memory limit and
  /// were resolved from spilled runs (``spilledIdentification``).
  public internal(set) var identification: [LabeledNumber]
  /// For each identification entry, the config index of the source whose
  /// label won; empty unless the config has `liveCallerID` (whose export
  /// needs each entry's `category` and `icon`), and when the entries
  /// spilled (the spilled entries carry it).
  public internal(set) var identificationSources: [Int32] = []
  /// The label dictionary, sorted by UTF-8 bytes, each label once (empty
  /// when the entries spilled).
  public internal(set) var labels: [String]
  /// Counts for reports and the catalog.
  public internal(set) var statistics: CompileStatistics
  /// One report per source, in config order.
  public internal(set) var sources: [SourceReport]
  /// Time spent reading and normalizing sources.
  public internal(set) var readMilliseconds: Int64
  /// The identification entries and their labels in temporary files,
  /// when they passed the build's memory limit; nil when they are held in
  /// `identification` and `labels`.
  package var spilledIdentification: SpilledIdentification? = nil

  /// Calls `body` with each identification entry in ascending order: its
  /// number, its label id in the dictionary and the label's UTF-8 bytes
  /// (valid during the call), in memory or spilled alike.
  func forEachIdentification(
    _ body: (_ number: Int64, _ labelID: UInt32, _ label: UnsafeRawBufferPointer) throws -> Void
  ) throws {
    if let spilled = spilledIdentification {
      let cursor = try spilled.cursor()
      while let number = cursor.number {
        try body(number, spilled.used.place(of: cursor.rank), cursor.label)
        try cursor.advance()
      }
      return
    }
    for entry in identification {
      var label = labels[Int(entry.labelID)]
      try label.withUTF8 { try body(entry.number, entry.labelID, UnsafeRawBufferPointer($0)) }
    }
  }
}

/// One identification entry, its label given by index into the dictionary.
public struct LabeledNumber: Sendable, Hashable {
  public var number: Int64
  public var labelID: UInt32

  public init(number: Int64, labelID: UInt32) {
    self.number = number
    self.labelID = labelID
  }
}

/// The counts of a compile.
public struct CompileStatistics: Sendable, Hashable {
  /// Blocking entries in the snapshot.
  public var blocking = 0
  /// Identification entries in the snapshot.
  public var identification = 0
  /// Distinct labels in use.
  public var labels = 0
  /// Data lines rejected (every source).
  public var rejected = 0
  /// Numbers that came with more than one distinct label.
  public var conflicts = 0
  /// Blocking numbers removed by allowlists.
  public var allowed = 0
  /// Entries dropped as repeats of a number already listed.
  public var duplicates = 0
  /// Sorted runs spilled to disk because the numbers passed the memory limit (0: all in memory).
  public var spilledRuns = 0
}

/// What one source contributed.
public struct SourceReport: Sendable, Hashable {
  /// The source as configured.
  public var spec: SourceSpec
  /// Data lines, records, ranges and reader issues.
  public var summary: SourceSummary
  /// Entries (or ranges) taken from the source.
  public var accepted: Int
  /// Data lines rejected.
  public var rejected: Int
  /// Rejected data lines by reason.
  public var rejectReasons: [String: Int] = [:]
  /// Numbers left out for not being of the source's `types` (0 without `types`).
  public var typeFiltered = 0
  /// Distinct numbers, repeats and entries only this source gives.
  public var contribution = SourceContribution()
  /// True when the source's file was missing and the build went on
  /// without it (`--force` past a vanished source).
  public var isAbsent = false
  /// What the source's evidence rules kept and dropped; nil for a source
  /// without them.
  public var evidence: EvidenceCounts?
  /// The numbers the accepted data lines hold (a range or a wildcard block
  /// counted in full), for the reject guard.
  public var acceptedNumbers = 0
  /// The numbers the rejected data lines hold: one a line, but a field of
  /// several numbers, a wildcard block or a range that the source's keys
  /// do not read counts as the numbers it holds (``CellCheck``).
  public var rejectedNumbers = 0
}
