import CallDirectoryFormat
import Foundation

/// `calldir build`: compiles a config and publishes the snapshot into a store,
/// safely under cron.
///
/// The order makes every crash harmless: the lock is taken; blobs and the
/// reports are written to temporary files, synced and renamed into place;
/// only then does one catalog transaction publish the version. Files of a
/// run that died before its transaction are removed by the next run.
///
/// Guards (``BuildGuards``) stand before publishing: a refused build
/// publishes nothing, keeps its rejects report under `STORE/refused/`, and
/// is recorded in the catalog. A dry run computes everything, writes its
/// reports under `STORE/dry-run/` and publishes nothing.
public struct Publisher {
  public struct Options {
    /// Publish even past the guards.
    public var force = false
    /// Wait for another build's lock instead of failing.
    public var wait = true
    /// Compute everything, publish nothing.
    public var dryRun = false
    /// Short notes on the work in progress.
    public var progress: ((String) -> Void)? = nil
    /// Bytes the collected numbers may take before sorted runs are spilled
    /// into the store and merged (see ``MemoryLimit``).
    public var memoryLimit: Int = MemoryLimit.defaultBytes()

    public init(
      force: Bool = false, wait: Bool = true, dryRun: Bool = false, memoryLimit: Int = MemoryLimit.defaultBytes(),
      progress: ((String) -> Void)? = nil
    ) {
      self.force = force
      self.wait = wait
      self.dryRun = dryRun
      self.memoryLimit = memoryLimit
      self.progress = progress
    }
  }

  /// What a build did (or, for a dry run, would do).
  public struct Result: Sendable {
    /// The published version, the latest one when unchanged, or the one a
    /// dry run would publish.
    public var version: Int
    /// True when the content equals the latest version: nothing was published.
    public var unchanged: Bool
    /// True for a dry run: nothing was published.
    public var dryRun = false
    /// The full snapshot blob (inside the store; for a dry run, where it
    /// would be published).
    public var snapshotPath: String
    /// Its size in bytes.
    public var bytes: Int64
    /// The rejects report of this build (nil when unchanged).
    public var rejectsPath: String?
    /// The label conflicts report (nil when unchanged).
    public var conflictsPath: String?
    /// Counts of this compile.
    public var statistics: CompileStatistics
    /// Entries of the previous version that this one drops (both lists).
    public var removed: Int
    /// Additions and removals per list against the previous version.
    public var changes: ListChanges?
    /// What each source gave, in config order.
    public var sources: [SourceReport] = []
    /// Every guard's measurement.
    public var guards: [GuardCheck] = []
    /// Deltas published with this version, newest base first.
    public var deltas: [DeltaRecord] = []
    /// Shards published with this version (empty when not sharded).
    public var shards: [ShardRecord] = []
    /// Deltas of the shards.
    public var shardDeltas: [ShardDeltaRecord] = []
    /// Problems that did not stop the build (e.g. an earlier blob that is gone).
    public var warnings: [String] = []

    /// The guards that did not pass (a dry run reports them; a build
    /// throws ``BuildError/refused(_:rejectsPath:conflictsPath:)``).
    public var refusals: [BuildRefusal] { guards.compactMap(\.refusal) }
  }

  public let configPath: String
  public let store: StoreLayout
  public var options: Options
  public var compiler: SnapshotCompiler

  public init(configPath: String, store: StoreLayout, options: Options = Options(), compiler: SnapshotCompiler = SnapshotCompiler()) {
    self.configPath = configPath
    self.store = store
    self.options = options
    self.compiler = compiler
    self.compiler.progress = options.progress
    self.compiler.memoryLimit = options.memoryLimit
    self.compiler.spillDirectory = options.dryRun ? store.dryRunDirectory : store.snapshotsDirectory
  }

