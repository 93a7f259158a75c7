import CallDirectoryCompiler
import CallDirectorySources
import CalldirSystem
import PhoneNumbers
import UnicodeText

/// One source line that gave a number.
public struct ProvenanceLine: Sendable, Hashable {
  /// How the line names the number.
  public enum Kind: String, Sendable, Hashable {
    /// The number itself.
    case number
    /// A prefix with `#` wildcards (`33162######`).
    case pattern
    /// An inclusive range (`a-b`).
    case range
  }

  /// The source's path, as the config writes it.
  public var path: String
  public var line: Int
  public var list: SourceList
  public var kind: Kind
  /// The cleaned label (identification sources).
  public var label: String?
  /// The source's priority.
  public var priority: Int
  /// The report's date (a source with a `dateColumn`).
  public var day: CalendarDay? = nil
  /// Why the report did not count under its source's evidence rules (dated
  /// after the build's reference date, or before its `maxAgeDays` window);
  /// nil when it counted.
  public var notCounted: String? = nil
}

/// What a complaint feed's evidence rules made of one number: how many of
/// its reports counted against the source's `minReports`.
public struct EvidenceFinding: Sendable, Hashable {
  /// The source's path, as the config writes it.
  public var path: String
  public var list: SourceList
  /// The source's rows that report the number, and of those the ones
  /// dated within the window.
  public var reports: Int
  public var counted: Int
  public var rules: EvidenceRules
  /// Whether the number has the reports it needs from this source.
  public var isKept: Bool { counted >= rules.minReports }
}

/// Whether a source recorded with a version could be read again as it was.
public enum SourceState: Sendable, Hashable {
  /// Read again; its checksum matches the version's.
  case unchanged
  /// Its file changed since the version was built: its lines are not used.
  case changed
  /// Its file is gone.
  case missing
  /// The version was recorded by a calldir that did not keep the source's
  /// options, so it cannot be read the same way.
  case unknownOptions
  /// Reading failed.
  case unreadable(String)
}

/// Finds every line of a version's sources that gives one of a set of
/// numbers, reading each source once, exactly as `build` read it
/// (``RecordAcceptance``): the same reader, options, region and label
/// cleaning. A source whose file changed since (its CRC-32C differs from
/// the catalog's) is read but its lines are dropped.
struct ProvenanceScanner {
  let normalizer: PhoneNumberNormalizer
  let registry: SourceFormatRegistry
  let labelSanitizer: LabelSanitizer
  /// The build's `maxRangeSize`: larger ranges were rejected.
  let maxRangeSize: Int64

  /// The build's reference date: reports are weighed as of this day.
  var asOf: CalendarDay? = nil

  /// The lines of `sources` that give any of `numbers`, by number, and each
  /// source's state, in the sources' order. A line of a source whose
  /// evidence rules the catalog recorded says whether it counted.
  func scan(
    _ sources: [SourceRecordRow], for numbers: Set<Int64>
  ) -> (lines: [Int64: [ProvenanceLine]], states: [(path: String, state: SourceState)]) {
    let sorted = numbers.sorted()
    var lines: [Int64: [ProvenanceLine]] = [:]
    var states: [(path: String, state: SourceState)] = []
    for source in sources {
      let (found, state) = scan(source, numbers: numbers, sorted: sorted)
      states.append((source.writtenPath, state))
      guard state == .unchanged else { continue }
      for line in found { lines[line.number, default: []].append(line.provenance) }
    }
    return (lines, states)
  }

