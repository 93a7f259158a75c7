import CallDirectoryCompiler
import CallDirectoryStore
import CalldirSystem
import CommandLineKit

extension Calldir {
  /// `calldir repair`: rebuild a store's catalog from its published files.
  struct Repair: RunnableCommand {
    static let configuration = CommandConfiguration(
      name: "repair",
      abstract: "Rebuild a store's catalog from its published snapshots, deltas and shards.",
      discussion: """
        For a store whose catalog was lost, emptied, damaged or restored from an older backup: \
        every published blob is read whole and checked; a version whose file matches the old \
        catalog keeps its row and sources, a pruned version keeps its row (marked pruned), one \
        found only as a file is recorded from its blob (sources unknown), and a version whose \
        snapshot is damaged or missing is retired so that its number is never used again.

        A catalog that cannot be read (an I/O error, exit 74) or is held by another process (exit \
        75) stops the repair with nothing changed; a damaged one (not a database, malformed) is \
        rebuilt from the files.

        The old catalog is copied to catalog.sqlite.before-repair-N before one rename puts the new \
        one in its place; no published file is removed or rewritten. The next build continues \
        after the highest version the store has ever used.
        """,
      exitStatuses: [
        .init(.success, "The catalog is rebuilt."),
        .init(.noInput, "DIR is not a store."),
        .init(.cantCreate, "The new catalog cannot be created."),
        .init(.ioError, "The old catalog cannot be read, or writing failed (the old catalog stays in place)."),
        .init(.tempFail, "Another process holds the store or its catalog."),
      ],
      examples: [
        .init("Rebuild a store's catalog after a restore from backup.", "calldir repair --store /srv/calldir"),
      ],
      seeAlso: [
        .init("Operating a store", "guides/operating-a-store.md"),
        .init("The store in detail", "reference/store.md"),
      ]
    )

    @Option(.store)
    var storePath: String
    @Flag(.json, help: "Print what was found and recorded as one JSON object.")
    var json: Bool
    @Flag(.noWait)
    var noWait: Bool

    func run(context: CommandContext) throws {
      let report: StoreRepair.Report
      report = try StoreRepair(store: StoreLayout(root: storePath)).run(wait: !noWait)
      for warning in report.warnings { context.standardError.writeLine("warning: \(warning)") }
      let output = context.standardOutput
      if json {
        output.writeJSONLine(report)
        return
      }
      for name in report.placed { output.writeLine("put in place: \(name) (its build stopped after recording it)") }
      let range = report.versions.isEmpty
        ? "no versions" : "versions \(report.versions.first ?? 0)–\(report.versions.last ?? 0) (\(report.versions.count))"
      output.writeLine(
        "catalog rebuilt: \(range): \(report.keptFromCatalog.count) kept from the old catalog"
          + (report.pruned.isEmpty ? "" : " (\(report.pruned.count) of them pruned)") + ", "
          + "\(report.rebuiltFromBlobs.count) rebuilt from their blobs; \(report.deltas) deltas, \(report.shards) shards")
      for retired in report.retired { output.writeLine("retired version \(retired.version): \(retired.reason)") }
      if let previous = report.previousCatalog { output.writeLine("the old catalog is kept as \(previous)") }
      output.writeLine("the next build publishes version \(report.nextVersion)")
    }
  }
}