  /// Runs the build.
  public func build() throws(BuildError) -> Result {
    let clock = ContinuousClock()
    let started = clock.now
    let config: BuildConfig
    do {
      config = try BuildConfig.load(contentsOf: configPath, checkFiles: false)
    } catch {
      throw .config(error)
    }
    let opened = try openStore()
    defer { withExtendedLifetime(opened.lock) {} }
    let catalog = opened.catalog
    let latest = opened.latest
    let previous = try latest.map { record throws(BuildError) in
      (record: record, sources: try storeCall { () throws(StoreError) in
        try catalog.map { catalog throws(StoreError) in try catalog.sources(ofVersion: record.version) } ?? []
      })
    }
    let guards = BuildGuards(config: config, previous: previous)
    let absent = try absentSources(of: config, previous: previous?.sources ?? [])
    let version = (latest?.version ?? 0) + 1

    // Compile, with the reports in temporary files.
    var pending = PendingFiles()
    defer { pending.removeAll() }
    let reportDirectory = URL(fileURLWithPath: options.dryRun ? store.dryRunDirectory : store.rejectsDirectory)
    let rejects: RejectLog
    let conflicts: ConflictLog
    let snapshot: CompiledSnapshot
    do {
      rejects = try RejectLog(directory: reportDirectory)
      pending.add(rejects.url.path)
      conflicts = try ConflictLog(
        directory: reportDirectory,
        paths: Dictionary(config.sources.map { ($0.index, $0.writtenPath) }, uniquingKeysWith: { first, _ in first }))
      pending.add(conflicts.url.path)
      snapshot = try compiler.compile(config, rejects: rejects, conflicts: conflicts, absent: absent)
      try rejects.finish()
      try conflicts.finish()
    } catch {
      throw .compile(error)
    }
    let compiled = clock.now
    var checks = guards.sourceChecks(snapshot.sources)

    // Write the full snapshot; identical content publishes nothing.
    let scratch = options.dryRun ? store.dryRunDirectory : store.snapshotsDirectory
    let pendingPath = pending.add("\(scratch)/.pending-\(version)-\(getpid()).cdir")
    options.progress?("writing version \(version)")
    let header = try Self.writeSnapshot(
      blocking: snapshot.blocking, identification: snapshot.identification[...], labels: snapshot.labels,
      version: version, to: pendingPath)
    if let latest, latest.digest == header.contentDigest.hex, !checks.contains(where: { !$0.passed }) {
      return Result(
        version: latest.version, unchanged: true, dryRun: options.dryRun, snapshotPath: store.path(latest.path),
        bytes: latest.bytes, rejectsPath: nil, statistics: snapshot.statistics, removed: 0,
        changes: ListChanges(), sources: snapshot.sources, guards: checks)
    }

    var warnings: [String] = []
    var changes: ListChanges?
    if let latest {
      do {
        changes = try countChanges(from: latest, to: pendingPath)
        checks += guards.listChecks(changes ?? ListChanges())
      } catch {
        // A damaged previous blob must not block publishing forever: with
        // --force the list guard is skipped, as it would be anyway.
        guard options.force else { throw error }
        warnings.append("removal guard skipped: \(error)")
      }
    }
    let refusals = checks.compactMap(\.refusal)
    if !refusals.isEmpty && !options.force && !options.dryRun {
      throw refuse(
        refusals, version: version, rejects: rejects.url.path, conflicts: conflicts.url.path, catalog: catalog,
        pending: &pending)
    }
    if !refusals.isEmpty && options.force && !options.dryRun {
      warnings += refusals.map { "published with --force past a guard: \($0.message)" }
    }

    do throws(StoreError) {
      var renames: [(from: String, to: String)] = []
      let blobFacts = try FileOperations.facts(of: pendingPath)
      let allSnapshots = try catalog.map { catalog throws(StoreError) in try catalog.allSnapshots() } ?? []
      let bases = config.deltaHistory > 0 ? Array(allSnapshots.suffix(config.deltaHistory).reversed()) : []
      let deltaScratch = options.dryRun ? store.dryRunDirectory : store.deltasDirectory

      var deltas: [DeltaRecord] = []
      for base in bases {
        let name = StoreLayout.deltaName(from: base.version, to: version)
        let deltaPending = pending.add("\(deltaScratch)/.pending-\(base.version)-\(version)-\(getpid()).cdir")
        guard let facts = try writeDelta(
          from: store.path(base.path), to: pendingPath, maxBytes: blobFacts.bytes, pendingPath: deltaPending,
          description: "version \(base.version)", warnings: &warnings)
        else { continue }
        renames.append((deltaPending, store.path(name)))
        deltas.append(DeltaRecord(
          fromVersion: base.version, toVersion: version, path: name, bytes: facts.bytes, fileChecksum: facts.checksum))
      }

      let (shards, shardDeltas) = try writeShards(
        of: snapshot, version: version, config: config, latest: latest, bases: bases, catalog: catalog,
        scratch: (scratch, deltaScratch), pending: &pending, renames: &renames, warnings: &warnings)
      let written = clock.now

      var sources: [SourceRecordRow] = []
      var rejectReasons: [Int: [String: Int]] = [:]
      for report in snapshot.sources {
        let spec = report.spec
        let facts = report.isAbsent
          ? FileOperations.FileFacts(bytes: 0, modifiedAt: "", checksum: "")
          : try FileOperations.facts(of: spec.path, read: report.summary)
        sources.append(SourceRecordRow(
          position: spec.index, path: spec.path, format: spec.format, list: spec.list.rawValue, region: spec.region,
          priority: spec.priority, bytes: facts.bytes, modifiedAt: facts.modifiedAt, checksum: facts.checksum,
          dataLines: report.summary.dataLines, accepted: report.accepted, rejected: report.rejected,
          writtenPath: spec.writtenPath, options: spec.options, maxRemovalRatio: spec.maxRemovalRatio,
          contribution: report.contribution, isAbsent: report.isAbsent))
        rejectReasons[spec.index] = report.rejectReasons
      }

      let snapshotName = StoreLayout.snapshotName(version)
      var result = Result(
        version: version, unchanged: false, dryRun: options.dryRun, snapshotPath: store.path(snapshotName),
        bytes: blobFacts.bytes, rejectsPath: nil, conflictsPath: nil, statistics: snapshot.statistics,
        removed: (changes?.blockingRemoved ?? 0) + (changes?.identificationRemoved ?? 0), changes: changes,
        sources: snapshot.sources, guards: checks, deltas: deltas, shards: shards, shardDeltas: shardDeltas,
        warnings: warnings)
      if options.dryRun {
        // Keep the reports; every blob goes with the pending files.
        for (report, name) in [(rejects.url.path, StoreLayout.dryRunRejectsName), (conflicts.url.path, StoreLayout.dryRunConflictsName)] {
          try FileOperations.durableRename(report, to: store.path(name))
        }
        result.rejectsPath = store.path(StoreLayout.dryRunRejectsName)
        result.conflictsPath = store.path(StoreLayout.dryRunConflictsName)
        return result
      }

      // Rename everything into place, then publish in one transaction.
      let rejectsName = StoreLayout.rejectsName(version)
      let conflictsName = StoreLayout.conflictsName(version)
      renames.append((rejects.url.path, store.path(rejectsName)))
      renames.append((conflicts.url.path, store.path(conflictsName)))
      renames.append((pendingPath, store.path(snapshotName)))
      for rename in renames { try FileOperations.durableRename(rename.from, to: rename.to) }
      pending.removeAll()

      let finished = clock.now
      let statistics = snapshot.statistics
      let record = SnapshotRecord(
        version: version, createdAt: FileOperations.timestamp(Date()), path: snapshotName,
        bytes: blobFacts.bytes, digest: header.contentDigest.hex, fileChecksum: blobFacts.checksum,
        blocking: statistics.blocking, identification: statistics.identification, labels: statistics.labels,
        rejected: statistics.rejected, conflicts: statistics.conflicts, allowed: statistics.allowed,
        duplicates: statistics.duplicates, rejectsPath: rejectsName,
        configPath: URL(fileURLWithPath: configPath).standardizedFileURL.path, forced: options.force,
        timings: BuildTimings(
          readMilliseconds: snapshot.readMilliseconds,
          compileMilliseconds: Self.milliseconds(started, compiled) - snapshot.readMilliseconds,
          writeMilliseconds: Self.milliseconds(compiled, written),
          totalMilliseconds: Self.milliseconds(started, finished)),
        changes: changes, conflictsPath: conflictsName)
      guard let catalog else { throw StoreError.catalog("no catalog is open") }
      try catalog.record(
        record, sources: sources, rejectReasons: rejectReasons, deltas: deltas, shards: shards,
        shardDeltas: shardDeltas)
      result.rejectsPath = store.path(rejectsName)
      result.conflictsPath = store.path(conflictsName)
      return result
    } catch {
      throw .store(error)
    }
  }

