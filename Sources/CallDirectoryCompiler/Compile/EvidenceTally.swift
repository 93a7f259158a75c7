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
    /// Arrival order, for ties.
    var order: Int
    /// Days since 1970, `Int32.min` for an undated report.
    var day: Int32
    /// Index into `labels`, -1 for none.
    var label: Int32
  }

  /// The reports, sorted by number then arrival (a total order) in
  /// bounded memory: past the build's memory limit they spill.
  private let reports: RecordSpill<Report>
  private var labels: [String] = []
  private var labelIndex: [String: Int32] = [:]

  /// A tally whose reports spill to `files` when asked (``spill()``);
  /// without files they stay in memory.
  init(files: SpillFiles? = nil) {
    reports = RecordSpill(files: files) { ($0.number, $0.order) < ($1.number, $1.order) }
  }

  /// Reports held in memory now.
  var buffered: Int { reports.buffered }
  /// Report runs written to disk.
  var runsWritten: Int { reports.runsWritten }

  /// Sorts the reports held in memory into a run file.
  func spill() throws(CompileError) { try reports.spill() }

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
      number: number, line: line, order: reports.count, day: day?.daysSince1970 ?? Int32.min, label: labelID))
  }

  /// Weighs the reports gathered, calling `keep` with each number the
  /// rules keep, ascending, with its label and the line of the report
  /// that gave it. The tally is spent afterwards.
  func weigh(
    _ rules: EvidenceRules, asOf: CalendarDay, keep: (_ number: Int64, _ label: String?, _ line: Int) throws(CompileError) -> Void
  ) throws(CompileError) -> EvidenceCounts {
    let window = rules.countedDays(asOf: asOf)
    var counts = EvidenceCounts()
    let sorted = try reports.sorted()
    var next = try sorted.next()
    var counted: [Report] = []
    while let first = next {
      counts.numbers += 1
      // The reports in the window, one per row.
      counted.removeAll(keepingCapacity: true)
      var lastLine = -1
      var report: Report? = first
      while let current = report, current.number == first.number {
        if current.line != lastLine {
          lastLine = current.line
          counts.reports += 1
          if current.day != Int32.min && current.day > window.upperBound {
            counts.reportsAfterAsOf += 1
          } else if current.day != Int32.min && current.day < window.lowerBound {
            counts.reportsTooOld += 1
          } else {
            counted.append(current)
          }
        }
        report = try sorted.next()
      }
      next = report
      if counted.isEmpty {
        counts.droppedByDate += 1
      } else if counted.count < rules.minReports {
        counts.droppedByMinReports += 1
      } else {
        let chosen = choose(counted, policy: rules.labelPolicy)
        try keep(chosen.number, chosen.label >= 0 ? labels[Int(chosen.label)] : nil, chosen.line)
        counts.kept += 1
      }
    }
    return counts
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
