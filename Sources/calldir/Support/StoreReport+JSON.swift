import CalldirSystem
import CallDirectoryCompiler
import CallDirectoryStore
import CommandLineKit

extension StoreReport: JSONEncodable {
  /// What `calldir report --json` prints: the gathered model, keys in a
  /// fixed order (docs/reference/report.md, schemas/output/report.schema.json).
  public var json: JSONValue {
    [
      "store": .string(store),
      "dataset": .string(dataset),
      "generatedAt": generatedAt.map { .string($0) } ?? .null,
      "extensionEntryLimit": .int(Int64(Self.extensionEntryLimit)),
      "versions": .array(versions.map { version in
        [
          "version": .int(Int64(version.version)),
          "createdAt": .string(version.createdAt),
          "counts": [
            "blocking": .int(Int64(version.blocking)),
            "identification": .int(Int64(version.identification)),
            "labels": .int(Int64(version.labels)),
            "rejected": .int(Int64(version.rejected)),
          ],
          "bytes": .int(version.bytes),
          "forced": .bool(version.forced),
          "changes": version.changes?.json ?? .null,
        ]
      }),
      "refusals": .array(refusals.map { refusal in
        [
          "attemptedAt": .string(refusal.attemptedAt),
          "version": .int(Int64(refusal.version)),
          "kind": .string(refusal.kind),
          "message": .string(refusal.message),
          "source": refusal.source.map { .string($0) } ?? .null,
        ]
      }),
      "latest": latest.map(Self.json) ?? .null,
    ]
  }

  private static func json(_ latest: Latest) -> JSONValue {
    [
      "version": .int(Int64(latest.version)),
      "createdAt": .string(latest.createdAt),
      "callingCodes": .array(latest.callingCodes.map { code in
        [
          "callingCode": .int(Int64(code.callingCode)),
          "region": .string(code.region),
          "blocking": .int(Int64(code.counts.blocking)),
          "identification": .int(Int64(code.counts.identification)),
        ]
      }),
      "noCallingCode": [
        "blocking": .int(Int64(latest.noCallingCode.blocking)),
        "identification": .int(Int64(latest.noCallingCode.identification)),
      ],
      "sources": .array(latest.sources.map { source in
        [
          "position": .int(Int64(source.position)),
          "path": .string(source.path),
          "list": .string(source.list),
          "format": .string(source.format),
          "region": .string(source.region),
          "dataLines": .int(Int64(source.dataLines)),
          "accepted": .int(Int64(source.accepted)),
          "rejected": .int(Int64(source.rejected)),
          "duplicates": source.contribution.map { .int(Int64($0.duplicates)) } ?? .null,
          "numbers": source.contribution.map { .int(Int64($0.numbers)) } ?? .null,
          "unique": source.contribution.map { .int(Int64($0.unique)) } ?? .null,
          "missing": .bool(source.isMissing),
          "rejectReasons": .object(source.rejectReasons.map { (key: $0.reason, value: .int(Int64($0.count))) }),
        ]
      }),
      "extensions": .array(latest.extensions.map { fill in
        [
          "shard": fill.shard.map { .int(Int64($0)) } ?? .null,
          "lower": fill.lowerBound.map { .int($0) } ?? .null,
          "upper": fill.upperBound.map { .int($0) } ?? .null,
          "blocking": .int(Int64(fill.counts.blocking)),
          "identification": .int(Int64(fill.counts.identification)),
          "entries": .int(Int64(fill.counts.total)),
        ]
      }),
    ]
  }
}
