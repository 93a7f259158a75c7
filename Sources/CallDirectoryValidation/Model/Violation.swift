import CallDirectoryFormat

/// Where a violation was found: a line of a text file or an entry of a blob section.
public enum ViolationLocation: Sendable, Hashable {
  /// A 1-based line number of a text file.
  case line(Int)
  /// A 1-based entry index within one section of a blob.
  case entry(section: BlobSection, index: UInt64)
}

/// One problem found in the input.
public struct Violation: Sendable, Hashable {
  /// What is wrong.
  public var kind: ViolationKind
  /// Where it is.
  public var location: ViolationLocation
  /// The list the entry belongs to: for text input ``BlobSection/blocking``
  /// (a line without a label) or ``BlobSection/identification`` (a line with
  /// one); for a blob, its section. `nil` for lines that are no entry.
  public var list: BlobSection?
  /// The entry's number, when it could be read as an `Int64`.
  public var number: Int64?
  /// For ``ViolationKind/outOfOrder`` and ``ViolationKind/duplicate``, the
  /// number before it in the same list.
  public var previous: Int64?
  /// A lowercase, one-line description.
  public var message: String

  /// Creates a violation.
  public init(
    kind: ViolationKind, location: ViolationLocation, list: BlobSection?,
    number: Int64? = nil, previous: Int64? = nil, message: String
  ) {
    self.kind = kind
    self.location = location
    self.list = list
    self.number = number
    self.previous = previous
    self.message = message
  }

  /// The kind's severity.
  public var severity: ViolationSeverity { kind.severity }

  /// The 1-based line number, for text input.
  public var line: Int? {
    if case .line(let line) = location { return line }
    return nil
  }

  /// The 1-based entry index within its section, for blob input.
  public var entry: UInt64? {
    if case .entry(_, let index) = location { return index }
    return nil
  }
}
