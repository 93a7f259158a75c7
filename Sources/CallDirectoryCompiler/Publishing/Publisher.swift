import CallDirectoryFormat
import Foundation

/// `calldir build`: compiles a config and publishes the snapshot into a store,
/// safely under cron.
///
/// The order makes every crash harmless: the lock is taken; the blob and the
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

    public init(force: Bool = false, wait: Bool = true, progress: ((String) -> Void)? = nil) {
      self.force = force
      self.wait = wait
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
    do {
      for directory in [store.root, store.snapshotsDirectory, store.deltasDirectory, store.rejectsDirectory] {
        try FileOperations.createDirectory(directory)
      }
    } catch {
      throw .store(error)
    }
    let lock: StoreLock
    let catalog: Catalog
    let latest: SnapshotRecord?
    do {
      lock = try StoreLock(path: store.lock, wait: options.wait)
      catalog = try Catalog(path: store.catalog)
      latest = try catalog.latest()
      removeLeftovers(after: latest?.version ?? 0)
    } catch {
      throw .store(error)
    }
    defer { withExtendedLifetime(lock) {} }

    let rejects: RejectLog
    do {
      rejects = try RejectLog(directory: URL(fileURLWithPath: store.rejectsDirectory))
    } catch {
      throw .compile(error)
    }
    var keepRejects = false
    defer { if !keepRejects { rejects.discard() } }

    let snapshot: CompiledSnapshot
    do {
      snapshot = try compiler.compile(config, rejects: rejects)
      try rejects.finish()
    } catch {
      throw .compile(error)
    }
    let compiled = clock.now

    let version = (latest?.version ?? 0) + 1
    let pendingPath = store.path("snapshots/.pending-\(version).cdir")
    options.progress?("writing version \(version)")
    let header = try write(snapshot, version: version, to: pendingPath)
    var keepPending = false
    defer { if !keepPending { try? FileManager.default.removeItem(atPath: pendingPath) } }
    let written = clock.now

    if let latest, latest.digest == header.contentDigest.hex {
      return Result(
        version: latest.version, unchanged: true, snapshotPath: store.path(latest.path),
        bytes: latest.bytes, rejectsPath: nil, statistics: snapshot.statistics, removed: 0)
    }

    var removed = 0
    if let latest {
      removed = try countRemoved(from: latest, to: snapshot)
      let previous = latest.blocking + latest.identification
      if !options.force && Double(removed) > config.maxRemovalRatio * Double(previous) {
        throw .removalGuard(removed: removed, previous: previous, previousVersion: latest.version, limit: config.maxRemovalRatio)
      }
    }

    do {
      let snapshotName = StoreLayout.snapshotName(version)
      let rejectsName = StoreLayout.rejectsName(version)
      var sources: [SourceRecordRow] = []
      for report in snapshot.sources {
        let facts = try FileOperations.facts(of: report.spec.path)
        sources.append(SourceRecordRow(
          position: report.spec.index, path: report.spec.path, format: report.spec.format,
          list: report.spec.list.rawValue, region: report.spec.region, priority: report.spec.priority,
          bytes: facts.bytes, modifiedAt: facts.modifiedAt, checksum: facts.checksum,
          dataLines: report.summary.dataLines, accepted: report.accepted, rejected: report.rejected))
      }
      let blobFacts = try FileOperations.facts(of: pendingPath)
      var warnings: [String] = []
      let deltas = try publishDeltas(
        to: version, pendingPath: pendingPath, fullBytes: blobFacts.bytes,
        history: config.deltaHistory, catalog: catalog, warnings: &warnings)
      try FileOperations.durableRename(rejects.url.path, to: store.path(rejectsName))
      keepRejects = true
      try FileOperations.durableRename(pendingPath, to: store.path(snapshotName))
      keepPending = true
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
          writeMilliseconds: Self.milliseconds(compiled, written) + Self.milliseconds(written, finished),
          totalMilliseconds: Self.milliseconds(started, finished)))
      try catalog.record(record, sources: sources, deltas: deltas)
      return Result(
        version: version, unchanged: false, snapshotPath: store.path(snapshotName), bytes: blobFacts.bytes,
        rejectsPath: store.path(rejectsName), statistics: statistics, removed: removed,
        deltas: deltas, warnings: warnings)
    } catch {
      throw .store(error)
    }
  }

  /// Writes the snapshot blob to `path` (atomically) and returns its header.
  private func write(_ snapshot: CompiledSnapshot, version: Int, to path: String) throws(BuildError) -> BlobHeader {
    do {
      let writer = try FullSnapshotWriter(path: path, version: UInt64(version), labels: snapshot.labels)
      try snapshot.blocking.forEachSegment { segment in
        if segment.lowerBound == segment.upperBound {
          try writer.appendBlocking(segment.lowerBound)
        } else {
          try writer.appendBlocking(segment)
        }
      }
      for entry in snapshot.identification {
        try writer.appendIdentification(entry.number, labelID: entry.labelID)
      }
      return try writer.finish()
    } catch let error as BlobError {
      throw .blob(path: path, error: error)
    } catch {
      throw .store(.io(path: path, reason: "\(error)"))
    }
  }

  /// How many entries of the latest version the new snapshot no longer holds
  /// (a relabelled number is not dropped), streaming the old blob.
  private func countRemoved(from latest: SnapshotRecord, to snapshot: CompiledSnapshot) throws(BuildError) -> Int {
    let path = store.path(latest.path)
    do {
      let reader = try BlobReader(path: path)
      var removed = 0
      var cursor = NumberSetCursor(snapshot.blocking)
      let blocking = try reader.blocking()
      while let number = try blocking.next() {
        if !cursor.contains(number) { removed += 1 }
      }
      var index = 0
      let identification = try reader.identification()
      while let entry = try identification.next() {
        while index < snapshot.identification.count && snapshot.identification[index].number < entry.number { index += 1 }
        if index == snapshot.identification.count || snapshot.identification[index].number != entry.number { removed += 1 }
      }
      return removed
    } catch let error as BlobError {
      throw .blob(path: path, error: error)
    } catch {
      throw .store(.io(path: path, reason: "\(error)"))
    }
  }

  /// Writes and renames into place the deltas from the last `history`
  /// versions to the new one; a delta larger than the full snapshot is not
  /// published. An earlier blob that cannot be read is skipped with a warning.
  private func publishDeltas(
    to version: Int, pendingPath: String, fullBytes: Int64, history: Int, catalog: Catalog,
    warnings: inout [String]
  ) throws(StoreError) -> [DeltaRecord] {
    guard history > 0 else { return [] }
    let bases = try catalog.allSnapshots().suffix(history).reversed()
    var published: [DeltaRecord] = []
    for base in bases {
      options.progress?("delta \(base.version) → \(version)")
      let name = StoreLayout.deltaName(from: base.version, to: version)
      let pendingDelta = store.path("deltas/.pending-\(base.version)-\(version).cdir")
      let summary: SnapshotDiffer.Summary
      do {
        let old = try BlobReader(path: store.path(base.path))
        let new = try BlobReader(path: pendingPath)
        summary = try SnapshotDiffer.writeDelta(from: old, to: new, path: pendingDelta)
      } catch {
        try? FileManager.default.removeItem(atPath: pendingDelta)
        warnings.append("no delta from version \(base.version): \(error)")
        continue
      }
      guard summary.bytes <= fullBytes else {
        try? FileManager.default.removeItem(atPath: pendingDelta)
        continue
      }
      let facts = try FileOperations.facts(of: pendingDelta)
      try FileOperations.durableRename(pendingDelta, to: store.path(name))
      published.append(DeltaRecord(
        fromVersion: base.version, toVersion: version, path: name, bytes: facts.bytes, fileChecksum: facts.checksum))
    }
    return published
  }

  /// Removes files that a run which died before its catalog transaction left:
  /// temporary and pending files, and anything numbered after the latest version.
  private func removeLeftovers(after latestVersion: Int) {
    let manager = FileManager.default
    for directory in [store.snapshotsDirectory, store.deltasDirectory, store.rejectsDirectory] {
      guard let names = try? manager.contentsOfDirectory(atPath: directory) else { continue }
      for name in names {
        let versions = name.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        if name.hasPrefix(".") || versions.contains(where: { $0 > latestVersion }) {
          try? manager.removeItem(atPath: directory + "/" + name)
        }
      }
    }
  }

  private static func milliseconds(_ start: ContinuousClock.Instant, _ end: ContinuousClock.Instant) -> Int64 {
    let duration = end - start
    return duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
  }
}