  // MARK: - The store

  /// The lock (a real build's), the catalog and its latest version.
  private struct OpenStore {
    var lock: StoreLock?
    var catalog: Catalog?
    var latest: SnapshotRecord?
  }

  /// A real build creates the store, takes its lock, opens (or creates) the
  /// catalog and removes what a crashed run left; a dry run only makes its
  /// own directory and reads the catalog, if there is one.
  private func openStore() throws(BuildError) -> OpenStore {
    try storeCall { () throws(StoreError) in
      if options.dryRun {
        try FileOperations.createDirectory(store.dryRunDirectory)
        let catalog: Catalog
        do throws(StoreError) {
          catalog = try Catalog.openForReading(store)
        } catch {
          if case .noCatalog = error { return OpenStore() }
          throw error
        }
        return OpenStore(catalog: catalog, latest: try catalog.latest())
      }
      for directory in [
        store.root, store.snapshotsDirectory, store.deltasDirectory, store.rejectsDirectory, store.refusedDirectory,
      ] {
        try FileOperations.createDirectory(directory)
      }
      let lock = try StoreLock(path: store.lock, wait: options.wait)
      let catalog = try Catalog(path: store.catalog)
      let latest = try catalog.latest()
      removeLeftovers(after: latest?.version ?? 0)
      return OpenStore(lock: lock, catalog: catalog, latest: latest)
    }
  }

