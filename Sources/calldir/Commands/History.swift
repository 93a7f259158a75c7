import CallDirectoryCompiler
import CommandLineKit
import Foundation

extension Calldir {
  /// `calldir history`: the published versions of a store.
  struct History: RunnableCommand {
    static let configuration = CommandConfiguration(
      name: "history",
      abstract: "List the published snapshot versions of a store with dates and counts.",
      arguments: [
        .option("store", valueName: "dir", isRequired: true, help: "The store directory."),
        .flag("json", help: "Print one JSON object per version."),
      ]
    )

    let storePath: String
    let json: Bool

    init(arguments: ParsedArguments) throws {
      storePath = try arguments.requiredString("store")
      json = arguments.flag("json")
    }

    func run(context: CommandContext) throws {
      let store = StoreLayout(root: storePath)
      guard FileManager.default.fileExists(atPath: store.catalog) else {
        throw MappedError(exitCode: .noInput, message: "no catalog in \(storePath) (run 'calldir build' first)")
      }
      let snapshots: [SnapshotRecord]
      var deltas: [Int: [DeltaRecord]] = [:]
      do {
        let catalog = try Catalog(path: store.catalog, readOnly: true)
        snapshots = try catalog.allSnapshots()
        for snapshot in snapshots { deltas[snapshot.version] = try catalog.deltas(toVersion: snapshot.version) }
      } catch {
        throw ExitCodes.mapped(error)
      }
      let output = context.standardOutput
      if !json {
        output.writeLine("version  created               blocking  identification  labels  rejected  bytes  snapshot")
      }
      for snapshot in snapshots {
        if json {
          output.writeJSONLine([
            "version": .int(Int64(snapshot.version)),
            "createdAt": .string(snapshot.createdAt),
            "snapshot": .string(store.path(snapshot.path)),
            "bytes": .int(snapshot.bytes),
            "digest": .string(snapshot.digest),
            "counts": [
              "blocking": .int(Int64(snapshot.blocking)),
              "identification": .int(Int64(snapshot.identification)),
              "labels": .int(Int64(snapshot.labels)),
              "rejected": .int(Int64(snapshot.rejected)),
              "conflicts": .int(Int64(snapshot.conflicts)),
              "allowed": .int(Int64(snapshot.allowed)),
              "duplicates": .int(Int64(snapshot.duplicates)),
            ],
            "forced": .bool(snapshot.forced),
            "deltas": .array((deltas[snapshot.version] ?? []).map { delta in
              ["from": .int(Int64(delta.fromVersion)), "path": .string(store.path(delta.path)), "bytes": .int(delta.bytes)]
            }),
          ])
        } else {
          let columns: [(String, Int)] = [
            (String(snapshot.version), 7), (snapshot.createdAt, 20), (String(snapshot.blocking), 8),
            (String(snapshot.identification), 14), (String(snapshot.labels), 6), (String(snapshot.rejected), 8),
            (String(snapshot.bytes), 5),
          ]
          output.writeLine(columns.map { $0.0.padding(toLength: max($0.1, $0.0.count), withPad: " ", startingAt: 0) }
            .joined(separator: "  ") + "  " + store.path(snapshot.path))
        }
      }
    }
  }
}
