import CalldirSystem
import CallDirectoryCompiler
import CallDirectoryStore
import CommandLineKit
import Foundation

extension Calldir {
  /// `calldir history`: the published versions of a store.
  struct History: RunnableCommand {
    static let configuration = CommandConfiguration(
      name: "history",
      abstract: "List the published snapshot versions of a store with dates and counts.",
      discussion: """
        Prints a table, oldest version first. With --json, prints one object: {"store": DIR, \
        "versions": [...]}, each version with its version, createdAt, snapshot, bytes, digest, \
        counts, forced and deltas ("versions" is empty when nothing was published). A store \
        without a catalog exits 66; a read-only store can be read.
        """,
      exitStatuses: [
        .init(.success, "The versions are listed."),
        .init(.dataError, "The catalog is damaged (run repair)."),
        .init(.noInput, "The store has no catalog."),
        .init(.tempFail, "The catalog is held by another process."),
      ],
      examples: [
        .init("List a store's versions.", "calldir history --store out/store"),
      ],
      seeAlso: [
        .init("Operating a store", "guides/operating-a-store.md"),
      ]
    )

    @Option(.store)
    var storePath: String
    @Flag(.json, help: "Print one JSON object: the store and its versions, oldest first.")
    var json: Bool

    func run(context: CommandContext) throws {
      let store = StoreLayout(root: storePath)
      let snapshots: [SnapshotRecord]
      var deltas: [Int: [DeltaRecord]] = [:]
      let catalog = try Catalog.openForReading(store)
      snapshots = try catalog.allSnapshots()
      for snapshot in snapshots { deltas[snapshot.version] = try catalog.deltas(toVersion: snapshot.version) }
      let output = context.standardOutput
      if json {
        output.writeJSONLine(StoreHistory(store: store, snapshots: snapshots, deltas: deltas))
        return
      }
      output.writeLine("version  created               blocking  identification  labels  rejected  bytes  deltas from  snapshot")
      for snapshot in snapshots {
        // The versions a delta to this one starts from, newest first.
        let bases = (deltas[snapshot.version] ?? []).map(\.fromVersion).sorted(by: >)
        let columns: [(String, Int)] = [
          (String(snapshot.version), 7), (snapshot.createdAt, 20), (String(snapshot.blocking), 8),
          (String(snapshot.identification), 14), (String(snapshot.labels), 6), (String(snapshot.rejected), 8),
          (String(snapshot.bytes), 5), (bases.isEmpty ? "-" : bases.map(String.init).joined(separator: ","), 11),
        ]
        output.writeLine(columns.map { $0.0.padding(toLength: max($0.1, $0.0.count), withPad: " ", startingAt: 0) }
          .joined(separator: "  ") + "  " + store.path(snapshot.path)
          + (snapshot.prunedAt.map { " (pruned \($0))" } ?? "") + (snapshot.forced ? " (forced)" : ""))
      }
    }
  }
}
