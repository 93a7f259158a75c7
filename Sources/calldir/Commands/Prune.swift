import CallDirectoryCompiler
import CallDirectoryStore
import CalldirSystem
import CommandLineKit

extension Calldir {
  /// `calldir prune`: remove the files of old versions.
  struct Prune: RunnableCommand {
    static let configuration = CommandConfiguration(
      name: "prune",
      abstract: "Remove the snapshots, deltas and reports of versions older than the last N.",
      discussion: """
        Never the latest version, and never a file the current manifest names. The catalog records \
        the versions as pruned first (history shows them, through any repair too), then the files \
        go; a prune that is interrupted is finished by the next one (or by repair, then prune). \
        Takes the store's lock.
        """,
      exitStatuses: [
        .init(.success, "The older versions are pruned (or there was nothing to prune)."),
        .init(.usage, "A --keep under 1."),
        .init(.dataError, "The catalog is damaged (run repair)."),
        .init(.noInput, "The store has no catalog."),
        .init(.ioError, "A file could not be removed."),
        .init(.tempFail, "Another command holds the store (with --no-wait), or its catalog is busy."),
      ],
      examples: [
        .init("Keep the last 30 versions.", "calldir prune --store /srv/calldir --keep 30"),
      ],
      seeAlso: [
        .init("Operating a store", "guides/operating-a-store.md"),
      ]
    )

    @Option(.store)
    var storePath: String
    @Option(
      valueName: "n", help: "How many of the newest versions keep their files (at least 1).",
      transform: { (text: String) throws(UsageError) in
        guard let value = Int(text), value >= 1 else {
          throw .invalid("--keep must be a number of versions, at least 1, not '\(text)'")
        }
        return value
      })
    var keep: Int
    @Flag(.json, help: "Print what was removed as one JSON object.")
    var json: Bool
    @Flag(.noWait)
    var noWait: Bool

    func run(context: CommandContext) throws {
      let report: StorePruner.Report
      report = try StorePruner(store: StoreLayout(root: storePath)).prune(keep: keep, wait: !noWait)
      if json {
        context.standardOutput.writeJSONLine(report)
      } else if context.standardOutput.isTerminal || !report.removedFiles.isEmpty {
        context.standardOutput.writeLine(
          "removed \(report.removedFiles.count) files (\(report.bytes) bytes) of \(report.prunedVersions.count) versions"
            + (report.keptForManifest.isEmpty ? "" : "; kept \(report.keptForManifest.count) the manifest names"))
      }
    }
  }
}