  /// The sources whose files are gone although the previous version read
  /// numbers from them: the build goes on without them (and a guard
  /// refuses it unless `--force`). Any other missing file is an error.
  private func absentSources(of config: BuildConfig, previous: [SourceRecordRow]) throws(BuildError) -> Set<Int> {
    var absent: Set<Int> = []
    for spec in config.sources {
      var isDirectory: ObjCBool = false
      let exists = FileManager.default.fileExists(atPath: spec.path, isDirectory: &isDirectory)
      if exists && isDirectory.boolValue {
        throw .config(.invalidValue(keyPath: "\(spec.keyPath).path", reason: "is a directory: \(spec.path)"))
      }
      guard !exists else { continue }
      let gaveNumbers = previous.contains {
        $0.path == spec.path && $0.list == spec.list.rawValue && ($0.contribution?.numbers ?? $0.accepted) > 0
      }
      guard gaveNumbers else { throw .config(.fileNotFound(keyPath: "\(spec.keyPath).path", path: spec.path)) }
      absent.insert(spec.index)
    }
    return absent
  }

  /// Keeps a refused build's reports under `refused/`, records the refusal
  /// in the catalog, and returns the error to throw.
  private func refuse(
    _ refusals: [BuildRefusal], version: Int, rejects: String, conflicts: String, catalog: Catalog?,
    pending: inout PendingFiles
  ) -> BuildError {
    var kept: (rejects: String?, conflicts: String?) = (nil, nil)
    if (try? FileOperations.durableRename(rejects, to: store.path(StoreLayout.refusedRejectsName(version)))) != nil {
      kept.rejects = store.path(StoreLayout.refusedRejectsName(version))
    }
    if (try? FileOperations.durableRename(conflicts, to: store.path(StoreLayout.refusedConflictsName(version)))) != nil {
      kept.conflicts = store.path(StoreLayout.refusedConflictsName(version))
    }
    let now = FileOperations.timestamp(Date())
    for refusal in refusals {
      // The refusal stands whether or not the catalog can keep a note of it.
      try? catalog?.record(refusal: RefusalRecord(
        attemptedAt: now, version: version, kind: refusal.kind.rawValue, message: refusal.message,
        source: refusal.source, rejectsPath: kept.rejects == nil ? nil : StoreLayout.refusedRejectsName(version)))
    }
    return .refused(refusals, rejectsPath: kept.rejects, conflictsPath: kept.conflicts)
  }

  // MARK: - Shards