  private func scan(
    _ source: SourceRecordRow, numbers: Set<Int64>, sorted: [Int64]
  ) -> ([(number: Int64, provenance: ProvenanceLine)], SourceState) {
    guard !source.isAbsent, let list = SourceList(rawValue: source.list) else { return ([], .missing) }
    guard let format = registry[source.format] else { return ([], .unreadable("unknown format '\(source.format)'")) }
    if source.options.isEmpty && format.options.contains(where: \.isRequired) { return ([], .unknownOptions) }
    let spec = SourceSpec(
      index: source.position, path: source.path, format: source.format, list: list, region: source.region,
      priority: source.priority, options: source.options, writtenPath: source.writtenPath)
    let region = source.region == "ZZ" ? nil : normalizer.plan.region(source.region)
    var found: [(number: Int64, provenance: ProvenanceLine)] = []
    func note(_ number: Int64, line: Int, kind: ProvenanceLine.Kind, label: String?, day: CalendarDay? = nil) {
      found.append((number, ProvenanceLine(
        path: source.writtenPath, line: line, list: list, kind: kind, label: label, priority: source.priority,
        day: day, notCounted: day.flatMap { notCounted($0, source.evidence) })))
    }
    let policy = RecordAcceptance.Policy(
      list: list, maxRangeSize: maxRangeSize, normalizer: normalizer, labels: labelSanitizer)
    let summary: SourceSummary
    do {
      let reader = try registry.makeReader(for: spec)
      summary = try reader.read { event in
        switch event {
        case .record(let record):
          var recordRegion = region
          if let code = record.region {
            guard code == "ZZ" || normalizer.plan.region(code) != nil else { return }
            recordRegion = code == "ZZ" ? nil : normalizer.plan.region(code)
          }
          if let end = record.rangeEndBytes {
            guard
              case .range(let bounds) = policy.range(
                record.numberBytes, end, region: recordRegion, wildcardDigits: record.wildcardDigits)
            else { return }
            // A wildcard block (`0621 123XXX`) is a pattern; a range row or
            // a range written in one cell, a range.
            let kind: ProvenanceLine.Kind =
              record.wildcardDigits > 0 ? .pattern : bounds.lower == bounds.upper ? .number : .range
            var index = sorted.partitionPoint { $0 < bounds.lower }
            while index < sorted.count && sorted[index] <= bounds.upper {
              note(sorted[index], line: record.line, kind: kind, label: nil)
              index += 1
            }
            return
          }
          guard case .number(let number) = policy.number(record.numberBytes, region: recordRegion),
            numbers.contains(number)
          else { return }
          var label: String?
          switch policy.label(record.labelBytes) {
          case nil: break
          case .success(let cleaned)?: label = cleaned
          case .failure?: return
          }
          note(number, line: record.line, kind: .number, label: label, day: record.day)
        case .range(let item):
          guard case .range = policy.range(item.range) else { return }
          let kind: ProvenanceLine.Kind =
            item.range.lower == item.range.upper ? .number : (item.text?.contains("#") == true ? .pattern : .range)
          var index = sorted.partitionPoint { $0 < item.range.lower }
          while index < sorted.count && sorted[index] <= item.range.upper {
            note(sorted[index], line: item.line, kind: kind, label: nil)
            index += 1
          }
        case .issue:
          break
        }
      }
    } catch let error as SourceError {
      if case .file(let failure) = error, failure.errno.isMissingInput { return ([], .missing) }
      return ([], .unreadable(error.description))
    } catch {
      return ([], .unreadable("\(error)"))
    }
    guard FileFacts.checksumText(summary.checksum) == source.checksum else { return ([], .changed) }
    return (found, .unchanged)
  }

  /// Why a report dated `day` did not count under `rules` as of ``asOf``,
  /// as `EvidenceTally` weighs it; nil when it counted (or nothing is
  /// known to weigh it by).
  private func notCounted(_ day: CalendarDay, _ rules: EvidenceRules?) -> String? {
    guard let rules, let asOf else { return nil }
    let window = rules.countedDays(asOf: asOf)
    if day.daysSince1970 > window.upperBound { return "dated \(day.iso8601), after the reference date \(asOf.iso8601)" }
    if day.daysSince1970 < window.lowerBound {
      return "dated \(day.iso8601), more than \(rules.maxAgeDays ?? 0) days (maxAgeDays) before the reference date "
        + asOf.iso8601
    }
    return nil
  }
}
