import CallDirectoryFormat

/// The entry count of one list (a text list or a blob section).
public struct ListCount: Sendable, Hashable {
  /// The list: ``BlobSection/blocking`` or ``BlobSection/identification``
  /// for text and full snapshots, the four change lists for a delta.
  public var list: BlobSection
  /// How many entries it holds, valid or not.
  public var entries: UInt64
}

/// The outcome of validating one input.
public struct ValidationSummary: Sendable, Hashable {
  /// What the input was.
  public var format: InputFormat
  /// Entry counts per list, in file order for blobs (blocking first for text).
  public var lists: [ListCount]
  /// How many violations with severity error were found (all, not only reported ones).
  public var errorCount: UInt64
  /// How many warnings were found.
  public var warningCount: UInt64
  /// How many violations were passed to the report handler.
  public var reportedCount: UInt64
  /// The lists whose order violations look like text (lexicographic) sorting.
  public var textSortedLists: [BlobSection]
  /// A one-line explanation when the input looks sorted as text, else `nil`.
  public var hint: String?

  /// Total entries over all lists (text: every line that is neither empty
  /// nor a comment; blob: every number of every number section).
  public var entries: UInt64 { lists.reduce(0) { $0 + $1.entries } }
  /// Whether no error was found (warnings do not make the input invalid).
  public var isValid: Bool { errorCount == 0 }
  /// Errors plus warnings.
  public var violationCount: UInt64 { errorCount + warningCount }
  /// Whether more violations were found than reported.
  public var isTruncated: Bool { violationCount > reportedCount }
}