  /// Writes the shard blobs and their deltas when the config asks for
  /// sharding and the snapshot needs it (or the previous version was sharded).
  private func writeShards(
    of snapshot: CompiledSnapshot, version: Int, config: BuildConfig, latest: SnapshotRecord?,
    bases: [SnapshotRecord], catalog: Catalog?, scratch: (blobs: String, deltas: String), pending: inout PendingFiles,
    renames: inout [(from: String, to: String)], warnings: inout [String]
  ) throws(StoreError) -> ([ShardRecord], [ShardDeltaRecord]) {
    guard let limit = config.maxEntriesPerExtension else { return ([], []) }
    let previous = try latest.flatMap { record throws(StoreError) in try catalog?.shards(ofVersion: record.version) } ?? []
    let total = snapshot.statistics.blocking + snapshot.statistics.identification
    guard total > limit || !previous.isEmpty else { return ([], []) }

    let lowers: [Int64]
    let written: [ShardWriter.Written]
    var paths: [String] = []
    do {
      options.progress?("planning shards")
      lowers = try ShardPlanner(limit: limit).boundaries(
        blocking: snapshot.blocking, identification: snapshot.identification, previous: previous.map(\.lowerBound))
      for shard in 1...lowers.count {
        paths.append(pending.add("\(scratch.blobs)/.pending-\(version)-shard-\(shard)-\(getpid()).cdir"))
      }
      options.progress?("writing \(lowers.count) shards")
      written = try ShardWriter(version: version, identification: snapshot.identification, labels: snapshot.labels)
        .write(blocking: snapshot.blocking, bounds: shardBounds(lowers), paths: paths)
    } catch let error as StoreError {
      throw error
    } catch {
      throw .io(path: store.snapshotsDirectory, reason: "cannot write shards: \(error)")
    }
    var shards: [ShardRecord] = []
    var shardDeltas: [ShardDeltaRecord] = []
    let baseShards = try bases.map { base throws(StoreError) in
      (base, try catalog.map { catalog throws(StoreError) in try catalog.shards(ofVersion: base.version) } ?? [])
    }
    for (index, bounds) in shardBounds(lowers).enumerated() {
      let shard = index + 1
      let pendingPath = paths[index]
      let facts = try FileOperations.facts(of: pendingPath)
      let name = StoreLayout.snapshotName(version, shard: shard)
      renames.append((pendingPath, store.path(name)))
      shards.append(ShardRecord(
        version: version, shard: shard, lowerBound: bounds.lowerBound, upperBound: bounds.upperBound, path: name,
        bytes: facts.bytes, digest: written[index].header.contentDigest.hex, fileChecksum: facts.checksum,
        blocking: written[index].blocking, identification: written[index].identification))
      for (base, baseShardList) in baseShards {
        guard let baseShard = baseShardList.first(where: { $0.shard == shard }) else { continue }
        let deltaPending = pending.add("\(scratch.deltas)/.pending-\(base.version)-\(version)-shard-\(shard)-\(getpid()).cdir")
        guard let deltaFacts = try writeDelta(
          from: store.path(baseShard.path), to: pendingPath, maxBytes: facts.bytes, pendingPath: deltaPending,
          description: "version \(base.version) shard \(shard)", warnings: &warnings)
        else { continue }
        let deltaName = StoreLayout.deltaName(from: base.version, to: version, shard: shard)
        renames.append((deltaPending, store.path(deltaName)))
        shardDeltas.append(ShardDeltaRecord(
          fromVersion: base.version, toVersion: version, shard: shard, path: deltaName, bytes: deltaFacts.bytes,
          fileChecksum: deltaFacts.checksum))
      }
    }
    return (shards, shardDeltas)
  }

  // MARK: - Blobs

  /// Writes a full snapshot blob to `path` (atomically) and returns its header.
  static func writeSnapshot(
    blocking: BlockingEntries, identification: ArraySlice<LabeledNumber>, labels: [String], version: Int, to path: String
  ) throws(BuildError) -> BlobHeader {
    do {
      let writer = try FullSnapshotWriter(path: path, version: UInt64(version), labels: labels)
      try blocking.forEachChunk(
        singles: { try writer.appendBlocking(contentsOf: $0) },
        range: { try writer.appendBlocking($0) })
      for entry in identification {
        try writer.appendIdentification(entry.number, labelID: entry.labelID)
      }
      return try writer.finish()
    } catch let error as BlobError {
      throw .blob(path: path, error: error)
    } catch let error as CompileError {
      throw .compile(error)
    } catch {
      throw .store(.io(path: path, reason: "\(error)"))
    }
  }

