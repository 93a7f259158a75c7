import CallDirectoryFormat
import Foundation

/// `calldir build`: compiles a config and publishes the snapshot into a store,
/// safely under cron.
///
/// The order makes every crash harmless: the lock is taken; blobs and the
/// rejects report are written to temporary files, synced and renamed into
/// place; only then does one catalog transaction publish the version. Files
/// of a run that died before its transaction are removed by the next run.
public struct Publisher {
  public struct Options {
    /// Publish even past the removal guard.
    public var force = false
    /// Wait for another build's lock instead of failing.
    public var wait = true
    /// Short notes on the work in progress.
    public var progress: ((String) -> Void)? = nil
    /// Bytes the collected numbers may take before sorted runs are spilled
    /// into the store and merged (see ``MemoryLimit``).
    public var memoryLimit: Int = MemoryLimit.defaultBytes()

    public init(
      force: Bool = false, wait: Bool = true, memoryLimit: Int = MemoryLimit.defaultBytes(),
      progress: ((String) -> Void)? = nil
    ) {
      self.force = force
      self.wait = wait
      self.memoryLimit = memoryLimit
      self.progress = progress
    }
  }

  /// What a build did.
  public struct Result: Sendable {
    /// The published version, or the latest one when unchanged.
    public var version: Int
    /// True when the content equals the latest version: nothing was published.
    public var unchanged: Bool
    /// The full snapshot blob (inside the store).
    public var snapshotPath: String
    /// Its size in bytes.
    public var bytes: Int64
    /// The rejects report of this build (nil when nothing was published).
    public var rejectsPath: String?
    /// Counts of this compile.
    public var statistics: CompileStatistics
    /// Entries of the previous version that this one drops.
    public var removed: Int
    /// Deltas published with this version, newest base first.
    public var deltas: [DeltaRecord] = []
    /// Shards published with this version (empty when not sharded).
    public var shards: [ShardRecord] = []
    /// Deltas of the shards.
    public var shardDeltas: [ShardDeltaRecord] = []
    /// Problems that did not stop the build (e.g. an earlier blob that is gone).
    public var warnings: [String] = []
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
    self.compiler.spillDirectory = store.snapshotsDirectory
  }

