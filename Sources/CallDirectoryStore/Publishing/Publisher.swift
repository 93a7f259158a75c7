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
///
/// ``build()`` runs in stages, one file each, with a value between each
/// and the next: ``PreparedBuild`` (the config, the key, the open store;
/// Publisher+Prepare.swift), ``CompiledBuild`` (the snapshot and its
/// reports; +Compile), ``WrittenBlobs`` (the full blob and the shards;
/// +WriteBlobs), then either the unchanged version's result (+Unchanged)
/// or ``GuardedBuild`` (the guards' verdict; +Guards), ``WrittenDeltas``
/// (+Deltas), ``RecordedVersion`` (the catalog transaction; +Record) and
/// the files put in place under a new manifest (+Announce).
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
  func makeCompiler() -> SnapshotCompiler {
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
    let prepared = try prepare()
    defer { withExtendedLifetime(prepared.opened.lock) {} }
    var warnings = prepared.warnings

    // Compile, with the reports in temporary files.
    var pending = PendingFiles()
    defer { pending.removeAll() }
    // The blobs and reports are renamed to their pending names as they are
    // finished; they and their directories are synced once, before the
    // catalog transaction that refers to them.
    let pendingSyncs = FileSystem.DeferredSyncs()
    let compiled = try compile(prepared, pending: &pending, warnings: &warnings)
    let blobs = try writeBlobs(prepared, compiled, pending: &pending, deferringSyncsTo: pendingSyncs)
    if let unchanged = try unchangedResult(prepared, compiled, blobs, warnings: warnings) { return unchanged }
    let guarded = try checkGuards(prepared, compiled, blobs, pending: &pending, warnings: &warnings)

    do throws(StoreError) {
      let deltas = try writeDeltas(
        prepared, compiled, blobs, pending: &pending, deferringSyncsTo: pendingSyncs, warnings: &warnings)
      let sources = try sourceRows(of: compiled.snapshot)
      let result = makeResult(prepared, compiled, guarded, blobs, deltas, warnings: warnings)
      if options.dryRun { return try finishDryRun(result, prepared, compiled, blobs, deltas) }
      let recorded = try recordVersion(
        prepared, compiled, guarded, blobs, deltas, sources: sources, started: started, pending: &pending,
        deferringSyncsTo: pendingSyncs)
      return try announce(recorded, prepared, blobs, deltas, result: result)
    } catch {
      throw .store(error)
    }
  }

  // MARK: - Shared by the stages

  /// Where a file to be published under `name` is written first: its
  /// pending name, or for a dry run a scratch name under `dry-run/`.
  func pendingLocation(for name: String) -> String {
    options.dryRun
      ? store.dryRunDirectory + "/.scratch-\(CurrentProcess.id)-" + FileSystem.fileName(of: name)
      : store.path(StoreLayout.pendingName(for: name))
  }

  func rename(
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
  func verify(_ record: SnapshotRecord) throws(BuildError) {
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

  /// Whether a build failed because a file could not be read or written
  /// (an I/O error, a full disk), not because of what a file holds.
  static func isIOFailure(_ error: BuildError) -> Bool {
    switch error {
    case .store(.file), .blob(_, .io): true
    default: false
    }
  }

  /// `error` as a ``StoreError``, for the steps that throw one.
  static func storeError(_ error: BuildError) -> StoreError {
    switch error {
    case .store(let error): error
    case .blob(_, .io(let failure)): .file(failure)
    default: .catalog("\(error)")
    }
  }

  func storeCall<T>(_ body: () throws(StoreError) -> T) throws(BuildError) -> T {
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