  /// Writes the delta between two blobs to `pendingPath`; returns its facts,
  /// or nil (with the file removed) when it is larger than `maxBytes` or an
  /// input cannot be read (then with a warning).
  private func writeDelta(
    from base: String, to target: String, maxBytes: Int64, pendingPath: String, description: String,
    warnings: inout [String]
  ) throws(StoreError) -> FileOperations.FileFacts? {
    do {
      let summary = try SnapshotDiffer.writeDelta(
        from: try BlobReader(path: base), to: try BlobReader(path: target), path: pendingPath)
      guard summary.bytes <= maxBytes else {
        try? FileManager.default.removeItem(atPath: pendingPath)
        return nil
      }
    } catch {
      try? FileManager.default.removeItem(atPath: pendingPath)
      warnings.append("no delta from \(description): \(error)")
      return nil
    }
    return try FileOperations.facts(of: pendingPath)
  }

  /// How the lists of the new snapshot (the blob at `pendingPath`) differ
  /// from the latest version's: entries added and removed per list (a
  /// relabelled number is neither). Streams both blobs.
  private func countChanges(from latest: SnapshotRecord, to pendingPath: String) throws(BuildError) -> ListChanges {
    let path = store.path(latest.path)
    do {
      let old = try BlobReader(path: path)
      let new = try BlobReader(path: pendingPath)
      let blocking = try Self.countDifferences(old.blocking().next, new.blocking().next)
      let oldEntries = try old.identification()
      let newEntries = try new.identification()
      let identification = try Self.countDifferences({ try oldEntries.next()?.number }, { try newEntries.next()?.number })
      return ListChanges(
        blockingAdded: blocking.added, blockingRemoved: blocking.removed,
        identificationAdded: identification.added, identificationRemoved: identification.removed)
    } catch let error as BlobError {
      throw .blob(path: path, error: error)
    } catch {
      throw .store(.io(path: path, reason: "\(error)"))
    }
  }

  /// How many numbers the ascending sequence `new` has that `old` lacks,
  /// and the reverse.
  private static func countDifferences(
    _ old: () throws -> Int64?, _ new: () throws -> Int64?
  ) throws -> (added: Int, removed: Int) {
    var added = 0
    var removed = 0
    var left = try old()
    var right = try new()
    while true {
      switch (left, right) {
      case (nil, nil):
        return (added, removed)
      case (let a?, let b?) where a == b:
        left = try old()
        right = try new()
      case (let a?, let b?) where a < b:
        removed += 1
        left = try old()
      case (_?, nil):
        removed += 1
        left = try old()
      default:
        added += 1
        right = try new()
      }
    }
  }

  /// Removes files that a run which died before its catalog transaction left:
  /// temporary and pending files, and files of versions after the latest.
  private func removeLeftovers(after latestVersion: Int) {
    let manager = FileManager.default
    for directory in [store.snapshotsDirectory, store.deltasDirectory, store.rejectsDirectory] {
      guard let names = try? manager.contentsOfDirectory(atPath: directory) else { continue }
      for name in names where name.hasPrefix(".") || (StoreLayout.version(ofFileNamed: name) ?? 0) > latestVersion {
        try? manager.removeItem(atPath: directory + "/" + name)
      }
    }
  }

  private func storeCall<T>(_ body: () throws(StoreError) -> T) throws(BuildError) -> T {
    do {
      return try body()
    } catch {
      throw .store(error)
    }
  }

  private static func milliseconds(_ start: ContinuousClock.Instant, _ end: ContinuousClock.Instant) -> Int64 {
    (end - start).milliseconds
  }
}

extension Duration {
  /// Whole milliseconds, for reports and the catalog.
  var milliseconds: Int64 {
    components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
  }
}

/// Temporary files of a build, removed unless they were renamed into place.
struct PendingFiles {
  private var paths: [String] = []

  @discardableResult
  mutating func add(_ path: String) -> String {
    paths.append(path)
    return path
  }

  mutating func removeAll() {
    for path in paths { try? FileManager.default.removeItem(atPath: path) }
    paths = []
  }
}
