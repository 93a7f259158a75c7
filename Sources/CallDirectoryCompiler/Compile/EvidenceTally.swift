import CalldirSystem

/// A complaint feed's reports, gathered per source and then weighed by its
/// ``EvidenceRules``: which numbers have enough recent reports, and which
/// label each keeps.
///
/// Reports are counted per row: a row that gives one number in two columns
/// is one report. Only reports dated in the window `[asOf - maxAgeDays,
/// asOf]` count (without `maxAgeDays`, any date up to `asOf`; without a
/// date column, every report).
struct EvidenceTally {
  /// One report: a number a row gave.
  private struct Report {
    var number: Int64
    var line: Int
    /// Days since 1970, `Int32.min` for an undated report.
    var day: Int32
    /// Index into `labels`, -1 for none.
    var label: Int32
    /// Arrival order, for ties.
    var order: Int32
  }

  /// What the rules kept and what they dropped.
  struct Outcome {
    /// The numbers kept, ascending, with their label and the line of the
    /// report that gave it.
    var kept: [(number: Int64, label: String?, line: Int)] = []
    var counts = EvidenceCounts()
  }

  private var reports: [Report] = []
  private var labels: [String] = []
  private var labelIndex: [String: Int32] = [:]

  /// Adds a report of `number` from `line`.
  mutating func add(number: Int64, label: String?, line: Int, day: CalendarDay?) {
    var labelID: Int32 = -1
    if let label {
      if let known = labelIndex[label] {
        labelID = known
      } else {
        labelID = Int32(labels.count)
        labelIndex[label] = labelID
        labels.append(label)
      }
    }
    reports.append(Report(
      number: number, line: line, day: day?.daysSince1970 ?? Int32.min, label: labelID,
      order: Int32(truncatingIfNeeded: reports.count)))
  }

  /// Weighs the reports gathered.
  func weigh(_ rules: EvidenceRules, asOf: CalendarDay) -> Outcome {
    let window = rules.countedDays(asOf: asOf)
    var outcome = Outcome()
    let sorted = reports.sorted { ($0.number, $0.order) < ($1.number, $1.order) }
    var start = 0
    while start < sorted.count {
      var end = start + 1
      while end < sorted.count, sorted[end].number == sorted[start].number { end += 1 }
      outcome.counts.numbers += 1
      // The reports in the window, one per row.
      var counted: [Report] = []
      var lastLine = -1
      for report in sorted[start..<end] where report.line != lastLine {
        lastLine = report.line
        outcome.counts.reports += 1
        if report.day != Int32.min && report.day > window.upperBound {
          outcome.counts.reportsAfterAsOf += 1
        } else if report.day != Int32.min && report.day < window.lowerBound {
          outcome.counts.reportsTooOld += 1
        } else {
          counted.append(report)
        }
      }
      if counted.isEmpty {
        outcome.counts.droppedByDate += 1
      } else if counted.count < rules.minReports {
        outcome.counts.droppedByMinReports += 1
      } else {
        let chosen = choose(counted, policy: rules.labelPolicy)
        outcome.kept.append((chosen.number, chosen.label >= 0 ? labels[Int(chosen.label)] : nil, chosen.line))
      }
      start = end
    }
    outcome.counts.kept = outcome.kept.count
    return outcome
  }

  /// The report whose label the number keeps.
  private func choose(_ counted: [Report], policy: LabelPolicy) -> Report {
    let labelled = counted.filter { $0.label >= 0 }
    guard policy == .mostFrequent, labelled.count > 1 else { return labelled.first ?? counted[0] }
    var tally: [Int32: (count: Int, earliest: Report)] = [:]
    for report in labelled {
      if let seen = tally[report.label] {
        let earlier = (report.day, report.order) < (seen.earliest.day, seen.earliest.order)
        tally[report.label] = (seen.count + 1, earlier ? report : seen.earliest)
      } else {
        tally[report.label] = (1, report)
      }
    }
    let best = tally.values.min { lhs, rhs in
      lhs.count != rhs.count
        ? lhs.count > rhs.count : (lhs.earliest.day, lhs.earliest.order) < (rhs.earliest.day, rhs.earliest.order)
    }
    return best?.earliest ?? labelled[0]
  }
}

/// What a source's evidence rules did, for the build summary.
public struct EvidenceCounts: Sendable, Hashable {
  /// Distinct numbers the source reported.
  public var numbers = 0
  /// Reports (rows giving a number) read.
  public var reports = 0
  /// Reports older than `maxAgeDays` before the reference date.
  public var reportsTooOld = 0
  /// Reports dated after the reference date (`--as-of`).
  public var reportsAfterAsOf = 0
  /// Numbers kept.
  public var kept = 0
  /// Numbers with no report in the date window (`maxAgeDays`, `--as-of`).
  public var droppedByDate = 0
  /// Numbers with fewer reports in the window than `minReports`.
  public var droppedByMinReports = 0

  public init() {}
}
