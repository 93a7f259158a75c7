/// A section of a call directory blob, as named in errors and in the section table.
///
/// The raw value is the section identifier stored in the header's section
/// table; ``header`` (0) is never stored and only names the header in errors.
public enum BlobSection: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// The fixed header and section table.
  case header = 0
  /// Full snapshot: blocking numbers.
  case blocking = 1
  /// The label dictionary (full snapshot and delta).
  case labels = 2
  /// Full snapshot: identification entries (number and label id).
  case identification = 3
  /// Delta: blocking numbers to remove.
  case blockingRemoves = 4
  /// Delta: blocking numbers to add.
  case blockingAdds = 5
  /// Delta: identification numbers to remove.
  case identificationRemoves = 6
  /// Delta: identification entries to add (number and label id).
  case identificationAdds = 7

  /// A lowercase name for messages.
  public var description: String {
    switch self {
    case .header: "header"
    case .blocking: "blocking"
    case .labels: "labels"
    case .identification: "identification"
    case .blockingRemoves: "blocking removes"
    case .blockingAdds: "blocking adds"
    case .identificationRemoves: "identification removes"
    case .identificationAdds: "identification adds"
    }
  }

  /// Whether the section stores numbers in frames of coded blocks.
  public var isNumberSection: Bool {
    self != .header && self != .labels
  }

  /// Whether each entry of the section carries a label id.
  public var carriesLabels: Bool {
    self == .identification || self == .identificationAdds
  }
}

/// The kind of a blob: a full snapshot or a delta between two snapshots.
public enum BlobKind: UInt8, Sendable, Hashable, CustomStringConvertible {
  /// A complete snapshot: blocking numbers, labels, identification entries.
  case full = 1
  /// The changes that turn one snapshot (the base) into another (the target).
  case delta = 2

  /// A lowercase name for messages.
  public var description: String {
    switch self {
    case .full: "full"
    case .delta: "delta"
    }
  }

  /// The sections of this kind, in the order they are stored.
  public var sectionOrder: [BlobSection] {
    switch self {
    case .full:
      [.blocking, .labels, .identification]
    case .delta:
      [.blockingRemoves, .blockingAdds, .identificationRemoves, .labels,
       .identificationAdds]
    }
  }
}
