import CallDirectorySources
import CalldirSystem
import CallDirectoryCompiler
import CallDirectoryStore
import CallDirectorySync
import CommandLineKit

/// What `calldir build` prints: the summary on a terminal (or with
/// `--verbose`) and the `--json` object.
struct BuildSummary {
  let result: Publisher.Result
  let store: StoreLayout
  /// The build's reference date (`--as-of`).
  let asOf: CalendarDay

  /// The `--json` object.
  var json: JSONValue {
    let counts = result.statistics
    return [
      "version": .int(Int64(result.version)),
      "asOf": .string(asOf.iso8601),
      "unchanged": .bool(result.unchanged),
      "dryRun": .bool(result.dryRun),
      "snapshot": .string(result.snapshotPath),
      "counts": [
        "blocking": .int(Int64(counts.blocking)),
        "identification": .int(Int64(counts.identification)),
        "labels": .int(Int64(counts.labels)),
        "rejected": .int(Int64(counts.rejected)),
        "conflicts": .int(Int64(counts.conflicts)),
        "allowed": .int(Int64(counts.allowed)),
        "duplicates": .int(Int64(counts.duplicates)),
      ],
      "bytes": .int(result.bytes),
      "removed": .int(Int64(result.removed)),
      "changes": result.changes?.json ?? .null,
      "spilledRuns": .int(Int64(counts.spilledRuns)),
      "rejects": result.rejectsPath.map { .string($0) } ?? .null,
      "conflicts": result.conflictsPath.map { .string($0) } ?? .null,
      "sources": .array(result.sources.map(Self.json)),
      "guards": .array(result.guards.map(Self.json)),
      "deltas": .array(result.deltas.map { delta in
        ["from": .int(Int64(delta.fromVersion)), "path": .string(store.path(delta.path)), "bytes": .int(delta.bytes)]
      }),
      "extensions": .array(result.extensions.map { plan in
        [
          "index": .int(Int64(plan.index)), "lower": .int(plan.lower), "upper": .int(plan.upper),
          "blocking": .int(Int64(plan.blocking)), "identification": .int(Int64(plan.identification)),
          "entries": .int(Int64(plan.entries)), "reloadSeconds": .double((plan.estimatedReloadSeconds * 10).rounded() / 10),
          "oneVersionBehind": plan.oneVersionBehind.map { forecast in
            [
              "from": .int(Int64(forecast.from)), "strategy": .string(forecast.strategy.rawValue),
              "reloadEntries": .int(Int64(forecast.entries)), "reloadSeconds": Self.seconds(forecast.entries),
            ]
          } ?? .null,
        ]
      }),
      "oneVersionBehind": oneVersionBehind.map { total in
        [
          "from": .int(Int64(total.from)), "reloadEntries": .int(Int64(total.entries)),
          "reloadSeconds": Self.seconds(total.entries), "reloadedExtensions": .int(Int64(total.reloaded)),
          "unchangedExtensions": .int(Int64(total.unchanged)),
        ]
      } ?? .null,
      "manifest": result.manifestPath.map { .string($0) } ?? .null,
      "signature": result.signaturePath.map { .string($0) } ?? .null,
      "manifestExpires": result.manifestExpires.map { .string($0) } ?? .null,
      "shards": .array(result.shards.map { shard in
        [
          "shard": .int(Int64(shard.shard)), "path": .string(store.path(shard.path)),
          "bytes": .int(shard.bytes), "lower": .int(shard.lowerBound), "upper": .int(shard.upperBound),
          "blocking": .int(Int64(shard.blocking)), "identification": .int(Int64(shard.identification)),
          "deltas": .array(result.shardDeltas.filter { $0.shard == shard.shard }.map { delta in
            ["from": .int(Int64(delta.fromVersion)), "path": .string(store.path(delta.path)), "bytes": .int(delta.bytes)]
          }),
        ]
      }),
    ]
  }

