import CalldirSystem
import CallDirectoryCompiler
import CallDirectoryStore
import CommandLineKit

extension Calldir {
  /// `calldir build`: compile a config and publish the snapshot into a store.
  struct Build: RunnableCommand {
    static let configuration = CommandConfiguration(
      name: "build",
      abstract: "Compile the sources a config names and publish a new snapshot version.",
      discussion: """
        Reads every source, normalizes every number, applies allowlists and the label policy, and \
        publishes a full snapshot blob into the store with a catalog entry (version 1, 2, 3, …). \
        Content identical to the latest version publishes nothing.

        Safe under cron: a lock serializes runs, files are renamed into place before one catalog \
        transaction publishes them, and guards refuse a build (exit 65) whose source rejects too \
        many lines, whose source or list drops more than maxRemovalRatio of the previous version, \
        or whose source file is empty or gone where it gave numbers; the refused build's rejects \
        report is kept under STORE/refused/.

        --dry-run computes everything and publishes nothing. Prints a summary when standard output \
        is a terminal (or with --verbose); quiet otherwise.
        """,
      exitStatuses: [
        .init(.success, "Published a version, or nothing changed, or a dry run that would publish."),
        .init(.usage, "Bad arguments: a --memory-limit under 64M, an --as-of that is not a date or whose manifest would expire after 9999-12-31."),
        .init(.dataError, "A guard refused the build, a source or the config is invalid, or the catalog is damaged (run repair); nothing is published."),
        .init(.noInput, "The config, a source or the signing key is missing."),
        .init(.cantCreate, "A file of the store cannot be created."),
        .init(.ioError, "A file of the version (a blob, a delta, a shard, a base) cannot be written or read."),
        .init(.tempFail, "Another build holds the store (with --no-wait), or its catalog is busy."),
      ],
      examples: [
        .init("Compile the sample config into a store.", "calldir build --config data/sample/calldir.json --store out/store"),
        .init("See what a build would do, as JSON, without publishing.", "calldir build --config calldir.json --store /srv/calldir --dry-run --json"),
        .init("Sign the manifest and give up at once when a build runs.", "calldir build --config calldir.json --store /srv/calldir --signing-key calldir.key --no-wait"),
      ],
      seeAlso: [
        .init("The build command in detail", "reference/build.md"),
        .init("Publishing nightly", "guides/nightly-publishing.md"),
        .init("Config reference", "reference/config.md"),
      ]
    )

    @Option(name: "config", valueName: "file", help: "The build config (JSON, schemas/config.schema.json).")
    var configPath: String
    @Option(.store, help: "The store directory (created when missing).")
    var storePath: String
    @Flag(.json, help: "Print the result (or the refusal) as one JSON object.")
    var json: Bool
    @Flag(help: "Publish even when a guard refuses.")
    var force: Bool
    @Flag(help: "Compute everything (sources, rejects, conflicts, guards, shards) and publish nothing.")
    var dryRun: Bool
    @Flag(.noWait, help: "Exit 75 at once when another build holds the store.")
    var noWait: Bool
    @Option(
      valueName: "file",
      help: "Sign the manifest with this Ed25519 key ('calldir keygen'; overrides the config's signingKey).")
    var signingKey: String?
    @Option(
      name: "memory-limit", valueName: "size",
      help: "Peak memory for the build (e.g. 512M, 4G; at least 64M; default: half of the machine's). "
        + "Past it, sorted runs of numbers, ranges and reports are spilled into the store and merged.",
      transform: { try Build.memoryLimit($0) })
    var explicitMemoryLimit: Int?
    @Option(
      name: "as-of", valueName: "YYYY-MM-DD",
      help: "The build's reference date (default: today, UTC): complaint reports are weighed as of this day "
        + "(maxAgeDays) and reports dated after it do not count; recorded with the version, which counts as "
        + "published at its midnight (UTC), so a rebuild with the same inputs and --as-of publishes the same "
        + "bytes, manifest included. A date whose manifest would expire after 9999-12-31 is refused (exit 64).",
      transform: { try Build.day($0) })
    var explicitAsOf: CalendarDay?
    @Flag(.verbose, help: "Print the summary, with every source, even when standard output is not a terminal.")
    var verbose: Bool
    /// Today (UTC) as the command starts: the reference date without --as-of.
    private let today = CalendarDay.today()

    /// The peak memory: --memory-limit, or half of the machine's.
    var memoryLimit: Int { explicitMemoryLimit ?? MemoryLimit.defaultBytes() }
    /// The build's reference date: --as-of, or today.
    var asOf: CalendarDay { explicitAsOf ?? today }
    /// The publication time an explicit `--as-of` fixes (its midnight, UTC).
    var publishedAt: String? { explicitAsOf.map { "\($0.iso8601)T00:00:00Z" } }

    private static func memoryLimit(_ text: String) throws(UsageError) -> Int {
      guard let bytes = MemoryLimit.parse(text), bytes >= MemoryLimit.minimumBytes else {
        throw .invalid("--memory-limit must be a size of at least 64M, such as 512M or 4G, not '\(text)'")
      }
      return bytes
    }

    private static func day(_ text: String) throws(UsageError) -> CalendarDay {
      guard let day = CalendarDay(iso8601: text) else {
        throw .invalid("--as-of must be a date YYYY-MM-DD, such as 2026-12-01, not '\(text)'")
      }
      return day
    }

    func run(context: CommandContext) throws {
      let progress = context.makeProgressReporter()
      defer { progress.finish() }
      let publisher = Publisher(
        configPath: configPath, store: StoreLayout(root: storePath),
        options: Publisher.Options(
          force: force, wait: !noWait, dryRun: dryRun, memoryLimit: memoryLimit, signingKey: signingKey,
          asOf: asOf, publishedAt: publishedAt, progress: { progress.update($0) }))
      let result: Publisher.Result
      do {
        result = try publisher.build()
      } catch {
        progress.finish()
        if case .refused(_, let rejects?, _) = error {
          context.standardError.writeLine("rejected lines of the refused build: \(rejects)")
        }
        throw error
      }
      progress.finish()
      for warning in result.warnings { context.standardError.writeLine("warning: \(warning)") }
      let refusals = result.refusals
      if json {
        var object = BuildSummary(result: result, store: publisher.store, asOf: asOf).json
        if let first = refusals.first, case .object(let members) = object {
          object = .object([("error", BuildError.refusalJSON(first))] + members)
        }
        context.standardOutput.writeJSONLine(object)
      } else if verbose || context.standardOutput.isTerminal {
        BuildSummary(result: result, store: publisher.store, asOf: asOf).write(to: context.standardOutput, sources: true)
      }
      // A dry run that a guard would refuse ends as the build would.
      if let first = refusals.first, dryRun, !force {
        throw CommandFailure(.dataError, "dry run: the build would be refused: " + first.message)
      }
    }
  }
}
