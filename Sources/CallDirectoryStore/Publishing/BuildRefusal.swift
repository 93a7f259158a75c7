import CallDirectoryCompiler
import CallDirectorySources

/// One reason a guard refuses to publish a build.
public struct BuildRefusal: Sendable, Hashable, CustomStringConvertible {
  /// Which guard refused.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// Too many of a source's data lines were rejected (`maxRejectRatio`).
    case rejectRatio
    /// A source gives too many fewer numbers than before (`maxRemovalRatio`).
    case sourceRemoval
    /// A source that gave numbers gives none.
    case sourceEmpty
    /// A source's file that gave numbers is gone.
    case sourceVanished
    /// A list (blocking or identification) drops too many entries.
    case listRemoval
  }

  public var kind: Kind
  /// What the guard found (what a build forced past it warns with).
  public var finding: String
  /// What the refusal did and how to override it.
  public var consequence: String
  /// The source at fault, as the config writes it; nil for a list guard.
  public var source: String?

  /// The lowercase message: the finding, then what to do.
  public var message: String { finding + "; " + consequence }

  /// What a refusal that `--force` overrides does.
  static let forceAnyway = "nothing published; use --force to publish anyway"

  public var description: String { message }
}

/// One guard's measurement, passed or not: what a dry run shows.
public struct GuardCheck: Sendable, Hashable {
  public var kind: BuildRefusal.Kind
  /// The source (as the config writes it) or the list (`blocking`,
  /// `identification`) measured.
  public var subject: String
  /// The previous version's count (data lines for `rejectRatio`).
  public var previous: Int
  /// This build's count (rejected lines for `rejectRatio`).
  public var current: Int
  /// The ratio the guard allows.
  public var limit: Double
  /// The refusal, when the guard does not pass.
  public var refusal: BuildRefusal?

  public var passed: Bool { refusal == nil }
}

/// The guards that stand between a compiled snapshot and publishing: a
/// truncated download, an emptied or vanished file, a wrong region must
/// never reach the phones without `--force`.
///
/// - Each source: more than `maxRejectRatio` of its data lines rejected,
///   or of the numbers they hold when its rejects hold several each;
///   fewer numbers than the same source (same path and list) gave in the
///   previous version by more than its `maxRemovalRatio` (the config's by
///   default); no numbers at all, or a missing file, where it gave some.
/// - Each list: the blocking list and the identification list each drop
///   more than `maxRemovalRatio` of their own entries in the previous
///   version.
///
/// A source added to or removed from the config is not measured.
struct BuildGuards {
  let config: BuildConfig
  /// The version the guards compare with, and its sources.
  let previous: (record: SnapshotRecord, sources: [SourceRecordRow])?

  /// The checks of every source, in config order.
  func sourceChecks(_ reports: [SourceReport]) -> [GuardCheck] {
    var checks: [GuardCheck] = []
    var matched = PreviousSources(previous?.sources ?? [])
    for report in reports {
      let spec = report.spec
      let path = spec.writtenPath
      let name = spec.shownName
      if !report.isAbsent { checks.append(rejectCheck(report)) }
      guard let previous, let before = matched.take(path: spec.path, list: spec.list) else { continue }
      let limit = spec.maxRemovalRatio ?? config.maxRemovalRatio
      let version = previous.record.version
      // Distinct numbers; versions recorded before they were counted
      // compare accepted lines.
      let (had, has) = before.contribution.map { ($0.numbers, report.contribution.numbers) }
        ?? (before.accepted, report.accepted)
      var check = GuardCheck(kind: .sourceRemoval, subject: path, previous: had, current: has, limit: limit)
      if had > 0 && report.isAbsent {
        check.kind = .sourceVanished
        check.refusal = BuildRefusal(
          kind: .sourceVanished,
          finding: "source \(name): file not found (it gave \(had) numbers in version \(version))",
          consequence: "nothing published; use --force to publish without it",
          source: path)
      } else if had > 0 && has == 0 {
        check.kind = .sourceEmpty
        check.refusal = BuildRefusal(
          kind: .sourceEmpty,
          finding: "source \(name): no numbers, down from \(had) in version \(version) (an empty or truncated file?)",
          consequence: BuildRefusal.forceAnyway,
          source: path)
      } else if had > has && Double(had - has) > limit * Double(had) {
        check.refusal = BuildRefusal(
          kind: .sourceRemoval,
          finding: "source \(name): \(has) numbers, down from \(had) in version \(version) "
            + "(\(Self.percent(had - has, of: had)), above maxRemovalRatio \(limit))",
          consequence: BuildRefusal.forceAnyway,
          source: path)
      }
      checks.append(check)
    }
    return checks
  }

