import CallDirectoryStore
import CalldirSystem

/// What `calldir history --json` prints: the store and its versions,
/// oldest first, each with the deltas that lead to it
/// (schemas/output/history.schema.json).
struct StoreHistory: JSONEncodable {
  let store: StoreLayout
  /// Every version the catalog records, oldest first.
  let snapshots: [SnapshotRecord]
  /// The deltas to each version, by version.
  let deltas: [Int: [DeltaRecord]]

  var json: JSONValue {
    ["store": store.root.json, "versions": .array(snapshots.map(version))]
  }

  /// One version of the `versions` array.
  private func version(_ snapshot: SnapshotRecord) -> JSONValue {
    [
      "version": snapshot.version.json,
      "createdAt": snapshot.createdAt.json,
      "asOf": snapshot.asOf.json,
      "snapshot": store.path(snapshot.path).json,
      "bytes": snapshot.bytes.json,
      "digest": snapshot.digest.json,
      "counts": [
        "blocking": snapshot.blocking.json,
        "identification": snapshot.identification.json,
        "labels": snapshot.labels.json,
        "rejected": snapshot.rejected.json,
        "conflicts": snapshot.conflicts.json,
        "allowed": snapshot.allowed.json,
        "duplicates": snapshot.duplicates.json,
      ],
      "forced": snapshot.forced.json,
      "dataset": snapshot.dataset.json,
      "pruned": snapshot.prunedAt.json,
      "changes": snapshot.changes.json,
      "deltas": .array((deltas[snapshot.version] ?? []).map { delta in
        ["from": delta.fromVersion.json, "path": store.path(delta.path).json, "bytes": delta.bytes.json]
      }),
    ]
  }
}
