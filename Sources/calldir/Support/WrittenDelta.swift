import CallDirectoryCompiler
import CalldirSystem

/// What `calldir diff --json` prints: the delta's counts and the file it
/// went to (schemas/output/diff.schema.json).
struct WrittenDelta: JSONEncodable {
  /// The counts of the delta written.
  let summary: SnapshotDiffer.Summary
  /// `--output`, as given.
  let output: String

  var json: JSONValue {
    [
      "blocking": ["added": summary.blockingAdded.json, "removed": summary.blockingRemoved.json],
      "identification": [
        "added": summary.identificationAdded.json,
        "removed": summary.identificationRemoved.json,
        "relabeled": summary.relabeled.json,
      ],
      "bytes": summary.bytes.json,
      "output": output.json,
    ]
  }
}