  /// Runs the build.
  public func build() throws(BuildError) -> Result {
    let clock = ContinuousClock()
    let started = clock.now
    let config: BuildConfig
    do {
      config = try BuildConfig.load(contentsOf: configPath)
    } catch {
      throw .config(error)
    }
    let lock: StoreLock
    let catalog: Catalog
    let latest: SnapshotRecord?
    do {
      for directory in [store.root, store.snapshotsDirectory, store.deltasDirectory, store.rejectsDirectory] {
        try FileOperations.createDirectory(directory)
      }
      lock = try StoreLock(path: store.lock, wait: options.wait)
      catalog = try Catalog(path: store.catalog)
      latest = try catalog.latest()
      removeLeftovers(after: latest?.version ?? 0)
    } catch {
      throw .store(error)
    }
    defer { withExtendedLifetime(lock) {} }

    // Compile, with the rejects report in a temporary file.
    let rejects: RejectLog
    let snapshot: CompiledSnapshot
    do {
      rejects = try RejectLog(directory: URL(fileURLWithPath: store.rejectsDirectory))
    } catch {
      throw .compile(error)
    }
    var pending = PendingFiles()
    pending.add(rejects.url.path)
    defer { pending.removeAll() }
    do {
      snapshot = try compiler.compile(config, rejects: rejects)
      try rejects.finish()
    } catch {
      throw .compile(error)
    }
    let compiled = clock.now

    // Write the full snapshot; identical content publishes nothing.
    let version = (latest?.version ?? 0) + 1
    let pendingPath = pending.add(store.path("snapshots/.pending-\(version).cdir"))
    options.progress?("writing version \(version)")
    let header = try Self.writeSnapshot(
      blocking: snapshot.blocking, identification: snapshot.identification[...], labels: snapshot.labels,
      version: version, to: pendingPath)
    if let latest, latest.digest == header.contentDigest.hex {
      return Result(
        version: latest.version, unchanged: true, snapshotPath: store.path(latest.path),
        bytes: latest.bytes, rejectsPath: nil, statistics: snapshot.statistics, removed: 0)
    }

    var removed = 0
    var warnings: [String] = []
    if let latest {
      do {
        removed = try countRemoved(from: latest, to: pendingPath)
      } catch {
        // A damaged previous blob must not block publishing forever: with
        // --force the guard is skipped, as it would be anyway.
        guard options.force else { throw error }
        warnings.append("removal guard skipped: \(error)")
      }
      let previous = latest.blocking + latest.identification
      if !options.force && Double(removed) > config.maxRemovalRatio * Double(previous) {
        throw .removalGuard(removed: removed, previous: previous, previousVersion: latest.version, limit: config.maxRemovalRatio)
      }
    }

    do {
      var renames: [(from: String, to: String)] = []
      let blobFacts = try FileOperations.facts(of: pendingPath)
      let bases = config.deltaHistory > 0 ? Array(try catalog.allSnapshots().suffix(config.deltaHistory).reversed()) : []

      var deltas: [DeltaRecord] = []
      for base in bases {
        let name = StoreLayout.deltaName(from: base.version, to: version)
        guard let facts = try writeDelta(
          from: store.path(base.path), to: pendingPath, maxBytes: blobFacts.bytes,
          pendingPath: pending.add(store.path("deltas/.pending-\(base.version)-\(version).cdir")),
          description: "version \(base.version)", warnings: &warnings)
        else { continue }
        renames.append((store.path("deltas/.pending-\(base.version)-\(version).cdir"), store.path(name)))
        deltas.append(DeltaRecord(
          fromVersion: base.version, toVersion: version, path: name, bytes: facts.bytes, fileChecksum: facts.checksum))
      }

      let (shards, shardDeltas) = try writeShards(
        of: snapshot, version: version, config: config, latest: latest, bases: bases, catalog: catalog,
        pending: &pending, renames: &renames, warnings: &warnings)
      let written = clock.now

      var sources: [SourceRecordRow] = []
      for report in snapshot.sources {
        let facts = try FileOperations.facts(of: report.spec.path, read: report.summary)
        sources.append(SourceRecordRow(
          position: report.spec.index, path: report.spec.path, format: report.spec.format,
          list: report.spec.list.rawValue, region: report.spec.region, priority: report.spec.priority,
          bytes: facts.bytes, modifiedAt: facts.modifiedAt, checksum: facts.checksum,
          dataLines: report.summary.dataLines, accepted: report.accepted, rejected: report.rejected))
      }

      // Rename everything into place, then publish in one transaction.
      let snapshotName = StoreLayout.snapshotName(version)
      let rejectsName = StoreLayout.rejectsName(version)
      renames.append((rejects.url.path, store.path(rejectsName)))
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
          totalMilliseconds: Self.milliseconds(started, finished)))
      try catalog.record(record, sources: sources, deltas: deltas, shards: shards, shardDeltas: shardDeltas)
      return Result(
        version: version, unchanged: false, snapshotPath: store.path(snapshotName), bytes: blobFacts.bytes,
        rejectsPath: store.path(rejectsName), statistics: statistics, removed: removed,
        deltas: deltas, shards: shards, shardDeltas: shardDeltas, warnings: warnings)
    } catch {
      throw .store(error)
    }
  }

  // MARK: - Shards

  /// Writes the shard blobs and their deltas when the config asks for
  /// sharding and the snapshot needs it (or the previous version was sharded).
  private func writeShards(
    of snapshot: CompiledSnapshot, version: Int, config: BuildConfig, latest: SnapshotRecord?,
    bases: [SnapshotRecord], catalog: Catalog, pending: inout PendingFiles,
    renames: inout [(from: String, to: String)], warnings: inout [String]
  ) throws(StoreError) -> ([ShardRecord], [ShardDeltaRecord]) {
    guard let limit = config.maxEntriesPerExtension else { return ([], []) }
    let previous = try latest.map { record throws(StoreError) in try catalog.shards(ofVersion: record.version) } ?? []
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
        paths.append(pending.add(store.path("snapshots/.pending-\(version)-shard-\(shard).cdir")))
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
    let baseShards = try bases.map { base throws(StoreError) in (base, try catalog.shards(ofVersion: base.version)) }
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
        let deltaPending = pending.add(store.path("deltas/.pending-\(base.version)-\(version)-shard-\(shard).cdir"))
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

  /// How many entries of the latest version the new snapshot (the blob at
  /// `pendingPath`) no longer holds; a relabelled number is not dropped.
  /// Streams both blobs.
  private func countRemoved(from latest: SnapshotRecord, to pendingPath: String) throws(BuildError) -> Int {
    let path = store.path(latest.path)
    do {
      let old = try BlobReader(path: path)
      let new = try BlobReader(path: pendingPath)
      let blocking = try Self.countMissing(old.blocking().next, from: new.blocking().next)
      let oldEntries = try old.identification()
      let newEntries = try new.identification()
      let identification = try Self.countMissing({ try oldEntries.next()?.number }, from: { try newEntries.next()?.number })
      return blocking + identification
    } catch let error as BlobError {
      throw .blob(path: path, error: error)
    } catch {
      throw .store(.io(path: path, reason: "\(error)"))
    }
  }

  /// How many numbers of the ascending sequence `old` the ascending
  /// sequence `new` lacks.
  private static func countMissing(_ old: () throws -> Int64?, from new: () throws -> Int64?) throws -> Int {
    var missing = 0
    var candidate = try new()
    while let number = try old() {
      while let value = candidate, value < number { candidate = try new() }
      if candidate != number { missing += 1 }
    }
    return missing
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
