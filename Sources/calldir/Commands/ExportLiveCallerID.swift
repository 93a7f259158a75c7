import CallDirectoryCompiler
import CallDirectoryStore
import CalldirSystem
import CommandLineKit
import LiveCallerID

extension Calldir.Export {
  /// `calldir export live-caller-id`: a version as `PIRProcessDatabase` inputs.
  struct LiveCallerID: RunnableCommand {
    static let configuration = CommandConfiguration(
      name: "live-caller-id",
      abstract: "Write a version as the inputs of Apple's PIRProcessDatabase (Live Caller ID Lookup).",
      discussion: """
        Two use cases, <useCase>.block and <useCase>.identity, each in power-of-two shards fixed \
        for the dataset's life: per shard a KeywordDatabase input (inputs/) and its \
        PIRProcessDatabase config (configs/), written only when its rows changed since the store's \
        last export (every shard the first time, or with --all); service-config.json (the usecases \
        section of Apple's example PIRService), commands.txt and export.json \
        (schemas/export.schema.json; --json prints it).

        Run the listed commands from the output directory, in any order and on any machines. \
        Everything comes from the store: the version's liveCallerID settings, categories and icons \
        its build recorded. Takes the store's lock.
        """,
      exitStatuses: [
        .init(.success, "The export is written."),
        .init(.usage, "Bad arguments."),
        .init(.dataError, "A version built without liveCallerID, a pruned version, or one past maxEntries."),
        .init(.noInput, "The version is not published, or the store has no catalog."),
        .init(.cantCreate, "The output lies inside the store, or cannot be made."),
        .init(.ioError, "Reading or writing failed."),
        .init(.tempFail, "Another command holds the store."),
      ],
      examples: [
        .init("Export the latest version for PIRProcessDatabase.", "calldir export live-caller-id --store out/store --output out/pir"),
      ],
      seeAlso: [
        .init("Live Caller ID Lookup", "guides/live-caller-id.md"),
      ]
    )

    @Option(.store)
    var storePath: String
    @Option(short: "o", valueName: "dir", help: "Where to write the export.")
    var output: String
    @Option(
      valueName: "v", help: "The version to export (default: the latest).",
      transform: { (text: String) throws(UsageError) in
        guard let value = Int(text), value > 0 else {
          throw .invalidValue(text, argument: "--version <v>", expected: "a version number (1, 2, …)")
        }
        return value
      })
    var version: Int?
    @Flag(help: "Write every shard, not only those whose rows changed since the last export.")
    var all: Bool
    @Flag(.json, help: "Print export.json on standard output.")
    var json: Bool
    @Flag(.noWait, help: "Exit 75 at once when another command holds the store.")
    var noWait: Bool

    func run(context: CommandContext) throws {
      let progress = context.makeProgressReporter()
      let exporter = LiveCallerIDExporter(
        store: StoreLayout(root: storePath), output: output,
        options: LiveCallerIDExporter.Options(version: version, all: all, wait: !noWait, progress: { progress.update($0) }),
        nationalFormatter: LibphonenumberNationalDigits())
      let export: LiveCallerIDExport
      export = try exporter.export()
      progress.finish()
      if json {
        context.standardOutput.writeJSONLine(export.document)
        return
      }
      guard context.standardOutput.isTerminal else { return }
      context.standardOutput.writeLine("exported version \(export.version) to \(output)")
      for useCase in export.useCases {
        let keywords = useCase.keywords.map { "\($0.count) \($0.form.rawValue)" }.joined(separator: ", ")
        context.standardOutput.writeLine(
          "  \(useCase.name): \(useCase.rows) rows (\(keywords), \(useCase.paddingRows) padding) in "
            + "\(useCase.shardCount) shard\(useCase.shardCount == 1 ? "" : "s"); wrote \(useCase.written.count): "
            + useCase.reason)
      }
      context.standardOutput.writeLine("process them: cd \(output) && xargs -P 4 -L 1 < \(ExportLayout.commands)")
    }
  }
}
