import CallDirectoryCompiler
import CallDirectoryFormat
import CalldirSystem

/// The sixth stage of ``Publisher/build()``: the version as the catalog
/// recorded it, in one transaction, its files still under their pending
/// names (synced, with their directories).
struct RecordedVersion {
  let record: SnapshotRecord
  let catalog: Catalog
  /// Each file of the version, from its pending name to its published one.
  let renames: [(from: String, to: String)]
  /// The published names of the version's reports.
  let rejectsName: String
  let conflictsName: String
}

extension Publisher {
  /// The catalog's rows of the sources a build read, and the reasons each
  /// rejected lines for, by config index.
  func sourceRows(
    of snapshot: CompiledSnapshot
  ) throws(StoreError) -> (rows: [SourceRecordRow], rejectReasons: [Int: [String: Int]]) {
    var sources: [SourceRecordRow] = []
    var rejectReasons: [Int: [String: Int]] = [:]
    for report in snapshot.sources {
      let spec = report.spec
      let facts = report.isAbsent
        ? FileFacts(bytes: 0, modifiedAt: "", checksum: "")
        : try FileFacts.of(source: spec.path, read: report.summary)
      sources.append(SourceRecordRow(
        position: spec.index, path: spec.path, format: spec.format, list: spec.list.rawValue, region: spec.region,
        priority: spec.priority, bytes: facts.bytes, modifiedAt: facts.modifiedAt, checksum: facts.checksum,
        dataLines: report.summary.dataLines, accepted: report.accepted, rejected: report.rejected,
        writtenPath: spec.writtenPath, options: spec.options, maxRemovalRatio: spec.maxRemovalRatio,
        contribution: report.contribution, isAbsent: report.isAbsent, evidence: spec.evidence))
      rejectReasons[spec.index] = report.rejectReasons
    }
    return (sources, rejectReasons)
  }

  /// What the build did, before its files are put in place.
  func makeResult(
    _ prepared: PreparedBuild, _ compiled: CompiledBuild, _ guarded: GuardedBuild, _ blobs: WrittenBlobs,
    _ written: WrittenDeltas, warnings: [String]
  ) -> Result {
    let (snapshot, changes) = (compiled.snapshot, guarded.changes)
    return Result(
      version: prepared.version, unchanged: false, dryRun: options.dryRun, snapshotPath: store.path(blobs.snapshotName),
      bytes: written.blobFacts.bytes, rejectsPath: nil, conflictsPath: nil, statistics: snapshot.statistics,
      removed: (changes?.blockingRemoved ?? 0) + (changes?.identificationRemoved ?? 0), changes: changes,
      sources: snapshot.sources, guards: guarded.checks, deltas: written.deltas, shards: written.shards,
      shardDeltas: written.shardDeltas,
      extensions: ExtensionPlan.plan(
        shards: written.shards, blocking: snapshot.statistics.blocking,
        identification: snapshot.statistics.identification),
      warnings: warnings)
  }

  /// A dry run's result: what a device one version behind would reload,
  /// from what the manifest would say; the reports kept under `dry-run/`
  /// (every blob goes with the pending files).
  func finishDryRun(
    _ result: Result, _ prepared: PreparedBuild, _ compiled: CompiledBuild, _ blobs: WrittenBlobs,
    _ written: WrittenDeltas
  ) throws(StoreError) -> Result {
    var result = result
    let (version, statistics) = (prepared.version, compiled.snapshot.statistics)
    if let latest = prepared.latest {
      let planned = ReloadForecast.extensions(
        record: (version, blobs.header.contentDigest.hex, statistics.blocking, statistics.identification),
        path: blobs.snapshotName, bytes: written.blobFacts.bytes, deltas: written.deltas, shards: written.shards,
        shardDeltas: written.shardDeltas, changes: written.deltaChanges)
      result.extensions = ReloadForecast.apply(
        to: result.extensions, manifest: planned, version: version,
        previous: ReloadForecast.held(at: latest, shards: blobs.shardBlobs.previous))
    }
    let reports = [
      (compiled.rejects.path, StoreLayout.dryRunRejectsName), (compiled.conflicts.path, StoreLayout.dryRunConflictsName),
    ]
    for (report, name) in reports {
      try rename(report, to: store.path(name))
    }
    result.rejectsPath = store.path(StoreLayout.dryRunRejectsName)
    result.conflictsPath = store.path(StoreLayout.dryRunConflictsName)
    return result
  }

