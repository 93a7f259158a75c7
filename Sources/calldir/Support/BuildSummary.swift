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

  /// What a device one version behind reloads in all: the version it
  /// holds, the entries of every reload, the extensions it reloads and
  /// those it leaves as they are; nil for a store's first version.
  var oneVersionBehind: (from: Int, entries: Int, reloaded: Int, unchanged: Int)? {
    let forecasts = result.extensions.compactMap(\.oneVersionBehind)
    guard let first = forecasts.first, forecasts.count == result.extensions.count else { return nil }
    let unchanged = forecasts.filter { $0.strategy == .unchanged }.count
    return (first.from, forecasts.reduce(0) { $0 &+ $1.entries }, forecasts.count - unchanged, unchanged)
  }

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

  /// The text summary; with `sources`, one line per source.
  func write(to output: any OutputSink, sources: Bool) {
    writeOutcome(to: output)
    writeCounts(to: output)
    writeNotes(to: output)
    if sources && !result.sources.isEmpty { writeSourceTable(to: output) }
    writeFiles(to: output)
    if !result.extensions.isEmpty { writeExtensionTable(to: output) }
    if let manifest = result.manifestPath {
      output.writeLine(
        "manifest: \(manifest)" + (result.signaturePath.map { " (signed: \($0))" } ?? " (unsigned)")
          + (result.manifestExpires.map { ", expires \($0)" } ?? ""))
    }
  }

  /// `published version 3: …`, or what an unchanged or dry run left alone.
  private func writeOutcome(to output: any OutputSink) {
    if result.unchanged {
      output.writeLine("unchanged: same content as version \(result.version) (\(result.snapshotPath)); nothing published")
    } else if result.dryRun {
      output.writeLine("dry run: version \(result.version) would be \(result.snapshotPath) (\(result.bytes) bytes); nothing published")
    } else {
      output.writeLine("published version \(result.version): \(result.snapshotPath) (\(result.bytes) bytes)")
    }
  }

  /// `blocking 10 (+2 -1), identification 4 (+0 -0) (3 labels), rejected …`.
  private func writeCounts(to output: any OutputSink) {
    let counts = result.statistics
    let changes = result.unchanged ? nil : result.changes
    var line = "blocking \(counts.blocking)"
    if let changes { line += " (+\(changes.blockingAdded) -\(changes.blockingRemoved))" }
    line += ", identification \(counts.identification)"
    if let changes { line += " (+\(changes.identificationAdded) -\(changes.identificationRemoved))" }
    output.writeLine(
      line + " (\(counts.labels) labels), rejected \(counts.rejected), conflicts \(counts.conflicts), "
        + "allowed \(counts.allowed), duplicates \(counts.duplicates)")
  }

  /// Spilled runs, evidence and cell lines, the reports written, and the
  /// guards a dry run or `--force` let pass.
  private func writeNotes(to output: any OutputSink) {
    let counts = result.statistics
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
  }

  /// One row per source (`--verbose`).
  private func writeSourceTable(to output: any OutputSink) {
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

  /// The deltas and shards written.
  private func writeFiles(to output: any OutputSink) {
    for delta in result.deltas {
      output.writeLine("delta from version \(delta.fromVersion): \(store.path(delta.path)) (\(delta.bytes) bytes)")
    }
    for shard in result.shards {
      output.writeLine(
        "shard \(shard.shard) [\(Self.numbers(from: shard.lowerBound, to: shard.upperBound))]: \(store.path(shard.path)) "
          + "(\(shard.blocking) blocking, \(shard.identification) identification, \(shard.bytes) bytes)")
    }
  }

  /// The extensions' table and what a device one version behind reloads.
  private func writeExtensionTable(to output: any OutputSink) {
    let behind = oneVersionBehind
    let rows = result.extensions.map { plan in
      [
        String(plan.index), Self.numbers(from: plan.lower, to: plan.upper), String(plan.entries),
        TextTable.oneDecimal(plan.estimatedReloadSeconds) + " s",
      ] + (behind == nil ? [] : [Self.reloadCell(plan.oneVersionBehind)])
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

  /// `unchanged`, `delta, 120 entries`, or `-` without a forecast.
  private static func reloadCell(_ forecast: ReloadForecast?) -> String {
    guard let forecast else { return "-" }
    return forecast.strategy == .unchanged ? "unchanged" : "\(forecast.strategy.rawValue), \(forecast.entries) entries"
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
