import CallDirectorySources
import CalldirSystem
import CallDirectoryCompiler
import CallDirectoryStore
import CallDirectorySync

extension BuildSummary: JSONEncodable {
  /// The `--json` object (schemas/output/build.schema.json).
  var json: JSONValue {
    let counts = result.statistics
    return [
      "version": .int(Int64(result.version)),
      "asOf": .string(asOf.iso8601),
      "unchanged": .bool(result.unchanged),
      "dryRun": .bool(result.dryRun),
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
      "changes": result.changes?.json ?? .null,
      "spilledRuns": .int(Int64(counts.spilledRuns)),
      "rejects": result.rejectsPath.map { .string($0) } ?? .null,
      "conflicts": result.conflictsPath.map { .string($0) } ?? .null,
      "sources": .array(result.sources.map(Self.json)),
      "guards": .array(result.guards.map(Self.json)),
      "deltas": .array(result.deltas.map { delta in
        ["from": .int(Int64(delta.fromVersion)), "path": .string(store.path(delta.path)), "bytes": .int(delta.bytes)]
      }),
      "extensions": .array(result.extensions.map { plan in
        [
          "index": .int(Int64(plan.index)), "lower": .int(plan.lower), "upper": .int(plan.upper),
          "blocking": .int(Int64(plan.blocking)), "identification": .int(Int64(plan.identification)),
          "entries": .int(Int64(plan.entries)), "reloadSeconds": .double((plan.estimatedReloadSeconds * 10).rounded() / 10),
          "oneVersionBehind": plan.oneVersionBehind.map { forecast in
            [
              "from": .int(Int64(forecast.from)), "strategy": .string(forecast.strategy.rawValue),
              "reloadEntries": .int(Int64(forecast.entries)), "reloadSeconds": Self.seconds(forecast.entries),
            ]
          } ?? .null,
        ]
      }),
      "oneVersionBehind": oneVersionBehind.map { total in
        [
          "from": .int(Int64(total.from)), "reloadEntries": .int(Int64(total.entries)),
          "reloadSeconds": Self.seconds(total.entries), "reloadedExtensions": .int(Int64(total.reloaded)),
          "unchangedExtensions": .int(Int64(total.unchanged)),
        ]
      } ?? .null,
      "manifest": result.manifestPath.map { .string($0) } ?? .null,
      "signature": result.signaturePath.map { .string($0) } ?? .null,
      "manifestExpires": result.manifestExpires.map { .string($0) } ?? .null,
      "shards": .array(result.shards.map { shard in
        [
          "shard": .int(Int64(shard.shard)), "path": .string(store.path(shard.path)),
          "bytes": .int(shard.bytes), "lower": .int(shard.lowerBound), "upper": .int(shard.upperBound),
          "blocking": .int(Int64(shard.blocking)), "identification": .int(Int64(shard.identification)),
          "deltas": .array(result.shardDeltas.filter { $0.shard == shard.shard }.map { delta in
            ["from": .int(Int64(delta.fromVersion)), "path": .string(store.path(delta.path)), "bytes": .int(delta.bytes)]
          }),
        ]
      }),
    ]
  }

  /// Estimated seconds on a phone for `entries`, to the millisecond.
  private static func seconds(_ entries: Int) -> JSONValue {
    .double((ReloadCost.seconds(entries: entries) * 1000).rounded() / 1000)
  }

  private static func json(_ source: SourceReport) -> JSONValue {
    let counts: JSONValue = [
      "path": .string(source.spec.writtenPath),
      "list": .string(source.spec.list.rawValue),
      "format": .string(source.spec.format),
      "dataLines": .int(Int64(source.summary.dataLines)),
      "accepted": .int(Int64(source.accepted)),
      "rejected": .int(Int64(source.rejected)),
      "duplicates": .int(Int64(source.contribution.duplicates)),
      "numbers": .int(Int64(source.contribution.numbers)),
      "unique": .int(Int64(source.contribution.unique)),
      "missing": .bool(source.isAbsent),
      "rejectReasons": .object(source.rejectReasons.sorted { $0.key < $1.key }.map { ($0.key, .int(Int64($0.value))) }),
    ]
    guard case .object(var members) = counts else { return counts }
    // Rows a `where` filter left out, and numbers not of the source's
    // `types`: shown only for sources that filter.
    var at = (members.firstIndex { $0.key == "rejected" } ?? members.count - 1) + 1
    if source.spec.options[value: "where"] != nil {
      members.insert(("filtered", .int(Int64(source.summary.filtered))), at: at)
      at += 1
    }
    if source.spec.numberRules.types != nil {
      members.insert(("typeFiltered", .int(Int64(source.typeFiltered))), at: at)
    }
    if let cells = cellsJSON(source) { members.append(("cells", cells)) }
    if let evidence = source.evidence {
      members.append(("evidence", [
        "reports": .int(Int64(evidence.reports)),
        "reportsTooOld": .int(Int64(evidence.reportsTooOld)),
        "reportsAfterAsOf": .int(Int64(evidence.reportsAfterAsOf)),
        "numbersReported": .int(Int64(evidence.numbers)),
        "kept": .int(Int64(evidence.kept)),
        "droppedByMaxAge": .int(Int64(evidence.droppedByDate)),
        "droppedByMinReports": .int(Int64(evidence.droppedByMinReports)),
      ]))
    }
    return .object(members)
  }

  /// A source's cell keys and what they read, for a source that sets any.
  private static func cellsJSON(_ source: SourceReport) -> JSONValue? {
    let options = source.spec.options
    guard CellRules.keys.contains(where: { options[$0] != nil }) else { return nil }
    let counts = source.summary.cells
    return [
      "numberSeparator": options["numberSeparator"].map { .string($0) } ?? .null,
      "wildcard": options["wildcard"].map { .string($0) } ?? .null,
      "rangeSeparator": options["rangeSeparator"].map { .string($0) } ?? .null,
      "splitCells": .int(Int64(counts.splitCells)),
      "wildcardBlocks": .int(Int64(counts.wildcardBlocks)),
      "ranges": .int(Int64(counts.ranges)),
    ]
  }

  private static func json(_ check: GuardCheck) -> JSONValue {
    [
      "kind": .string(check.kind.rawValue),
      "subject": .string(check.subject),
      "previous": .int(Int64(check.previous)),
      "current": .int(Int64(check.current)),
      "limit": .double(check.limit),
      "passed": .bool(check.passed),
    ]
  }
}