  /// What a device one version behind reloads in all: the version it
  /// holds, the entries of every reload, the extensions it reloads and
  /// those it leaves as they are; nil for a store's first version.
  var oneVersionBehind: (from: Int, entries: Int, reloaded: Int, unchanged: Int)? {
    let forecasts = result.extensions.compactMap(\.oneVersionBehind)
    guard let first = forecasts.first, forecasts.count == result.extensions.count else { return nil }
    let unchanged = forecasts.filter { $0.strategy == .unchanged }.count
    return (first.from, forecasts.reduce(0) { $0 &+ $1.entries }, forecasts.count - unchanged, unchanged)
  }

  /// Estimated seconds on a phone for `entries`, to the millisecond.
  /// An extension's or shard's numbers as text: its bounds, with the
  /// ends of the number space left open (`…4912345678`, `4912345679…`,
  /// `all` for a single extension) rather than printed as 1 and 2^63−2.
  static func numbers(from lower: Int64, to upper: Int64) -> String {
    switch (lower <= 1, upper >= Int64.max - 1) {
    case (true, true): "all"
    case (true, false): "…\(upper)"
    case (false, true): "\(lower)…"
    case (false, false): "\(lower)…\(upper)"
    }
  }

  private static func seconds(_ entries: Int) -> JSONValue {
    .double((ReloadCost.seconds(entries: entries) * 1000).rounded() / 1000)
  }

  private static func json(_ source: SourceReport) -> JSONValue {
    let counts: JSONValue = [
      "path": .string(source.spec.writtenPath),
      "list": .string(source.spec.list.rawValue),
      "format": .string(source.spec.format),
      "dataLines": .int(Int64(source.summary.dataLines)),
      "accepted": .int(Int64(source.accepted)),
      "rejected": .int(Int64(source.rejected)),
      "duplicates": .int(Int64(source.contribution.duplicates)),
      "numbers": .int(Int64(source.contribution.numbers)),
      "unique": .int(Int64(source.contribution.unique)),
      "missing": .bool(source.isAbsent),
      "rejectReasons": .object(source.rejectReasons.sorted { $0.key < $1.key }.map { ($0.key, .int(Int64($0.value))) }),
    ]
    guard case .object(var members) = counts else { return counts }
    // Rows a `where` filter left out, and numbers not of the source's
    // `types`: shown only for sources that filter.
    var at = (members.firstIndex { $0.key == "rejected" } ?? members.count - 1) + 1
    if source.spec.options[value: "where"] != nil {
      members.insert(("filtered", .int(Int64(source.summary.filtered))), at: at)
      at += 1
    }
    if source.spec.numberRules.types != nil {
      members.insert(("typeFiltered", .int(Int64(source.typeFiltered))), at: at)
    }
    if let cells = cellsJSON(source) { members.append(("cells", cells)) }
    if let evidence = source.evidence {
      members.append(("evidence", [
        "reports": .int(Int64(evidence.reports)),
        "reportsTooOld": .int(Int64(evidence.reportsTooOld)),
        "reportsAfterAsOf": .int(Int64(evidence.reportsAfterAsOf)),
        "numbersReported": .int(Int64(evidence.numbers)),
        "kept": .int(Int64(evidence.kept)),
        "droppedByMaxAge": .int(Int64(evidence.droppedByDate)),
        "droppedByMinReports": .int(Int64(evidence.droppedByMinReports)),
      ]))
    }
    return .object(members)
  }

  /// A source's cell keys and what they read, for a source that sets any.
  private static func cellsJSON(_ source: SourceReport) -> JSONValue? {
    let options = source.spec.options
    guard CellRules.keys.contains(where: { options[$0] != nil }) else { return nil }
    let counts = source.summary.cells
    return [
      "numberSeparator": options["numberSeparator"].map { .string($0) } ?? .null,
      "wildcard": options["wildcard"].map { .string($0) } ?? .null,
      "rangeSeparator": options["rangeSeparator"].map { .string($0) } ?? .null,
      "splitCells": .int(Int64(counts.splitCells)),
      "wildcardBlocks": .int(Int64(counts.wildcardBlocks)),
      "ranges": .int(Int64(counts.ranges)),
    ]
  }