  /// Puts the reports under their pending names, syncs every pending file
  /// and its directory, keeps the icons, and records the version in one
  /// catalog transaction: the version exists once the catalog says so, and
  /// only then do its files take their published names.
  func recordVersion(
    _ prepared: PreparedBuild, _ compiled: CompiledBuild, _ guarded: GuardedBuild, _ blobs: WrittenBlobs,
    _ written: WrittenDeltas, sources: (rows: [SourceRecordRow], rejectReasons: [Int: [String: Int]]),
    started: MonotonicInstant, pending: inout PendingFiles, deferringSyncsTo pendingSyncs: FileSystem.DeferredSyncs
  ) throws(StoreError) -> RecordedVersion {
    let version = prepared.version
    var renames = written.renames
    // Every file is complete under its pending name; the reports go there too.
    let rejectsName = StoreLayout.rejectsName(version)
    let conflictsName = StoreLayout.conflictsName(version)
    for (report, name) in [(compiled.rejects.path, rejectsName), (compiled.conflicts.path, conflictsName)] {
      let reportPending = pending.add(pendingLocation(for: name))
      try rename(report, to: reportPending, deferringSyncTo: pendingSyncs)
      renames.append((reportPending, store.path(name)))
    }
    renames.append((blobs.pendingPath, store.path(blobs.snapshotName)))

    let record = snapshotRecord(
      prepared, compiled, guarded, blobs, written, reports: (rejectsName, conflictsName),
      timings: buildTimings(started: started, compiled: compiled, written: written))
    guard let catalog = prepared.catalog else { throw StoreError.catalog("no catalog is open") }
    do {
      try pendingSyncs.syncAll()
    } catch {
      throw StoreError.file(error)
    }
    try prepared.liveCallerID?.keepIcons(in: store)
    Catalog.checkPublishedInvariants(
      record, highestBefore: prepared.opened.highestVersion, deltas: written.deltas, shards: written.shards,
      shardDeltas: written.shardDeltas)
    try catalog.record(
      record, sources: sources.rows, rejectReasons: sources.rejectReasons, deltas: written.deltas,
      shards: written.shards, shardDeltas: written.shardDeltas)
    pending.forgetAll()
    return RecordedVersion(
      record: record, catalog: catalog, renames: renames, rejectsName: rejectsName, conflictsName: conflictsName)
  }

  /// The build's timings, now that its files are written.
  func buildTimings(started: MonotonicInstant, compiled: CompiledBuild, written: WrittenDeltas) -> BuildTimings {
    let finished = MonotonicInstant.now()
    return BuildTimings(
      readMilliseconds: compiled.snapshot.readMilliseconds,
      compileMilliseconds: compiled.compiledAt.milliseconds(since: started) - compiled.snapshot.readMilliseconds,
      writeMilliseconds: written.writtenAt.milliseconds(since: compiled.compiledAt),
      totalMilliseconds: finished.milliseconds(since: started))
  }

  /// The catalog's row of the new version.
  func snapshotRecord(
    _ prepared: PreparedBuild, _ compiled: CompiledBuild, _ guarded: GuardedBuild, _ blobs: WrittenBlobs,
    _ written: WrittenDeltas, reports: (rejects: String, conflicts: String), timings: BuildTimings
  ) -> SnapshotRecord {
    let (config, statistics, identitiesFacts) = (prepared.config, compiled.snapshot.statistics, written.identitiesFacts)
    return SnapshotRecord(
      version: prepared.version, createdAt: options.publishedAt ?? UTCTime.iso8601(UTCTime.now()),
      path: blobs.snapshotName, bytes: written.blobFacts.bytes, digest: blobs.header.contentDigest.hex,
      fileChecksum: written.blobFacts.checksum,
      blocking: statistics.blocking, identification: statistics.identification, labels: statistics.labels,
      rejected: statistics.rejected, conflicts: statistics.conflicts, allowed: statistics.allowed,
      duplicates: statistics.duplicates, rejectsPath: reports.rejects, configPath: _absolutePath(configPath),
      forced: options.force, timings: timings, changes: guarded.changes, conflictsPath: reports.conflicts,
      maxRangeSize: config.maxRangeSize, dataset: config.dataset, asOf: options.asOf.iso8601,
      defaultRegion: config.defaultRegion, liveCallerID: prepared.liveCallerID?.settingsText,
      identitiesPath: identitiesFacts == nil ? nil : StoreLayout.identitiesName(prepared.version),
      identitiesChecksum: identitiesFacts?.checksum,
      identitiesDigest: identitiesFacts == nil ? nil : blobs.identities?.digest)
  }
}
