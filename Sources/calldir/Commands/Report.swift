import CalldirSystem
import CallDirectoryCompiler
import CallDirectoryStore
import CommandLineKit

extension Calldir {
  /// `calldir report`: one HTML page about a store's dataset over time.
  struct Report: RunnableCommand {
    static let configuration = CommandConfiguration(
      name: "report",
      abstract: "Write one self-contained HTML page showing a store's dataset over time.",
      discussion: """
        The page shows the entries of each list per version, additions and removals per version, \
        forced and refused builds, the latest version by country calling code, its sources with \
        their rejects, and the fill of its extensions against the 2,000,000-entry limit.

        It is well-formed XHTML with inline SVG and CSS, no scripts and nothing fetched, and the \
        same store always gives the same bytes. FILE is written atomically; a path that exists and \
        is not a regular file is refused (exit 73).

        With --json, the gathered facts are printed as one JSON object: {"store", "dataset", \
        "generatedAt", "extensionEntryLimit", "versions", "refusals", "latest"}; --output is then \
        optional. A store without a catalog exits 66; a read-only store can be read.
        """,
      exitStatuses: [
        .init(.success, "The page (or the JSON) is written."),
        .init(.usage, "Neither --output nor --json."),
        .init(.dataError, "The catalog is damaged (run repair)."),
        .init(.noInput, "The store has no catalog."),
        .init(.cantCreate, "FILE exists and is not a regular file, or its folder does not exist."),
        .init(.ioError, "Writing failed."),
      ],
      examples: [
        .init("Write the store's page next to its files.", "calldir report --store /srv/calldir --output /srv/calldir/report.html"),
      ],
      seeAlso: [
        .init("Operating a store", "guides/operating-a-store.md"),
        .init("The report command in detail", "reference/report.md"),
      ]
    )

    @Option(.store)
    var storePath: String
    @Option(short: "o", valueName: "file", help: "Where to write the HTML page.")
    var output: String?
    @Flag(.json, help: "Print the gathered facts as one JSON object (with or without --output).")
    var json: Bool

    func validate() throws {
      guard output != nil || json else {
        throw UsageError.invalid("nothing to do: give --output FILE for the page, --json for the facts, or both")
      }
    }

    func run(context: CommandContext) throws {
      let report: StoreReport
      var bytes = 0
      let store = StoreLayout(root: storePath)
      report = try StoreReportGatherer(store: store).gather()
      if let output {
        let page = ReportPageRenderer().render(report)
        try ReportPageWriter.write(page, to: output, reporting: store)
        bytes = page.utf8.count
      }
      if json {
        context.standardOutput.writeJSONLine(report.json)
      } else if let output, context.standardOutput.isTerminal {
        context.standardOutput.writeLine(
          "wrote \(output) (\(bytes) bytes): \(report.versions.count) versions, \(report.refusals.count) refusals")
      }
    }
  }
}
