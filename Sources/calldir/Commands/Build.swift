import CallDirectoryCompiler
import CommandLineKit

extension Calldir {
  /// `calldir build`: compile a config and publish the snapshot into a store.
  struct Build: RunnableCommand {
    static let configuration = CommandConfiguration(
      name: "build",
      abstract: "Compile the sources a config names and publish a new snapshot version.",
      discussion: """
        Reads every source, normalizes every number, applies allowlists and the label \
        policy, and publishes a full snapshot blob into the store with a catalog entry \
        (version 1, 2, 3, …). Content identical to the latest version publishes nothing. \
        Safe under cron: a lock serializes runs, files are renamed into place before one \
        catalog transaction publishes them, and a snapshot that would drop more than \
        maxRemovalRatio of the previous version is refused unless --force. Prints a summary \
        when standard output is a terminal (or with --verbose); quiet otherwise.
        """,
      arguments: [
        .option("config", valueName: "file", isRequired: true, help: "The build config (JSON, schemas/config.schema.json)."),
        .option("store", valueName: "dir", isRequired: true, help: "The store directory (created when missing)."),
        .flag("json", help: "Print the result as one JSON object."),
        .flag("force", help: "Publish even when the removal guard refuses."),
        .flag("no-wait", help: "Exit 75 at once when another build holds the store."),
        .option(
          "memory-limit", valueName: "size",
          help: "Peak memory for the build (e.g. 512M, 4G; at least 64M; default: half of the machine's). "
            + "Past it, sorted runs of numbers are spilled into the store and merged."),
        .flag("verbose", short: "v", help: "Print the summary even when standard output is not a terminal."),
      ]
    )

    let configPath: String
    let storePath: String
    let json: Bool
    let force: Bool
    let noWait: Bool
    let verbose: Bool
    let memoryLimit: Int

    init(arguments: ParsedArguments) throws {
      configPath = try arguments.requiredString("config")
      storePath = try arguments.requiredString("store")
      json = arguments.flag("json")
      force = arguments.flag("force")
      noWait = arguments.flag("no-wait")
      verbose = arguments.flag("verbose")
      if let text = arguments.string("memory-limit") {
        guard let bytes = MemoryLimit.parse(text), bytes >= MemoryLimit.minimumBytes else {
          throw UsageError.invalid("--memory-limit must be a size of at least 64M, such as 512M or 4G, not '\(text)'")
        }
        memoryLimit = bytes
      } else {
        memoryLimit = MemoryLimit.defaultBytes()
      }
    }

    func run(context: CommandContext) throws {
      let progress = context.makeProgressReporter()
      defer { progress.finish() }
      let publisher = Publisher(
        configPath: configPath, store: StoreLayout(root: storePath),
        options: Publisher.Options(
          force: force, wait: !noWait, memoryLimit: memoryLimit, progress: { progress.update($0) }))
      let result: Publisher.Result
      do {
        result = try publisher.build()
      } catch {
        throw ExitCodes.mapped(error)
      }
      progress.finish()
      for warning in result.warnings { context.standardError.writeLine("warning: \(warning)") }
      let counts = result.statistics
      if json {
        context.standardOutput.writeJSONLine([
          "version": .int(Int64(result.version)),
          "unchanged": .bool(result.unchanged),
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
          "spilledRuns": .int(Int64(counts.spilledRuns)),
          "rejects": result.rejectsPath.map { .string($0) } ?? .null,
          "deltas": .array(result.deltas.map { delta in
            ["from": .int(Int64(delta.fromVersion)), "path": .string(publisher.store.path(delta.path)), "bytes": .int(delta.bytes)]
          }),
          "shards": .array(result.shards.map { shard in
            [
              "shard": .int(Int64(shard.shard)), "path": .string(publisher.store.path(shard.path)),
              "bytes": .int(shard.bytes), "lower": .int(shard.lowerBound), "upper": .int(shard.upperBound),
              "blocking": .int(Int64(shard.blocking)), "identification": .int(Int64(shard.identification)),
              "deltas": .array(result.shardDeltas.filter { $0.shard == shard.shard }.map { delta in
                ["from": .int(Int64(delta.fromVersion)), "path": .string(publisher.store.path(delta.path)), "bytes": .int(delta.bytes)]
              }),
            ]
          }),
        ])
        return
      }
      guard verbose || context.standardOutput.isTerminal else { return }
      let output = context.standardOutput
      if result.unchanged {
        output.writeLine("unchanged: same content as version \(result.version) (\(result.snapshotPath)); nothing published")
      } else {
        output.writeLine("published version \(result.version): \(result.snapshotPath) (\(result.bytes) bytes)")
      }
      output.writeLine(
        "blocking \(counts.blocking), identification \(counts.identification) (\(counts.labels) labels), "
          + "rejected \(counts.rejected), conflicts \(counts.conflicts), allowed \(counts.allowed), "
          + "duplicates \(counts.duplicates)")
      if counts.spilledRuns > 0 {
        output.writeLine("past the memory limit: \(counts.spilledRuns) sorted runs spilled to disk and merged")
      }
      if let rejects = result.rejectsPath, counts.rejected > 0 {
        output.writeLine("rejected lines: \(rejects)")
      }
      for delta in result.deltas {
        output.writeLine("delta from version \(delta.fromVersion): \(publisher.store.path(delta.path)) (\(delta.bytes) bytes)")
      }
      for shard in result.shards {
        output.writeLine(
          "shard \(shard.shard) [\(shard.lowerBound)…\(shard.upperBound)]: \(publisher.store.path(shard.path)) "
            + "(\(shard.blocking) blocking, \(shard.identification) identification, \(shard.bytes) bytes)")
      }
    }
  }
}
