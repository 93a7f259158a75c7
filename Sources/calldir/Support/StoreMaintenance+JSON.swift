import CallDirectoryStore
import CalldirSystem

extension StorePruner.Report: JSONEncodable {
  /// What `calldir prune --json` prints (schemas/output/prune.schema.json).
  public var json: JSONValue {
    [
      "pruned": prunedVersions.json,
      "removed": removedFiles.json,
      "keptForManifest": keptForManifest.json,
      "bytes": bytes.json,
    ]
  }
}

extension StoreRepair.Report: JSONEncodable {
  /// What `calldir repair --json` prints (schemas/output/repair.schema.json).
  public var json: JSONValue {
    [
      "versions": versions.json,
      "keptFromCatalog": keptFromCatalog.json,
      "rebuiltFromBlobs": rebuiltFromBlobs.json,
      "retired": .array(retired.map { ["version": $0.version.json, "reason": $0.reason.json] }),
      "deltas": deltas.json,
      "shards": shards.json,
      "previousCatalog": previousCatalog.json,
      "oldCatalog": oldCatalog.json,
      "pruned": pruned.json,
      "nextVersion": nextVersion.json,
      "placed": placed.json,
      "warnings": warnings.json,
    ]
  }
}