  /// `bnetza.csv (numberSeparator "|", wildcard "X"): 170 cells held several numbers, 40 wildcard blocks, 0 ranges`.
  static func cellsLine(_ source: SourceReport) -> String? {
    let options = source.spec.options
    let keys = CellRules.keys.compactMap { key in options[key].map { "\(key) \"\(ShownText.escaped($0))\"" } }
    guard !keys.isEmpty else { return nil }
    let counts = source.summary.cells
    return "\(ShownText.escaped(source.spec.writtenPath)) (\(keys.joined(separator: ", "))): "
      + "\(counts.splitCells) \(counts.splitCells == 1 ? "cell" : "cells") held several numbers, "
      + "\(counts.wildcardBlocks) wildcard \(counts.wildcardBlocks == 1 ? "block" : "blocks"), "
      + "\(counts.ranges) \(counts.ranges == 1 ? "range" : "ranges")"
  }

  /// `dnc.csv: 1200 reports of 800 numbers as of 2026-12-01; kept 90, dropped 610 by maxAgeDays 180, 100 by minReports 3`.
  static func evidenceLine(_ source: SourceReport, asOf: CalendarDay) -> String? {
    guard let evidence = source.evidence else { return nil }
    let rules = source.spec.evidence
    var dropped: [String] = []
    if evidence.droppedByDate > 0 || rules.maxAgeDays != nil {
      dropped.append("\(evidence.droppedByDate) by " + (rules.maxAgeDays.map { "maxAgeDays \($0)" } ?? "date (after --as-of)"))
    }
    if evidence.droppedByMinReports > 0 || rules.minReports > 1 {
      dropped.append("\(evidence.droppedByMinReports) by minReports \(rules.minReports)")
    }
    var line = "\(source.spec.writtenPath): \(evidence.reports) reports of \(evidence.numbers) numbers as of \(asOf.iso8601)"
    line += "; kept \(evidence.kept)"
    if !dropped.isEmpty { line += ", dropped " + dropped.joined(separator: ", ") }
    if evidence.reportsTooOld + evidence.reportsAfterAsOf > 0 {
      line += " (reports not counted: \(evidence.reportsTooOld) too old, \(evidence.reportsAfterAsOf) after the reference date)"
    }
    return line
  }

  private static func json(_ check: GuardCheck) -> JSONValue {
    [
      "kind": .string(check.kind.rawValue),
      "subject": .string(check.subject),
      "previous": .int(Int64(check.previous)),
      "current": .int(Int64(check.current)),
      "limit": .double(check.limit),
      "passed": .bool(check.passed),
    ]
  }