  /// The reject guard of one source, by data lines and, when its rejected
  /// lines hold more numbers than one each (fields of several numbers,
  /// wildcard blocks or ranges its keys do not read: ``CellCheck``), by
  /// numbers too: a source that loses most of its numbers is refused
  /// whatever its count of lines. The check then carries the numbers.
  func rejectCheck(_ report: SourceReport) -> GuardCheck {
    let path = report.spec.writtenPath
    let name = report.spec.shownName
    let dataLines = report.summary.dataLines
    let limit = config.maxRejectRatio
    // The keys the rejects ask for.
    let keys = CellRules.keys.filter { key in report.rejectReasons.keys.contains { CellCheck.keys(in: $0).contains(key) } }
    let hint = keys.isEmpty ? "" : "; set " + Self.list(keys.map { "\"\($0)\"" }) + " to read the cells that hold them"
    var check = GuardCheck(kind: .rejectRatio, subject: path, previous: dataLines, current: report.rejected, limit: limit)
    let heldNumbers = report.acceptedNumbers.addingSaturating(report.rejectedNumbers).addingSaturating(report.typeFiltered)
    if report.rejectedNumbers > report.rejected {
      check.previous = heldNumbers
      check.current = report.rejectedNumbers
    }
    if dataLines > 0 && Double(report.rejected) > limit * Double(dataLines) {
      check.refusal = BuildRefusal(
        kind: .rejectRatio,
        finding: "source \(name): \(report.rejected) of \(dataLines) data lines rejected, above maxRejectRatio "
          + "\(limit) (check the source's region and format\(hint))",
        consequence: "nothing published",
        source: path)
    } else if report.rejectedNumbers > report.rejected, heldNumbers > 0,
      Double(report.rejectedNumbers) > limit * Double(heldNumbers)
    {
      check.refusal = BuildRefusal(
        kind: .rejectRatio,
        finding: "source \(name): \(report.rejectedNumbers) of the \(heldNumbers) numbers its data lines hold rejected "
          + "(\(report.rejected) of \(dataLines) data lines), above maxRejectRatio \(limit): its cells hold several "
          + "numbers, wildcard blocks or ranges\(hint)",
        consequence: "nothing published",
        source: path)
    }
    return check
  }

  /// `a`, `a and b`, `a, b and c`.
  private static func list(_ items: [String]) -> String {
    guard items.count > 1, let last = items.last else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + " and " + last
  }

  /// The checks of the blocking and identification lists against the
  /// previous version's.
  func listChecks(_ changes: ListChanges) -> [GuardCheck] {
    guard let previous else { return [] }
    let record = previous.record
    return [
      ("blocking", record.blocking, changes.blockingRemoved),
      ("identification", record.identification, changes.identificationRemoved),
    ].map { list, had, removed in
      var check = GuardCheck(
        kind: .listRemoval, subject: list, previous: had, current: had - removed, limit: config.maxRemovalRatio)
      if Double(removed) > config.maxRemovalRatio * Double(had) {
        check.refusal = BuildRefusal(
          kind: .listRemoval,
          finding: "\(list) list: the new snapshot drops \(removed) of the \(had) \(list) entries of version "
            + "\(record.version) (\(Self.percent(removed, of: had)), above maxRemovalRatio \(config.maxRemovalRatio))",
          consequence: "nothing published (a truncated source?); use --force to publish anyway")
      }
      return check
    }
  }

  /// `43.7%`, to a tenth.
  static func percent(_ part: Int, of whole: Int) -> String {
    guard whole > 0 else { return "0%" }
    let tenths = (part * 1000 + whole / 2) / whole
    return "\(tenths / 10).\(tenths % 10)%"
  }
}

/// The previous version's sources, each matched at most once: by path and
/// list, in config order when a file feeds the same list twice.
private struct PreviousSources {
  private var remaining: [SourceRecordRow]

  init(_ sources: [SourceRecordRow]) { remaining = sources }

  mutating func take(path: String, list: SourceList) -> SourceRecordRow? {
    guard let index = remaining.firstIndex(where: { $0.path == path && $0.list == list.rawValue }) else { return nil }
    return remaining.remove(at: index)
  }
}
