import CallDirectoryCompiler
import CallDirectoryFormat
import CallDirectorySync
import CalldirSystem
import Sodium

/// `calldir build`: compiles a config and publishes the snapshot into a store,
/// safely under cron.
///
/// The order makes every crash harmless and gives a version number one
/// content forever: the lock is taken; blobs and reports are written under
/// pending names (``StoreLayout/pendingName(for:)``) and synced; one catalog
/// transaction records the version; only then are the files renamed to
/// their published names. A run that died before its transaction leaves
/// only pending files, which the next run removes; one that died after it
/// leaves a recorded version whose files the next run puts in place
/// (checking each blob against the catalog first). Nothing else is ever
/// removed, and a store whose published files the catalog does not know
/// (a lost or restored catalog) is refused until `calldir repair`.
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
    /// The key that signs the manifest, overriding the config's `signingKey`.
    public var signingKey: String? = nil
    /// The build's reference date (`--as-of`): complaint reports are
    /// weighed as of this day. Recorded with the version.
    public var asOf: CalendarDay
    /// When the version counts as published (ISO 8601 UTC), in the catalog
    /// and the manifest; nil for the moment the catalog records it. A
    /// build given `--as-of` publishes at that day's midnight (UTC), so
    /// that a rebuild of the same inputs publishes the same bytes, the
    /// manifest and its signature included.
    public var publishedAt: String?

    public init(
      force: Bool = false, wait: Bool = true, dryRun: Bool = false, memoryLimit: Int = MemoryLimit.defaultBytes(),
      signingKey: String? = nil, asOf: CalendarDay = .today(), publishedAt: String? = nil,
      progress: ((String) -> Void)? = nil
    ) {
      self.asOf = asOf
      self.publishedAt = publishedAt
      self.force = force
      self.wait = wait
      self.dryRun = dryRun
      self.memoryLimit = memoryLimit
      self.signingKey = signingKey
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
    /// Which entries each Call Directory extension holds (one, when the
    /// snapshot is not sharded).
    public var extensions: [ExtensionPlan] = []
    /// The manifest written (`STORE/manifest.json`), nil for a dry run.
    public var manifestPath: String? = nil
    /// The manifest's signature, when a key signed it.
    public var signaturePath: String? = nil
    /// When the manifest expires (`manifestLifetimeDays`), nil when never.
    public var manifestExpires: String? = nil
    /// Problems that did not stop the build (e.g. an earlier blob that is gone).
    public var warnings: [String] = []

    /// The guards that did not pass (a dry run reports them; a build
    /// throws ``BuildError/refused(_:rejectsPath:conflictsPath:)``).
    public var refusals: [BuildRefusal] { guards.compactMap(\.refusal) }
  }

  public let configPath: String
  public let store: StoreLayout
  public var options: Options
  /// How sources are read and compiled; nil for the standard compiler,
  /// made when ``build()`` starts (its numbering plan is parsed on another
  /// core while the config loads and the store opens).
  public var compiler: SnapshotCompiler?

  public init(configPath: String, store: StoreLayout, options: Options = Options(), compiler: SnapshotCompiler? = nil) {
    self.configPath = configPath
    self.store = store
    self.options = options
    self.compiler = compiler
  }

  /// The compiler a build uses, with the options' settings.
  private func makeCompiler() -> SnapshotCompiler {
    var compiler = self.compiler ?? SnapshotCompiler()
    compiler.progress = options.progress
    compiler.memoryLimit = options.memoryLimit
    compiler.spillDirectory = options.dryRun ? store.dryRunDirectory : store.snapshotsDirectory
    compiler.asOf = options.asOf
    return compiler
  }

  /// Runs the build.
  public func build() throws(BuildError) -> Result {
    let started = MonotonicInstant.now()
    var warnings: [String] = []
    // The standard compiler's numbering plan takes milliseconds to parse:
    // it is made on another core while the config loads and the store opens
    // (which mostly waits for the disk when the catalog is new).
    var madeCompiler: SnapshotCompiler?
    var setUp: Swift.Result<
      (config: BuildConfig, key: Ed25519.KeyPair?, liveCallerID: LiveCallerIDRecording?, opened: OpenStore), BuildError
    >?
    Parallel.run(background: { madeCompiler = makeCompiler() }) {
      setUp = Swift.Result { () throws(BuildError) in
        let config: BuildConfig
        do throws(ConfigError) {
          config = try BuildConfig.load(contentsOf: configPath, checkFiles: false)
        } catch {
          throw .config(error)
        }
        // The key and the dates are checked before the store is opened (or created).
        let key = try (options.signingKey ?? config.signingKey).map { path throws(BuildError) in
          do throws(SigningKeyError) {
            return try SigningKey.load(path)
          } catch {
            throw .signingKey(error)
          }
        }
        _ = try manifestExpiry(config: config)
        // The icons are read and checked before the store is opened too.
        let liveCallerID: LiveCallerIDRecording?
        do throws(ConfigError) {
          liveCallerID = try LiveCallerIDRecording(config: config)
        } catch {
          throw .config(error)
        }
        return (config, key, liveCallerID, try openStore(warnings: &warnings))
      }
    }
    guard let setUp, let compiler = madeCompiler else {
      throw .store(.catalog("internal error: the build did not set up"))
    }
    let (config, key, liveCallerID, opened) = try setUp.get()
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
    let version = opened.highestVersion + 1
    if let latest, !latest.dataset.isEmpty, latest.dataset != config.dataset {
      throw .store(.datasetChanged(store: store.root, published: latest.dataset, configured: config.dataset))
    }

    // Compile, with the reports in temporary files.
    var pending = PendingFiles()
    defer { pending.removeAll() }
    // The blobs and reports are renamed to their pending names as they are
    // finished; they and their directories are synced once, before the
    // catalog transaction that refers to them.
    let pendingSyncs = FileSystem.DeferredSyncs()
    let reportDirectory = options.dryRun ? store.dryRunDirectory : store.rejectsDirectory
    let rejects: RejectLog
    let conflicts: ConflictLog
    let snapshot: CompiledSnapshot
    do {
      rejects = try RejectLog(directory: reportDirectory)
      pending.add(rejects.path)
      conflicts = try ConflictLog(
        directory: reportDirectory,
        paths: Dictionary(config.sources.map { ($0.index, $0.writtenPath) }, uniquingKeysWith: { first, _ in first }))
      pending.add(conflicts.path)
      snapshot = try compiler.compile(config, rejects: rejects, conflicts: conflicts, absent: absent)
      try rejects.finish()
      try conflicts.finish()
    } catch {
      throw .compile(error)
    }
    let compiled = MonotonicInstant.now()
    var checks = guards.sourceChecks(snapshot.sources)
    for source in snapshot.sources {
      for (column, values) in source.summary.unmatchedFilterValues.sorted(by: { $0.key < $1.key }) {
        let listed = values.map { "'\($0)'" }.joined(separator: ", ")
        warnings.append(
          "\(source.spec.keyPath) (\(source.spec.writtenPath)): no row holds \(listed) in column '\(column)' "
            + "(a value of 'where' or 'operators' mistyped?)")
      }
    }

    // Write the full snapshot, and on another core the shard blobs when the
    // version needs them; identical content publishes nothing.
    let snapshotName = StoreLayout.snapshotName(version)
    let pendingPath = pending.add(pendingLocation(for: snapshotName))
    var shardBlobs = ShardBlobs(
      previous: try latest.map { record throws(BuildError) in
        try storeCall { () throws(StoreError) in try catalog?.shards(ofVersion: record.version) ?? [] }
      } ?? [])
    options.progress?("writing version \(version)")
    var fullSnapshot: Swift.Result<BlobHeader, BuildError>?
    // With shards, the full blob is read back for the catalog while they
    // are still being written.
    var fullFacts: FileFacts?
    func writeFull(readingBack: Bool) {
      fullSnapshot = Swift.Result { () throws(BuildError) in
        let header = try Self.writeSnapshot(
          blocking: snapshot.blocking, identification: snapshot.identification[...], labels: snapshot.labels,
          spilledIdentification: snapshot.spilledIdentification, version: version, dataset: config.dataset,
          to: pendingPath, deferringSyncsTo: pendingSyncs, hashingAside: !readingBack)
        if readingBack { fullFacts = try? FileFacts.of(pendingPath) }
        return header
      }
    }
    if shardBlobs.needed(for: snapshot, config: config) {
      Parallel.run(
        background: {
          shardBlobs.write(
            of: snapshot, version: version, config: config, directory: store.snapshotsDirectory,
            at: pendingLocation(for:), deferringSyncsTo: pendingSyncs)
        },
        foreground: { writeFull(readingBack: true) })
      for path in shardBlobs.paths { pending.add(path) }
      shardBlobs.readBack()
    } else {
      writeFull(readingBack: false)
    }
    guard let fullSnapshot else { throw .store(.file(FileError(operation: "write", path: pendingPath, errno: .ioError))) }
    let header = try fullSnapshot.get()
    // With liveCallerID, what the export needs besides the entries: a
    // version whose entries are unchanged is published all the same when
    // these changed.
    let identities = try liveCallerID.map { recording throws(BuildError) in
      try storeCall { () throws(StoreError) in
        try recording.details(of: snapshot, version: version, digest: header.contentDigest)
      }
    }
    if let latest, latest.digest == header.contentDigest.hex, latest.liveCallerID == liveCallerID?.settingsText,
      latest.identitiesDigest == identities?.digest, !checks.contains(where: { !$0.passed })
    {
      var result = Result(
        version: latest.version, unchanged: true, dryRun: options.dryRun, snapshotPath: store.path(latest.path),
        bytes: latest.bytes, rejectsPath: nil, statistics: snapshot.statistics, removed: 0,
        changes: ListChanges(), sources: snapshot.sources, guards: checks, warnings: warnings)
      let shards = try storeCall { () throws(StoreError) in
        try catalog.map { catalog throws(StoreError) in try catalog.shards(ofVersion: latest.version) } ?? []
      }
      result.shards = shards
      result.extensions = ExtensionPlan.plan(
        shards: shards, blocking: latest.blocking, identification: latest.identification)
      if let catalog {
        // What a device one version behind the latest version reloads: a
        // report, which never fails the build (nil when it cannot be read).
        let earlier = try? catalog.allSnapshots().filter { $0.version < latest.version }.max { $0.version < $1.version }
        let held = earlier.flatMap { try? ReloadForecast.held(at: $0, catalog: catalog) }
        let manifest: Manifest?
        if options.dryRun {
          manifest = held == nil
            ? nil
            : try? ManifestPublisher(store: store, catalog: catalog).manifest(
              of: latest, fullEvery: config.fullEvery, expires: nil)
        } else {
          manifest = try storeCall { () throws(StoreError) in
            try publishManifest(of: latest, config: config, key: key, catalog: catalog, into: &result)
          }
        }
        if let manifest, let held {
          result.extensions = ReloadForecast.apply(
            to: result.extensions, manifest: manifest.extensions, version: latest.version, previous: held)
        }
      }
      return result
    }

    // The previous version is measured (and used as a delta base) only when
    // its blob is the one the catalog recorded.
    var changes: ListChanges?
    var bases: [SnapshotRecord] = []
    if let latest {
      do {
        try verify(latest)
        changes = try countChanges(from: latest, to: pendingPath)
        checks += guards.listChecks(changes ?? ListChanges())
      } catch {
        // A damaged previous blob must not block publishing forever: with
        // --force the list guard is skipped and no delta is built on it.
        // A blob that cannot be read (an I/O error) stops the build.
        guard options.force, !Self.isIOFailure(error) else { throw error }
        warnings.append("the removal guard and the deltas from version \(latest.version) are skipped: \(error)")
      }
    }
    let refusals = checks.compactMap(\.refusal)
    if !refusals.isEmpty && !options.force && !options.dryRun {
      throw refuse(
        refusals, version: version, rejects: rejects.path, conflicts: conflicts.path, catalog: catalog,
        pending: &pending)
    }
    if !refusals.isEmpty && options.force && !options.dryRun {
      warnings += refusals.map { "published with --force past a guard: \($0.finding)" }
    }

    do throws(StoreError) {
      var renames: [(from: String, to: String)] = []
      // Without shards the manifest lists the full blob, with its SHA-256.
      let blobFacts: FileFacts
      if let fullFacts {
        blobFacts = fullFacts
      } else {
        blobFacts = try FileFacts.of(pendingPath, withSHA256: shardBlobs.paths.isEmpty)
      }
      if config.deltaHistory > 0 {
        let candidates = (try catalog.map { catalog throws(StoreError) in try catalog.allSnapshots() } ?? [])
          .filter { $0.prunedAt == nil }
        for base in candidates.suffix(config.deltaHistory).reversed() {
          do {
            try verify(base)
            bases.append(base)
          } catch {
            // A damaged or replaced base gets no delta; one that cannot be
            // read stops the build, which would otherwise publish the
            // version without the deltas it should have.
            if Self.isIOFailure(error) { throw Self.storeError(error) }
            warnings.append("no deltas from version \(base.version): \(error)")
          }
        }
      }

      // A delta from each base whose content differs (a device that holds
      // the content needs no file at all), when a device would load it.
      var deltas: [DeltaRecord] = []
      var deltaChanges: [String: DeltaChanges] = [:]
      for base in bases where base.digest != header.contentDigest.hex {
        let name = StoreLayout.deltaName(from: base.version, to: version)
        let deltaPending = pending.add(pendingLocation(for: name))
        guard let written = try writeDelta(
          from: store.path(base.path), to: pendingPath,
          fullEntries: snapshot.statistics.blocking + snapshot.statistics.identification, pendingPath: deltaPending,
          description: "version \(base.version)", deferringSyncsTo: pendingSyncs, warnings: &warnings)
        else { continue }
        renames.append((deltaPending, store.path(name)))
        deltas.append(DeltaRecord(
          fromVersion: base.version, toVersion: version, path: name, bytes: written.facts.bytes,
          fileChecksum: written.facts.checksum))
        deltaChanges[name] = written.changes
      }

      let (shards, shardDeltas) = try recordShards(
        shardBlobs, version: version, bases: bases, catalog: catalog, pending: &pending, renames: &renames,
        deltaChanges: &deltaChanges, deferringSyncsTo: pendingSyncs, warnings: &warnings)
      // The identity details go beside the snapshot, under a pending name
      // like it; the icons into the store under their SHA-256.
      var identitiesFacts: FileFacts?
      let identitiesName = StoreLayout.identitiesName(version)
      if let identities, !options.dryRun {
        let identitiesPending = pending.add(pendingLocation(for: identitiesName))
        identitiesFacts = try identities.write(to: identitiesPending, deferringSyncsTo: pendingSyncs)
        renames.append((identitiesPending, store.path(identitiesName)))
      }
      let written = MonotonicInstant.now()

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

      var result = Result(
        version: version, unchanged: false, dryRun: options.dryRun, snapshotPath: store.path(snapshotName),
        bytes: blobFacts.bytes, rejectsPath: nil, conflictsPath: nil, statistics: snapshot.statistics,
        removed: (changes?.blockingRemoved ?? 0) + (changes?.identificationRemoved ?? 0), changes: changes,
        sources: snapshot.sources, guards: checks, deltas: deltas, shards: shards, shardDeltas: shardDeltas,
        extensions: ExtensionPlan.plan(
          shards: shards, blocking: snapshot.statistics.blocking, identification: snapshot.statistics.identification),
        warnings: warnings)
      if options.dryRun {
        // What a device one version behind would reload, from what the
        // manifest would say.
        if let latest {
          let planned = ReloadForecast.extensions(
            record: (version, header.contentDigest.hex, snapshot.statistics.blocking, snapshot.statistics.identification),
            path: snapshotName, bytes: blobFacts.bytes, deltas: deltas, shards: shards, shardDeltas: shardDeltas,
            changes: deltaChanges)
          result.extensions = ReloadForecast.apply(
            to: result.extensions, manifest: planned, version: version,
            previous: ReloadForecast.held(at: latest, shards: shardBlobs.previous))
        }
        // Keep the reports; every blob goes with the pending files.
        for (report, name) in [(rejects.path, StoreLayout.dryRunRejectsName), (conflicts.path, StoreLayout.dryRunConflictsName)] {
          try rename(report, to: store.path(name))
        }
        result.rejectsPath = store.path(StoreLayout.dryRunRejectsName)
        result.conflictsPath = store.path(StoreLayout.dryRunConflictsName)
        return result
      }

      // Every file is complete under its pending name; the reports go there too.
      let rejectsName = StoreLayout.rejectsName(version)
      let conflictsName = StoreLayout.conflictsName(version)
      for (report, name) in [(rejects.path, rejectsName), (conflicts.path, conflictsName)] {
        let reportPending = pending.add(pendingLocation(for: name))
        try rename(report, to: reportPending, deferringSyncTo: pendingSyncs)
        renames.append((reportPending, store.path(name)))
      }
      renames.append((pendingPath, store.path(snapshotName)))

      // The version exists once the catalog says so, and only then do its
      // files take their published names.
      let finished = MonotonicInstant.now()
      let statistics = snapshot.statistics
      let record = SnapshotRecord(
        version: version, createdAt: options.publishedAt ?? UTCTime.iso8601(UTCTime.now()), path: snapshotName,
        bytes: blobFacts.bytes, digest: header.contentDigest.hex, fileChecksum: blobFacts.checksum,
        blocking: statistics.blocking, identification: statistics.identification, labels: statistics.labels,
        rejected: statistics.rejected, conflicts: statistics.conflicts, allowed: statistics.allowed,
        duplicates: statistics.duplicates, rejectsPath: rejectsName, configPath: _absolutePath(configPath),
        forced: options.force,
        timings: BuildTimings(
          readMilliseconds: snapshot.readMilliseconds,
          compileMilliseconds: compiled.milliseconds(since: started) - snapshot.readMilliseconds,
          writeMilliseconds: written.milliseconds(since: compiled),
          totalMilliseconds: finished.milliseconds(since: started)),
        changes: changes, conflictsPath: conflictsName, maxRangeSize: config.maxRangeSize, dataset: config.dataset,
        asOf: options.asOf.iso8601, defaultRegion: config.defaultRegion, liveCallerID: liveCallerID?.settingsText,
        identitiesPath: identitiesFacts == nil ? nil : identitiesName, identitiesChecksum: identitiesFacts?.checksum,
        identitiesDigest: identitiesFacts == nil ? nil : identities?.digest)
      guard let catalog else { throw StoreError.catalog("no catalog is open") }
      do {
        try pendingSyncs.syncAll()
      } catch {
        throw StoreError.file(error)
      }
      try liveCallerID?.keepIcons(in: store)
      Catalog.checkPublishedInvariants(
        record, highestBefore: opened.highestVersion, deltas: deltas, shards: shards, shardDeltas: shardDeltas)
      try catalog.record(
        record, sources: sources, rejectReasons: rejectReasons, deltas: deltas, shards: shards,
        shardDeltas: shardDeltas)
      pending.forgetAll()
      // Put in place, each directory synced once, before the manifest
      // that points to them.
      let publishedSyncs = FileSystem.DeferredSyncs()
      for (from, to) in renames {
        do {
          try rename(from, to: to, deferringSyncTo: publishedSyncs)
        } catch {
          throw StoreError.file(FileError(
            operation: "put version \(version) in place:", path: to, errno: .ioError,
            detail: "\(error); the version is recorded, and the next build (or 'calldir repair') puts its files "
              + "in place"))
        }
      }
      do {
        try publishedSyncs.syncAll()
      } catch {
        throw StoreError.file(FileError(
          operation: "put version \(version) in place:", path: error.path, errno: error.errno,
          detail: "\(error); the version is recorded, and the next build (or 'calldir repair') puts its files "
            + "in place"))
      }
      result.rejectsPath = store.path(rejectsName)
      result.conflictsPath = store.path(conflictsName)
      // The blobs this build wrote were read back once written: their
      // checksums and SHA-256 serve the manifest without another read.
      var readBack = [snapshotName: blobFacts]
      for (index, facts) in shardBlobs.facts.enumerated() {
        readBack[StoreLayout.snapshotName(version, shard: index + 1)] = facts
      }
      let manifest = try publishManifest(
        of: record, config: config, key: key, catalog: catalog, readBack: readBack, into: &result)
      // What a device one version behind reloads, from the manifest it reads.
      if let latest {
        result.extensions = ReloadForecast.apply(
          to: result.extensions, manifest: manifest.extensions, version: version,
          previous: ReloadForecast.held(at: latest, shards: shardBlobs.previous))
      }
      return result
    } catch {
      throw .store(error)
    }
  }

  /// Writes the manifest of `record` (the latest version) and its
  /// signature, last; returns the manifest.
  @discardableResult
  private func publishManifest(
    of record: SnapshotRecord, config: BuildConfig, key: Ed25519.KeyPair?, catalog: Catalog,
    readBack: [String: FileFacts] = [:], into result: inout Result
  ) throws(StoreError) -> Manifest {
    let publisher = ManifestPublisher(store: store, catalog: catalog, readBack: readBack)
    let expires: String?
    do throws(BuildError) {
      expires = try manifestExpiry(config: config)
    } catch {
      throw .catalog("\(error)")
    }
    let manifest = try publisher.manifest(of: record, fullEvery: config.fullEvery, expires: expires)
    try publisher.publish(manifest, key: key)
    result.manifestPath = store.path(StoreLayout.manifestName)
    result.manifestExpires = expires
    result.signaturePath = key == nil ? nil : store.path(StoreLayout.manifestSignatureName)
    return manifest
  }

  /// When the manifest expires (`manifestLifetimeDays` after the version
  /// is published: `--as-of`'s midnight, or now), nil when never.
  /// - Throws: ``BuildError/dateOutOfRange(_:)`` when that time, or the
  ///   publication itself, cannot be written with a four-digit year
  ///   (``UTCTime``): every device would refuse the manifest as malformed.
  private func manifestExpiry(config: BuildConfig) throws(BuildError) -> String? {
    let published = options.publishedAt.flatMap(UTCTime.parseTimestamp) ?? UTCTime.now()
    let asOf = options.publishedAt == nil ? "the clock (\(UTCTime.iso8601(published)))" : "--as-of \(options.asOf.iso8601)"
    guard UTCTime.isRepresentable(published) else {
      throw .dateOutOfRange("\(asOf) is not a date a manifest can carry (years 0001 to 9999); nothing was published")
    }
    guard let days = config.manifestLifetimeDays else { return nil }
    guard let expires = UTCTime.checkedISO8601(published + Int64(days) * 86_400) else {
      throw .dateOutOfRange(
        "\(asOf) with manifestLifetimeDays \(days) makes the manifest expire after \(UTCTime.iso8601(UTCTime.latest)), "
          + "the latest time a manifest can carry (a four-digit year), and every device would refuse it; "
          + "nothing was published (give an earlier --as-of)")
    }
    return expires
  }

  /// Where a file to be published under `name` is written first: its
  /// pending name, or for a dry run a scratch name under `dry-run/`.
  private func pendingLocation(for name: String) -> String {
    options.dryRun
      ? store.dryRunDirectory + "/.scratch-\(CurrentProcess.id)-" + FileSystem.fileName(of: name)
      : store.path(StoreLayout.pendingName(for: name))
  }

  private func rename(
    _ from: String, to: String, deferringSyncTo deferred: FileSystem.DeferredSyncs? = nil
  ) throws(StoreError) {
    do {
      try FileSystem.durableRename(from, to: to, deferringSyncTo: deferred)
    } catch {
      throw .file(error)
    }
  }

  /// Throws unless the blob of `record` is the one the catalog recorded:
  /// its size and CRC-32C, and its header's version and content digest.
  private func verify(_ record: SnapshotRecord) throws(BuildError) {
    let path = store.path(record.path)
    let facts = try storeCall { () throws(StoreError) in try FileFacts.ofPublished(path) }
    guard facts.bytes == record.bytes, facts.checksum == record.fileChecksum else {
      throw .store(.fileMismatch(
        path: path, problem: "\(facts.bytes) bytes with \(facts.checksum), the catalog recorded \(record.bytes) "
          + "bytes with \(record.fileChecksum)"))
    }
    let header: BlobHeader
    do {
      header = try BlobReader.readHeader(path: path)
    } catch {
      throw .blob(path: path, error: error)
    }
    guard header.version == UInt64(record.version), header.contentDigest.hex == record.digest else {
      throw .store(.fileMismatch(
        path: path, problem: "its header names version \(header.version) with digest \(header.contentDigest.hex)"))
    }
  }

  // MARK: - The store

  /// The lock (a real build's), the catalog, its latest version and the
  /// highest version number ever used.
  private struct OpenStore {
    var lock: StoreLock?
    var catalog: Catalog?
    var latest: SnapshotRecord?
    var highestVersion = 0
  }

  /// A real build creates the store, takes its lock, opens (or creates) the
  /// catalog, puts in place the files of a version whose build died after
  /// its catalog transaction, and removes what builds that died before it
  /// left; a dry run only makes its own directory and reads the catalog, if
  /// there is one. Either refuses a store holding published files its
  /// catalog does not know.
  private func openStore(warnings: inout [String]) throws(BuildError) -> OpenStore {
    try storeCall { () throws(StoreError) in
      if options.dryRun {
        try createDirectory(store.dryRunDirectory)
        let catalog: Catalog
        do throws(StoreError) {
          catalog = try Catalog.openForReading(store)
        } catch {
          guard case .noCatalog = error else { throw error }
          let onDisk = store.highestPublishedVersion()
          if onDisk > 0 { throw StoreError.catalogMissing(store: store.root, highestVersion: onDisk) }
          return OpenStore()
        }
        let opened = OpenStore(catalog: catalog, latest: try catalog.latest(), highestVersion: try catalog.highestVersion())
        try checkKnown(opened)
        return opened
      }
      for directory in [
        store.root, store.snapshotsDirectory, store.deltasDirectory, store.rejectsDirectory, store.refusedDirectory,
      ] {
        try createDirectory(directory)
      }
      let lock = try StoreLock(path: store.lock, wait: options.wait)
      // A store with published files and no catalog is refused before a
      // catalog is created, so that the store stays as it was.
      // (A catalog whose status cannot be read is an I/O error, not a missing one.)
      let hadCatalog: Bool
      do throws(FileError) {
        hadCatalog = (try FileSystem.statusIfPresent(store.catalog)?.size ?? 0) > 0
      } catch {
        throw StoreError.file(error)
      }
      if !hadCatalog, store.highestPublishedVersion() > 0 {
        throw StoreError.catalogMissing(store: store.root, highestVersion: store.highestPublishedVersion())
      }
      let catalog = try Catalog(path: store.catalog)
      var opened = OpenStore(lock: lock, catalog: catalog, latest: try catalog.latest())
      opened.highestVersion = try catalog.highestVersion()
      if let latest = opened.latest { warnings += try putInPlace(latest, catalog: catalog) }
      if opened.highestVersion == 0, store.highestPublishedVersion() > 0 {
        throw StoreError.catalogMissing(store: store.root, highestVersion: store.highestPublishedVersion())
      }
      try checkKnown(opened)
      removePendingFiles()
      return opened
    }
  }

  /// Throws when the store holds published files of a version above every
  /// version the catalog knows.
  private func checkKnown(_ opened: OpenStore) throws(StoreError) {
    let onDisk = store.highestPublishedVersion()
    guard onDisk > opened.highestVersion else { return }
    if opened.highestVersion == 0 { throw .catalogMissing(store: store.root, highestVersion: onDisk) }
    throw .catalogBehind(store: store.root, known: opened.highestVersion, onDisk: onDisk)
  }

  /// Renames the pending files of `record` (a recorded version) that are
  /// not at their published names yet; a blob goes in place only when its
  /// checksum is the catalog's. Returns a warning per file it could not place.
  private func putInPlace(_ record: SnapshotRecord, catalog: Catalog) throws(StoreError) -> [String] {
    var files: [(name: String, checksum: String?)] = [(record.path, record.fileChecksum), (record.rejectsPath, nil)]
    if let conflicts = record.conflictsPath { files.append((conflicts, nil)) }
    if let identities = record.identitiesPath { files.append((identities, record.identitiesChecksum)) }
    files += try catalog.shards(ofVersion: record.version).map { ($0.path, $0.fileChecksum) }
    files += try catalog.deltas(toVersion: record.version).map { ($0.path, $0.fileChecksum) }
    files += try catalog.shardDeltas(toVersion: record.version).map { ($0.path, $0.fileChecksum) }
    var warnings: [String] = []
    for file in files where !FileSystem.exists(store.path(file.name)) {
      let pendingPath = store.path(StoreLayout.pendingName(for: file.name))
      guard FileSystem.exists(pendingPath) else {
        warnings.append("\(store.path(file.name)) of version \(record.version) is missing")
        continue
      }
      // A pending file that cannot be read is an I/O error (thrown), not
      // a damaged file.
      if let checksum = file.checksum, try FileFacts.of(pendingPath).checksum != checksum {
        warnings.append("\(pendingPath) does not match the catalog's checksum; left where it is")
        continue
      }
      try rename(pendingPath, to: store.path(file.name))
    }
    return warnings
  }

  /// Removes the dot files (pending, temporary and spilled files) that a
  /// build which died before its catalog transaction left. Published files
  /// are never touched.
  private func removePendingFiles() {
    for directory in [store.snapshotsDirectory, store.deltasDirectory, store.rejectsDirectory, store.iconsDirectory] {
      for name in (try? FileSystem.contentsOfDirectory(directory)) ?? [] where name.hasPrefix(".") {
        try? FileSystem.removeFile(directory + "/" + name)
      }
    }
  }

  private func createDirectory(_ path: String) throws(StoreError) {
    do {
      try FileSystem.createDirectory(path)
    } catch {
      throw .file(error)
    }
  }

  /// The sources whose files are gone although the previous version read
  /// numbers from them: the build goes on without them (and a guard
  /// refuses it unless `--force`). Any other missing file is an error.
  private func absentSources(of config: BuildConfig, previous: [SourceRecordRow]) throws(BuildError) -> Set<Int> {
    var absent: Set<Int> = []
    for spec in config.sources {
      let status: FileStatus?
      do {
        status = try FileSystem.statusIfPresent(spec.path)
      } catch {
        throw .compile(.source(.file(error)))
      }
      // A named pipe or a device cannot be read twice (checksum, then
      // numbers) and may never end: only regular files are sources.
      if let kind = status?.kind, kind != .regular {
        throw .config(.notAFile(keyPath: "\(spec.keyPath).path", path: spec.path, kind: kind.description))
      }
      guard status == nil else { continue }
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
    if (try? FileSystem.durableRename(rejects, to: store.path(StoreLayout.refusedRejectsName(version)))) != nil {
      kept.rejects = store.path(StoreLayout.refusedRejectsName(version))
    }
    if (try? FileSystem.durableRename(conflicts, to: store.path(StoreLayout.refusedConflictsName(version)))) != nil {
      kept.conflicts = store.path(StoreLayout.refusedConflictsName(version))
    }
    // Dated as a version would be: at --as-of's midnight when given.
    let now = options.publishedAt ?? UTCTime.iso8601(UTCTime.now())
    for refusal in refusals {
      // The refusal stands whether or not the catalog can keep a note of it.
      try? catalog?.record(refusal: RefusalRecord(
        attemptedAt: now, version: version, kind: refusal.kind.rawValue, message: refusal.message,
        source: refusal.source, rejectsPath: kept.rejects == nil ? nil : StoreLayout.refusedRejectsName(version)))
    }
    return .refused(refusals, rejectsPath: kept.rejects, conflictsPath: kept.conflicts)
  }

  // MARK: - Shards

  /// Records the shard blobs written with the full snapshot (renamed into
  /// place with it) and writes their deltas from the bases' shards.
  private func recordShards(
    _ blobs: ShardBlobs, version: Int, bases: [SnapshotRecord], catalog: Catalog?, pending: inout PendingFiles,
    renames: inout [(from: String, to: String)], deltaChanges: inout [String: DeltaChanges],
    deferringSyncsTo deferredSyncs: FileSystem.DeferredSyncs, warnings: inout [String]
  ) throws(StoreError) -> ([ShardRecord], [ShardDeltaRecord]) {
    if let failure = blobs.failure { throw failure }
    let (lowers, paths, written) = (blobs.lowers, blobs.paths, blobs.written)
    guard !lowers.isEmpty else { return ([], []) }
    var shards: [ShardRecord] = []
    var shardDeltas: [ShardDeltaRecord] = []
    let baseShards = try bases.map { base throws(StoreError) in
      (base, try catalog.map { catalog throws(StoreError) in try catalog.shards(ofVersion: base.version) } ?? [])
    }
    for (index, bounds) in shardBounds(lowers).enumerated() {
      let shard = index + 1
      let pendingPath = paths[index]
      let facts = index < blobs.facts.count ? blobs.facts[index] : try FileFacts.of(pendingPath)
      let name = StoreLayout.snapshotName(version, shard: shard)
      let digest = written[index].header.contentDigest.hex
      renames.append((pendingPath, store.path(name)))
      shards.append(ShardRecord(
        version: version, shard: shard, lowerBound: bounds.lowerBound, upperBound: bounds.upperBound, path: name,
        bytes: facts.bytes, digest: digest, fileChecksum: facts.checksum,
        blocking: written[index].blocking, identification: written[index].identification))
      // An unchanged shard (the base's content digest) needs no delta: a
      // device that holds it reloads nothing.
      for (base, baseShardList) in baseShards {
        guard let baseShard = baseShardList.first(where: { $0.shard == shard }), baseShard.digest != digest else {
          continue
        }
        let deltaName = StoreLayout.deltaName(from: base.version, to: version, shard: shard)
        let deltaPending = pending.add(pendingLocation(for: deltaName))
        guard let delta = try writeDelta(
          from: store.path(baseShard.path), to: pendingPath,
          fullEntries: written[index].blocking + written[index].identification, pendingPath: deltaPending,
          description: "version \(base.version) shard \(shard)", deferringSyncsTo: deferredSyncs,
          warnings: &warnings)
        else { continue }
        renames.append((deltaPending, store.path(deltaName)))
        shardDeltas.append(ShardDeltaRecord(
          fromVersion: base.version, toVersion: version, shard: shard, path: deltaName, bytes: delta.facts.bytes,
          fileChecksum: delta.facts.checksum))
        deltaChanges[deltaName] = delta.changes
      }
    }
    return (shards, shardDeltas)
  }

  // MARK: - Blobs

  /// Writes a full snapshot blob to `path` (atomically) and returns its
  /// header; the sync of its directory is left to `deferredSyncs`.
  /// - Parameter hashingAside: Whether the content digest may take a core
  ///   of its own (false while the shard blobs are written alongside).
  static func writeSnapshot(
    blocking: BlockingEntries, identification: ArraySlice<LabeledNumber>, labels: [String],
    spilledIdentification: SpilledIdentification? = nil, version: Int,
    dataset: String = "", to path: String, deferringSyncsTo deferredSyncs: FileSystem.DeferredSyncs,
    hashingAside: Bool
  ) throws(BuildError) -> BlobHeader {
    do {
      let writer = try FullSnapshotWriter(
        sink: FileBlobSink(path: path, deferringSyncsTo: deferredSyncs), version: UInt64(version),
        labels: spilledIdentification == nil ? labels : nil, dataset: dataset)
      if let spilledIdentification { try writer.setLabels(streaming: spilledIdentification.allLabels) }
      try blocking.forEachChunk(
        singles: { try writer.appendBlocking(ascending: $0, hashingAside: hashingAside) },
        range: { try writer.appendBlocking($0) })
      if let spilled = spilledIdentification {
        // Streamed from the spilled entries, each with its label's bytes.
        let cursor = try spilled.cursor()
        while let number = cursor.number {
          try writer.appendIdentification(number, labelID: spilled.used.place(of: cursor.rank), label: cursor.label)
          try cursor.advance()
        }
      }
      for entry in identification {
        try writer.appendIdentification(entry.number, labelID: entry.labelID)
      }
      return try writer.finish()
    } catch let error as BlobError {
      throw .blob(path: path, error: error)
    } catch let error as CompileError {
      throw .compile(error)
    } catch {
      throw .store(.file(FileError(operation: "write", path: path, errno: .ioError, detail: "\(error)")))
    }
  }

  /// Writes the delta between two blobs to `pendingPath`; returns its facts
  /// and the entries it adds and removes, or nil (with the file removed)
  /// when a device would load the full snapshot of `fullEntries` instead
  /// (the delta adds and removes more entries: ``ReloadCost``, whatever
  /// either file's size) or the blobs cannot be joined by a delta (then
  /// with a warning).
  /// - Throws: ``StoreError/file(_:)`` when a blob cannot be read or the
  ///   delta cannot be written (a full disk, an I/O error): a version is
  ///   never published without a delta it should have.
  private func writeDelta(
    from base: String, to target: String, fullEntries: Int, pendingPath: String, description: String,
    deferringSyncsTo deferredSyncs: FileSystem.DeferredSyncs, warnings: inout [String]
  ) throws(StoreError) -> (facts: FileFacts, changes: DeltaChanges)? {
    let changes: DeltaChanges
    do {
      let summary = try SnapshotDiffer.writeDelta(
        from: try BlobReader(path: base), to: try BlobReader(path: target), path: pendingPath,
        deferringSyncsTo: deferredSyncs)
      guard let header = summary.header,
        ReloadCost.prefersDelta(entries: Int(clamping: header.reloadEntries), overFull: fullEntries)
      else {
        try? FileSystem.removeFile(pendingPath)
        return nil
      }
      changes = DeltaChanges(adds: Int(clamping: header.addedEntries), removes: Int(clamping: header.removedEntries))
    } catch {
      try? FileSystem.removeFile(pendingPath)
      if case .io(let failure) = error { throw .file(failure) }
      warnings.append("no delta from \(description): \(error)")
      return nil
    }
    return (try FileFacts.of(pendingPath), changes)
  }

  /// Whether a build failed because a file could not be read or written
  /// (an I/O error, a full disk), not because of what a file holds.
  private static func isIOFailure(_ error: BuildError) -> Bool {
    switch error {
    case .store(.file), .blob(_, .io): true
    default: false
    }
  }

  /// `error` as a ``StoreError``, for the steps that throw one.
  private static func storeError(_ error: BuildError) -> StoreError {
    switch error {
    case .store(let error): error
    case .blob(_, .io(let failure)): .file(failure)
    default: .catalog("\(error)")
    }
  }

  /// How the lists of the new snapshot (the blob at `pendingPath`) differ
  /// from the latest version's: entries added and removed per list (a
  /// relabelled number is neither), run by run (a 10^9-number range costs
  /// one step).
  private func countChanges(from latest: SnapshotRecord, to pendingPath: String) throws(BuildError) -> ListChanges {
    let path = store.path(latest.path)
    do {
      let counts = try SnapshotDiffer.countChanges(from: try BlobReader(path: path), to: try BlobReader(path: pendingPath))
      return ListChanges(
        blockingAdded: counts.blockingAdded, blockingRemoved: counts.blockingRemoved,
        identificationAdded: counts.identificationAdded, identificationRemoved: counts.identificationRemoved)
    } catch {
      throw .blob(path: path, error: error)
    }
  }

  private func storeCall<T>(_ body: () throws(StoreError) -> T) throws(BuildError) -> T {
    do {
      return try body()
    } catch {
      throw .store(error)
    }
  }
}

/// Temporary files of a build, removed unless the build was recorded.
struct PendingFiles {
  private var paths: [String] = []

  @discardableResult
  mutating func add(_ path: String) -> String {
    paths.append(path)
    return path
  }

  /// Removes every file still there.
  mutating func removeAll() {
    for path in paths { try? FileSystem.removeFile(path) }
    paths = []
  }

  /// Keeps every file: the catalog recorded the version, so its pending
  /// files are the version's until they are renamed into place.
  mutating func forgetAll() {
    paths = []
  }
}
