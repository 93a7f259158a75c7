import CalldirSystem

/// A complaint feed's rules for which reports count (`minReports`,
/// `maxAgeDays`) and which label a number gets (`labelPolicy`).
///
/// A number is kept when at least ``minReports`` rows of its source report
/// it, counting only reports dated within ``maxAgeDays`` before the build's
/// reference date (`--as-of`) and not after it.
public struct EvidenceRules: Sendable, Hashable {
  /// Reports a number needs (default 1: any report).
  public var minReports: Int
  /// How old a report may be, in days before the reference date; nil: any
  /// age. Needs the source's `dateColumn`.
  public var maxAgeDays: Int?
  /// Which of a number's labels an `identify` source gives it.
  public var labelPolicy: LabelPolicy

  /// Creates rules; the defaults keep every report and the first label.
  public init(minReports: Int = 1, maxAgeDays: Int? = nil, labelPolicy: LabelPolicy = .first) {
    self.minReports = minReports
    self.maxAgeDays = maxAgeDays
    self.labelPolicy = labelPolicy
  }

  /// Whether the rules are the defaults.
  public var isDefault: Bool { self == EvidenceRules() }

  /// The days (since 1970) whose reports count as of `asOf`:
  /// `[asOf − maxAgeDays, asOf]`, or up to `asOf` without `maxAgeDays`.
  package func countedDays(asOf: CalendarDay) -> ClosedRange<Int32> {
    let newest = asOf.daysSince1970
    return (maxAgeDays.map { Int32(clamping: Int64(newest) - Int64(max(0, $0))) } ?? Int32.min)...newest
  }
}

/// Which label a number reported several times by one source gets.
public enum LabelPolicy: String, Sendable, Hashable, CaseIterable {
  /// The label of its first report (in file order).
  case first
  /// The label most of its reports give; a tie goes to the label reported
  /// earliest (by date, then file order).
  case mostFrequent
}