  /// The text summary; with `sources`, one line per source.
  func write(to output: any OutputSink, sources: Bool) {
    let counts = result.statistics
    if result.unchanged {
      output.writeLine("unchanged: same content as version \(result.version) (\(result.snapshotPath)); nothing published")
    } else if result.dryRun {
      output.writeLine("dry run: version \(result.version) would be \(result.snapshotPath) (\(result.bytes) bytes); nothing published")
    } else {
      output.writeLine("published version \(result.version): \(result.snapshotPath) (\(result.bytes) bytes)")
    }
    var line = "blocking \(counts.blocking)"
    if let changes = result.changes, !result.unchanged {
      line += " (+\(changes.blockingAdded) -\(changes.blockingRemoved))"
    }
    line += ", identification \(counts.identification)"
    if let changes = result.changes, !result.unchanged {
      line += " (+\(changes.identificationAdded) -\(changes.identificationRemoved))"
    }
    output.writeLine(
      line + " (\(counts.labels) labels), rejected \(counts.rejected), conflicts \(counts.conflicts), "
        + "allowed \(counts.allowed), duplicates \(counts.duplicates)")
    if counts.spilledRuns > 0 {
      output.writeLine("past the memory limit: \(counts.spilledRuns) sorted runs spilled to disk and merged")
    }
    for source in result.sources {
      if let line = Self.evidenceLine(source, asOf: asOf) { output.writeLine("evidence: " + line) }
    }
    for source in result.sources {
      if let line = Self.cellsLine(source) { output.writeLine("cells: " + line) }
    }
    if let rejects = result.rejectsPath, counts.rejected > 0 { output.writeLine("rejected lines: \(rejects)") }
    if let conflicts = result.conflictsPath, counts.conflicts > 0 { output.writeLine("label conflicts: \(conflicts)") }
    for refusal in result.refusals {
      output.writeLine((result.dryRun ? "would be refused: " : "guard overridden by --force: ") + refusal.finding)
    }
    if sources && !result.sources.isEmpty {
      // Rows a `where` filter left out: a column only when a source filters.
      let filters = result.sources.contains { $0.spec.options[value: "where"] != nil }
      // Numbers not of a source's `types`: a column only when a source has `types`.
      let types = result.sources.contains { $0.spec.numberRules.types != nil }
      let header = ["source", "list", "data lines", "accepted", "rejected"] + (filters ? ["filtered"] : [])
        + (types ? ["other types"] : []) + ["duplicates", "numbers", "unique"]
      let rows = result.sources.map { source in
        [
          source.spec.writtenPath + (source.isAbsent ? " (missing)" : ""), source.spec.list.rawValue,
          String(source.summary.dataLines), String(source.accepted), String(source.rejected),
        ]
          + (filters ? [source.spec.options[value: "where"] != nil ? String(source.summary.filtered) : "-"] : [])
          + (types ? [source.spec.numberRules.types != nil ? String(source.typeFiltered) : "-"] : [])
          + [
            String(source.contribution.duplicates), String(source.contribution.numbers),
            String(source.contribution.unique),
          ]
      }
      for row in TextTable.format([header] + rows) { output.writeLine(row) }
    }
    for delta in result.deltas {
      output.writeLine("delta from version \(delta.fromVersion): \(store.path(delta.path)) (\(delta.bytes) bytes)")
    }
    for shard in result.shards {
      output.writeLine(
        "shard \(shard.shard) [\(Self.numbers(from: shard.lowerBound, to: shard.upperBound))]: \(store.path(shard.path)) "
          + "(\(shard.blocking) blocking, \(shard.identification) identification, \(shard.bytes) bytes)")
    }
    if !result.extensions.isEmpty {
      let behind = oneVersionBehind
      let rows = result.extensions.map { plan in
        [
          String(plan.index), Self.numbers(from: plan.lower, to: plan.upper), String(plan.entries),
          TextTable.oneDecimal(plan.estimatedReloadSeconds) + " s",
        ]
          + (behind == nil
            ? []
            : [
              plan.oneVersionBehind.map { forecast in
                forecast.strategy == .unchanged
                  ? "unchanged" : "\(forecast.strategy.rawValue), \(forecast.entries) entries"
              } ?? "-"
            ])
      }
      let header = ["extension", "numbers", "entries", "reload"] + (behind.map { ["from version \($0.from)"] } ?? [])
      output.writeLine("extensions (each below CallKit's 2,000,000 entries; reload at about 9 µs per entry):")
      for row in TextTable.format([header] + rows) { output.writeLine("  " + row) }
      if let behind {
        output.writeLine(
          "a device at version \(behind.from) reloads \(behind.reloaded) of \(result.extensions.count) "
            + "\(result.extensions.count == 1 ? "extension" : "extensions"): \(behind.entries) entries, about "
            + TextTable.oneDecimal(ReloadCost.seconds(entries: behind.entries)) + " s")
      }
    }
    if let manifest = result.manifestPath {
      output.writeLine(
        "manifest: \(manifest)" + (result.signaturePath.map { " (signed: \($0))" } ?? " (unsigned)")
          + (result.manifestExpires.map { ", expires \($0)" } ?? ""))
    }
  }
}

/// Left-aligned text columns, two spaces apart.
enum TextTable {
  /// `15.3`: a non-negative value rounded to one decimal.
  static func oneDecimal(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
  }

  /// The rows laid out; each cell escaped (``ShownText``) first, so that
  /// the columns line up as shown.
  static func format(_ rows: [[String]]) -> [String] {
    let rows = rows.map { $0.map(ShownText.escaped) }
    var widths: [Int] = []
    for row in rows {
      for (index, cell) in row.enumerated() {
        if index >= widths.count { widths.append(0) }
        widths[index] = max(widths[index], cell.count)
      }
    }
    return rows.map { row in
      var line = ""
      for (index, cell) in row.enumerated() {
        line += index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count + 2)
      }
      return line
    }
  }
}
