import CallDirectoryFormat
import CalldirSystem

/// `calldir repair`: rebuilds a store's catalog from its published files,
/// so that a store whose catalog was lost, emptied, damaged or restored from
/// an older backup continues at the right version, and never reuses one.
///
/// Under the store's lock:
/// 1. Everything the old catalog holds is read. A store without one (or
///    with an empty one) is rebuilt from its files; a catalog SQLite finds
///    damaged (not a database, malformed) too, its bytes kept aside. A
///    catalog that cannot be read for any other reason (an I/O error,
///    another process holding it) stops the repair, which changes nothing:
///    a read error is never a reason to rebuild.
/// 2. Every published file is checked: each full snapshot, shard and delta
///    blob is read whole (frame checksums and content digest). A version
///    whose file matches the old catalog keeps its row, sources and counts;
///    a version found only as a file gets a row from its blob (its counts
///    and digest; its sources unknown); a delta or shard is recorded when
///    its blob fits the snapshots it names. A version the old catalog
///    records as pruned keeps its row as it was, marked pruned (its files
///    are gone, or left for the next prune to remove), and deltas from it
///    to versions that are kept stay recorded.
///    Before that, the files of versions the old catalog recorded that a
///    build which died after its catalog transaction left under their
///    pending names are put in place, as the next build would: a blob only
///    when it reads back whole.
/// 3. A version whose snapshot is damaged or missing (and not pruned) is
///    retired: its number is never used again, and its files stay where
///    they are. A file that cannot be read (an I/O error) stops the repair.
/// 4. The new catalog is written next to the old one; the old one's
///    write-ahead log is folded into it and it is copied, durably, to
///    `catalog.sqlite.before-repair-N`; then one rename puts the new
///    catalog over it. A repair stopped anywhere leaves a whole catalog at
///    `catalog.sqlite`: the old one or the new one.
///
/// Nothing published is removed or rewritten.
public struct StoreRepair {
  public let store: StoreLayout

  public init(store: StoreLayout) { self.store = store }

  /// What a repair found and recorded.
  public struct Report: Sendable {
    /// Versions recorded in the new catalog.
    public var versions: [Int] = []
    /// Of those, versions whose rows came from the old catalog.
    public var keptFromCatalog: [Int] = []
    /// Of those, versions rebuilt from their blobs alone (sources unknown).
    public var rebuiltFromBlobs: [Int] = []
    /// Versions retired, with why.
    public var retired: [(version: Int, reason: String)] = []
    /// Deltas and shards recorded.
    public var deltas = 0
    public var shards = 0
    /// Where the old catalog was kept (nil when there was none).
    public var previousCatalog: String?
    /// What the old catalog was: `none` (missing or empty), `read`, or
    /// `damaged` (rebuilt from the files as if missing, its bytes kept).
    public var oldCatalog = "none"
    /// Versions recorded as pruned (their rows kept from the old catalog).
    public var pruned: [Int] = []
    /// The version the next build publishes.
    public var nextVersion = 1
    /// Files of recorded versions put in place from their pending names,
    /// relative to the store.
    public var placed: [String] = []
    /// Files that could not be used, and why.
    public var warnings: [String] = []
  }

  /// Repairs the store.
  /// - Throws: ``StoreError`` when the store cannot be locked, read or
  ///   written; the catalog is then the one there was.
  public func run(wait: Bool = true) throws(StoreError) -> Report {
    let lock = try lockExistingStore(wait: wait)
    defer { withExtendedLifetime(lock) {} }
    removeLeftovers()
    var report = Report()
    let old = try readOldCatalog(&report)
    let pruned = Set(old.snapshots.filter { $0.value.record.prunedAt != nil }.keys)
    try putRecordedFilesInPlace(Set(old.snapshots.keys).subtracting(pruned), &report)
    let files = try publishedFiles()

    var rows = RecoveredRows(old: old, pruned: pruned, report: &report)
    try recoverSnapshots(files.snapshots, old: old, into: &rows, &report)
    rows.retireMissing(old: old, orphanVersions: files.orphanVersions)
    try recoverDeltas(files.deltas, into: &rows, &report)
    try recoverShards(files.shards, old: old, into: &rows, &report)
    rows.keepJoiningShardDeltas(old: old) { report.warnings.append("\(store.path($0)) left out: its shards are not recorded") }

    try write(
      snapshots: rows.snapshots, deltas: rows.deltas, shards: rows.shards, shardDeltas: rows.shardDeltaRows,
      retired: rows.retired, refusals: old.refusals, oldCatalogDamaged: old.isDamaged, report: &report)
    rows.summarize(into: &report, highestPublished: store.highestPublishedVersion())
    return report
  }

  /// Takes the store's lock; a store that is not there has no catalog to
  /// repair.
  private func lockExistingStore(wait: Bool) throws(StoreError) -> StoreLock {
    let root: FileStatus?
    do {
      root = try FileSystem.statusIfPresent(store.root)
    } catch where error.errno.isMissingInput {
      root = nil
    } catch {
      throw .file(error)
    }
    guard root != nil else { throw .noCatalog(store: store.root) }
    return try StoreLock(path: store.lock, wait: wait)
  }

  // MARK: - Recovering rows

  private typealias SnapshotRows = (record: SnapshotRecord, sources: [SourceRecordRow], reasons: [Int: [String: Int]])

  /// The catalog rows a repair recovers, step by step: snapshots (and the
  /// versions retired), deltas, shards, and the shard deltas that join them.
  private struct RecoveredRows {
    let pruned: Set<Int>
    var snapshots: [Int: SnapshotRows] = [:]
    var retired: [Int: String]
    var deltas: [Int: [DeltaRecord]] = [:]
    var shards: [Int: [ShardRecord]] = [:]
    /// Shard deltas found, with their headers, before they are checked
    /// against the shards they join.
    var shardDeltas: [Int: [(record: ShardDeltaRecord, header: BlobHeader)]] = [:]
    var shardDeltaRows: [Int: [ShardDeltaRecord]] = [:]

    /// The old catalog's retired versions, and its pruned versions' rows
    /// (snapshot, deltas and shards): a pruned version keeps its row (its files are gone, or left for the
    /// next prune), and deltas from it to kept versions may still serve.
    init(old: OldCatalog, pruned: Set<Int>, report: inout Report) {
      self.pruned = pruned
      retired = Dictionary(old.retired.map { ($0.version, $0.reason) }, uniquingKeysWith: { first, _ in first })
      for version in pruned.sorted() {
        snapshots[version] = old.snapshots[version]
        report.keptFromCatalog.append(version)
      }
      for version in pruned {
        deltas[version] = old.deltas[version] ?? []
        shards[version] = old.shards[version] ?? []
      }
    }

    /// Retires the versions the old catalog records whose snapshot is gone,
    /// and those whose files are published without their full snapshot.
    mutating func retireMissing(old: OldCatalog, orphanVersions: Set<Int>) {
      for version in old.snapshots.keys where snapshots[version] == nil && retired[version] == nil {
        retired[version] = "snapshot \(old.snapshots[version]?.record.path ?? "") is missing"
      }
      for version in orphanVersions where snapshots[version] == nil && retired[version] == nil {
        retired[version] = "files of version \(version) are published but its full snapshot is not"
      }
    }

    /// Keeps a shard delta only when it joins the two shards it names (a
    /// pruned version's as the old catalog has them); `leftOut` hears each
    /// other one's path.
    mutating func keepJoiningShardDeltas(old: OldCatalog, leftOut: (String) -> Void) {
      for version in pruned { shardDeltaRows[version] = old.shardDeltas[version] ?? [] }
      for (to, list) in shardDeltas {
        let joining = list.filter { delta, header in
          let target = shards[to]?.first { $0.shard == delta.shard }
          let base = shards[delta.fromVersion]?.first { $0.shard == delta.shard }
          guard let target, let base, target.digest == header.contentDigest.hex, base.digest == header.baseDigest.hex
          else {
            leftOut(delta.path)
            return false
          }
          return true
        }
        shardDeltaRows[to] = joining.map(\.record)
      }
    }

    /// The report's versions, counts and next version.
    func summarize(into report: inout Report, highestPublished: Int) {
      report.versions = snapshots.keys.sorted()
      report.pruned = pruned.sorted()
      report.retired = retired.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
      report.deltas = deltas.filter { !pruned.contains($0.key) }.values.reduce(0) { $0 + $1.count }
        + shardDeltaRows.filter { !pruned.contains($0.key) }.values.reduce(0) { $0 + $1.count }
      report.shards = shards.filter { !pruned.contains($0.key) }.values.reduce(0) { $0 + $1.count }
      report.nextVersion = max(snapshots.keys.max() ?? 0, retired.keys.max() ?? 0, highestPublished) + 1
    }
  }

  /// Each published full snapshot not pruned: its old row when its file
  /// matches it, a row rebuilt from the blob otherwise, or retired when it
  /// cannot be used. A file not readable now stops the repair (not
  /// readable is not damaged: nothing is retired for it).
  private func recoverSnapshots(
    _ published: [Int: String], old: OldCatalog, into rows: inout RecoveredRows, _ report: inout Report
  ) throws(StoreError) {
    for (version, name) in published.sorted(by: { $0.key < $1.key }) where !rows.pruned.contains(version) {
      do throws(StoreError) {
        let (header, facts) = try check(name)
        guard header.kind == .full, header.version == UInt64(version) else {
          throw StoreError.fileMismatch(path: store.path(name), problem: "it is not the full snapshot of version \(version)")
        }
        if var kept = old.snapshots[version], kept.record.digest == header.contentDigest.hex,
          kept.record.fileChecksum == facts.checksum
        {
          try checkIdentities(of: &kept.record, &report)
          rows.snapshots[version] = kept
          report.keptFromCatalog.append(version)
        } else {
          rows.snapshots[version] = (try record(version: version, name: name, header: header, facts: facts), [], [:])
          report.rebuiltFromBlobs.append(version)
        }
      } catch .file(let error) {
        throw .file(error)
      } catch {
        rows.retired[version] = "snapshot \(name) cannot be used: \(error)"
      }
    }
    report.keptFromCatalog.sort()
  }

  /// Each published delta to a version not pruned, recorded when it fits
  /// the snapshots it names (a shard delta kept aside until the shards are
  /// known).
  private func recoverDeltas(
    _ published: [(name: String, from: Int, to: Int, shard: Int?)], into rows: inout RecoveredRows,
    _ report: inout Report
  ) throws(StoreError) {
    for (name, from, to, shard) in published where !rows.pruned.contains(to) {
      do throws(StoreError) {
        let (header, facts) = try check(name)
        guard header.kind == .delta, header.baseVersion == UInt64(from), header.version == UInt64(to) else {
          throw StoreError.fileMismatch(path: store.path(name), problem: "it is not a delta from \(from) to \(to)")
        }
        if shard == nil {
          guard let base = rows.snapshots[from], let target = rows.snapshots[to],
            base.record.digest == header.baseDigest.hex, target.record.digest == header.contentDigest.hex
          else { throw StoreError.fileMismatch(path: store.path(name), problem: "its snapshots are not recorded") }
          rows.deltas[to, default: []].append(DeltaRecord(
            fromVersion: from, toVersion: to, path: name, bytes: facts.bytes, fileChecksum: facts.checksum))
        } else if let shard {
          rows.shardDeltas[to, default: []].append((
            ShardDeltaRecord(
              fromVersion: from, toVersion: to, shard: shard, path: name, bytes: facts.bytes,
              fileChecksum: facts.checksum),
            header))
        }
      } catch .file(let error) {
        throw .file(error)
      } catch {
        report.warnings.append("\(store.path(name)) left out: \(error)")
      }
    }
  }

  /// The shards of each recorded version not pruned: the old row when the
  /// file matches it, rebuilt from the blob otherwise; tiled.
  private func recoverShards(
    _ published: [Int: [(shard: Int, name: String)]], old: OldCatalog, into rows: inout RecoveredRows,
    _ report: inout Report
  ) throws(StoreError) {
    for (version, list) in published where !rows.pruned.contains(version) {
      guard rows.snapshots[version] != nil else { continue }
      var found: [ShardRecord] = []
      for (shard, name) in list.sorted(by: { $0.shard < $1.shard }) {
        do throws(StoreError) {
          let (header, facts) = try check(name)
          guard header.kind == .full, header.version == UInt64(version) else {
            throw StoreError.fileMismatch(path: store.path(name), problem: "it is not a shard of version \(version)")
          }
          if let kept = old.shards[version]?.first(where: { $0.shard == shard }), kept.fileChecksum == facts.checksum {
            found.append(kept)
          } else {
            found.append(try rebuiltShard(version: version, shard: shard, name: name, header: header, facts: facts))
          }
        } catch .file(let error) {
          throw .file(error)
        } catch {
          report.warnings.append("\(store.path(name)) left out: \(error)")
        }
      }
      rows.shards[version] = Self.tiled(found)
    }
  }

  // MARK: - Reading

  private struct OldCatalog {
    var snapshots: [Int: SnapshotRows] = [:]
    var shards: [Int: [ShardRecord]] = [:]
    var deltas: [Int: [DeltaRecord]] = [:]
    var shardDeltas: [Int: [ShardDeltaRecord]] = [:]
    var retired: [(version: Int, reason: String)] = []
    var refusals: [RefusalRecord] = []
    /// SQLite found the file damaged: it is rebuilt as if missing.
    var isDamaged = false
  }

  /// Everything the old catalog holds; nothing when there is none (or it
  /// is empty), or when SQLite finds it damaged (with a warning).
  /// - Throws: ``StoreError`` when it is there but cannot be read (an I/O
  ///   error, a lock another process holds, a schema this calldir does
  ///   not know): the store is left as it is.
  private func readOldCatalog(_ report: inout Report) throws(StoreError) -> OldCatalog {
    var old = OldCatalog()
    do {
      guard try FileSystem.statusIfPresent(store.catalog, followingLinks: false) != nil else { return old }
    } catch {
      throw .file(error)
    }
    do {
      let catalog = try Catalog.openForReading(store)
      for record in try catalog.allSnapshots() {
        old.snapshots[record.version] = (
          record, try catalog.sources(ofVersion: record.version), try catalog.rejectReasons(ofVersion: record.version)
        )
        old.shards[record.version] = try catalog.shards(ofVersion: record.version)
        old.deltas[record.version] = try catalog.deltas(toVersion: record.version)
        old.shardDeltas[record.version] = try catalog.shardDeltas(toVersion: record.version)
      }
      old.retired = try catalog.retiredVersions()
      old.refusals = try catalog.refusals()
      report.oldCatalog = "read"
    } catch .noCatalog {
      return OldCatalog()
    } catch .catalogDamaged(let problem) {
      report.oldCatalog = "damaged"
      report.warnings.append(
        "the old catalog is damaged (\(problem)); every version is rebuilt from its files, and the damaged file is "
          + "kept")
      old = OldCatalog()
      old.isDamaged = true
    }
    return old
  }

  /// Removes what a repair that was killed left in the store's directory:
  /// its new catalog under its temporary name, and a copy of the old one
  /// not yet complete. The lock is held: no other repair is running.
  private func removeLeftovers() {
    let copies = "." + FileSystem.fileName(of: store.catalog) + ".before-repair-"
    for name in (try? FileSystem.contentsOfDirectory(store.root)) ?? []
    where name.hasPrefix(Self.temporaryPrefix) || (name.hasPrefix(copies) && name.contains(".tmp-")) {
      try? FileSystem.removeFile(store.path(name))
    }
  }

  /// What the new catalog's temporary name starts with.
  private static let temporaryPrefix = ".catalog-repair-"

  /// Renames the pending files (`.pending-NAME`) of the `recorded`
  /// versions to their published names where those are free; a blob only
  /// when it reads back whole (else it stays, with a warning). Files of
  /// versions the catalog never recorded stay where they are.
  private func putRecordedFilesInPlace(_ recorded: Set<Int>, _ report: inout Report) throws(StoreError) {
    let prefix = StoreLayout.pendingPrefix
    for directory in ["snapshots", "deltas", "rejects"] {
      for name in ((try? FileSystem.contentsOfDirectory(store.path(directory))) ?? []).sorted()
      where name.hasPrefix(prefix) {
        let publishedName = String(name.dropFirst(prefix.count))
        let published = directory + "/" + publishedName
        guard let version = StoreLayout.version(ofFileNamed: publishedName), recorded.contains(version),
          try !exists(published)
        else { continue }
        let pending = directory + "/" + name
        if published.hasSuffix(".cdid") {
          do {
            _ = try IdentityDetails(path: store.path(pending))
          } catch .file(let error) {
            throw .file(error)
          } catch {
            report.warnings.append("\(store.path(pending)) of version \(version) left where it is: \(error)")
            continue
          }
        }
        if published.hasSuffix(".cdir") {
          do {
            _ = try check(pending)
          } catch .file(let error) {
            throw .file(error)
          } catch {
            report.warnings.append("\(store.path(pending)) of version \(version) left where it is: \(error)")
            continue
          }
        }
        try rename(store.path(pending), to: store.path(published))
        report.placed.append(published)
      }
    }
  }

  /// The published blobs of the store, by what their names say.
  private struct PublishedFiles {
    var snapshots: [Int: String] = [:]
    var shards: [Int: [(shard: Int, name: String)]] = [:]
    var deltas: [(name: String, from: Int, to: Int, shard: Int?)] = []
    /// Versions named by a published file other than a full snapshot.
    var orphanVersions: Set<Int> = []
  }

  private func publishedFiles() throws(StoreError) -> PublishedFiles {
    var files = PublishedFiles()
    for name in try list(store.snapshotsDirectory) {
      guard let parsed = Self.parse(name, prefix: "snapshot-"), parsed.numbers.count == 1 else { continue }
      let relative = "snapshots/" + name
      if let shard = parsed.shard {
        files.shards[parsed.numbers[0], default: []].append((shard, relative))
        files.orphanVersions.insert(parsed.numbers[0])
      } else {
        files.snapshots[parsed.numbers[0]] = relative
      }
    }
    for name in try list(store.deltasDirectory) {
      guard let parsed = Self.parse(name, prefix: "delta-"), parsed.numbers.count == 2 else { continue }
      files.deltas.append(("deltas/" + name, parsed.numbers[0], parsed.numbers[1], parsed.shard))
      files.orphanVersions.insert(parsed.numbers[1])
    }
    for name in try list(store.rejectsDirectory) {
      if let version = StoreLayout.version(ofFileNamed: name) { files.orphanVersions.insert(version) }
    }
    return files
  }

  /// The published names in `directory` (none when it does not exist).
  /// - Throws: ``StoreError/file(_:)`` when it cannot be listed: a store
  ///   whose files cannot be seen now must not lose their versions.
  private func list(_ directory: String) throws(StoreError) -> [String] {
    do {
      return try FileSystem.contentsOfDirectory(directory).filter { !$0.hasPrefix(".") }
    } catch where error.errno == .noSuchFileOrDirectory {
      return []
    } catch {
      throw .file(error)
    }
  }

  /// `snapshot-000042-shard-03.cdir` → ([42], 3); nil for other names.
  static func parse(_ name: String, prefix: String) -> (numbers: [Int], shard: Int?)? {
    guard name.hasPrefix(prefix), name.hasSuffix(".cdir") else { return nil }
    var parts = name.dropFirst(prefix.count).dropLast(5).split(separator: "-").map(String.init)
    var shard: Int?
    if parts.count >= 2, parts[parts.count - 2] == "shard", let value = Int(parts[parts.count - 1]) {
      shard = value
      parts.removeLast(2)
    }
    let numbers = parts.compactMap { part in part.count == 6 || part.count > 6 ? Int(part) : nil }
    guard numbers.count == parts.count, numbers.allSatisfy({ $0 > 0 }) else { return nil }
    return (numbers, shard)
  }

  /// Reads a blob whole (every checksum and the digest) and checksums its file.
  private func check(_ name: String) throws(StoreError) -> (BlobHeader, FileFacts) {
    let path = store.path(name)
    let facts = try FileFacts.of(path)
    do {
      let verification = try BlobReader(path: path).verify()
      guard verification.digestVerified || verification.header.kind == .delta else {
        throw StoreError.fileMismatch(path: path, problem: "its entries do not hash to its digest")
      }
      return (verification.header, facts)
    } catch let error as StoreError {
      throw error
    } catch {
      throw .fileMismatch(path: path, problem: "\(error)")
    }
  }

  /// Keeps a version's Live Caller ID Lookup record only when its identity
  /// details file is there and is the one the catalog recorded (else the
  /// version stays, without them, with a warning: an export then asks for
  /// a new build).
  private func checkIdentities(of record: inout SnapshotRecord, _ report: inout Report) throws(StoreError) {
    guard let name = record.identitiesPath else { return }
    let path = store.path(name)
    do throws(StoreError) {
      let facts = try FileFacts.ofPublished(path)
      guard facts.checksum == record.identitiesChecksum else {
        throw StoreError.fileMismatch(
          path: path, problem: "its checksum is \(facts.checksum), the catalog recorded \(record.identitiesChecksum ?? "none")")
      }
      let details: IdentityDetails
      do {
        details = try IdentityDetails(path: path)
      } catch {
        throw StoreError.fileMismatch(path: path, problem: "\(error)")
      }
      guard details.version == record.version, details.snapshotDigest.hex == record.digest else {
        throw StoreError.fileMismatch(path: path, problem: "it is not version \(record.version)'s")
      }
    } catch .file(let error) {
      throw .file(error)
    } catch {
      report.warnings.append(
        "version \(record.version)'s Live Caller ID Lookup settings and identity details are left out: \(error)")
      record.liveCallerID = nil
      record.identitiesPath = nil
      record.identitiesChecksum = nil
      record.identitiesDigest = nil
    }
  }

  // MARK: - Rebuilt rows

  private func record(version: Int, name: String, header: BlobHeader, facts: FileFacts) throws(StoreError) -> SnapshotRecord {
    let rejects = StoreLayout.rejectsName(version)
    let conflicts = StoreLayout.conflictsName(version)
    let hasRejects = try exists(rejects)
    let hasConflicts = try exists(conflicts)
    return SnapshotRecord(
      version: version, createdAt: facts.modifiedAt, path: name, bytes: facts.bytes, digest: header.contentDigest.hex,
      fileChecksum: facts.checksum, blocking: Int(header.entryCount(.blocking)),
      identification: Int(header.entryCount(.identification)), labels: Int(header.entryCount(.labels)),
      rejected: 0, conflicts: 0, allowed: 0, duplicates: 0,
      rejectsPath: hasRejects ? rejects : "", configPath: "", forced: false,
      timings: BuildTimings(), changes: nil,
      conflictsPath: hasConflicts ? conflicts : nil)
  }

  /// A shard row from its blob: its entries' range; the bounds are made to
  /// tile the numbers by ``tiled(_:)``.
  private func rebuiltShard(
    version: Int, shard: Int, name: String, header: BlobHeader, facts: FileFacts
  ) throws(StoreError) -> ShardRecord {
    var lowest = Int64.max
    do {
      let reader = try BlobReader(path: store.path(name))
      if let first = try reader.blocking().next() { lowest = min(lowest, first) }
      if let first = try reader.identification().next() { lowest = min(lowest, first.number) }
    } catch {
      throw .fileMismatch(path: store.path(name), problem: "\(error)")
    }
    return ShardRecord(
      version: version, shard: shard, lowerBound: lowest, upperBound: Int64.max - 1, path: name, bytes: facts.bytes,
      digest: header.contentDigest.hex, fileChecksum: facts.checksum, blocking: Int(header.entryCount(.blocking)),
      identification: Int(header.entryCount(.identification)))
  }

  /// Shards whose bounds tile `1 ... Int64.max - 1` in shard order: the first
  /// starts at 1, each ends where the next starts.
  static func tiled(_ shards: [ShardRecord]) -> [ShardRecord] {
    var result = shards.sorted { $0.shard < $1.shard }
    for index in result.indices {
      if index == 0 { result[index].lowerBound = 1 }
      result[index].upperBound = index + 1 < result.count ? max(result[index].lowerBound, result[index + 1].lowerBound - 1) : Int64.max - 1
    }
    return result
  }

  // MARK: - Writing

  /// Writes the new catalog next to the old one, keeps the old one as
  /// `catalog.sqlite.before-repair-N` (a durable copy, its write-ahead log
  /// folded in first) and renames the new one over it: `catalog.sqlite` is
  /// the old catalog or the new one, whole, whenever the repair stops.
  private func write(
    snapshots: [Int: (record: SnapshotRecord, sources: [SourceRecordRow], reasons: [Int: [String: Int]])],
    deltas: [Int: [DeltaRecord]], shards: [Int: [ShardRecord]], shardDeltas: [Int: [ShardDeltaRecord]],
    retired: [Int: String], refusals: [RefusalRecord], oldCatalogDamaged: Bool, report: inout Report
  ) throws(StoreError) {
    let temporary = store.path(Self.temporaryPrefix + "\(CurrentProcess.id).sqlite")
    for suffix in ["", "-wal", "-shm", "-journal"] { try? FileSystem.removeFile(temporary + suffix) }
    do {
      let catalog = try Catalog(path: temporary)
      for version in snapshots.keys.sorted() {
        guard let entry = snapshots[version] else { continue }
        try catalog.record(
          entry.record, sources: entry.sources, rejectReasons: entry.reasons, deltas: deltas[version] ?? [],
          shards: shards[version] ?? [], shardDeltas: shardDeltas[version] ?? [])
      }
      for (version, reason) in retired.sorted(by: { $0.key < $1.key }) { try catalog.retire(version: version, reason: reason) }
      for refusal in refusals { try catalog.record(refusal: refusal) }
      // The file alone must hold everything before it takes the catalog's name.
      try catalog.checkpoint()
    }
    do throws(StoreError) {
      try replaceCatalog(with: temporary, oldCatalogDamaged: oldCatalogDamaged, report: &report)
    } catch {
      try? FileSystem.removeFile(temporary)
      throw error
    }
  }

  /// Keeps the old catalog (if any) as `catalog.sqlite.before-repair-N`
  /// and renames `temporary` over it.
  private func replaceCatalog(
    with temporary: String, oldCatalogDamaged: Bool, report: inout Report
  ) throws(StoreError) {
    do {
      try Self.sync(temporary)
      guard let status = try FileSystem.statusIfPresent(store.catalog, followingLinks: false), status.kind == .regular
      else {
        try FileSystem.durableRename(temporary, to: store.catalog)
        return
      }
    } catch {
      throw .file(error)
    }
    // The old catalog's file alone holds all it recorded (a damaged one
    // cannot be folded: its log is kept beside its copy).
    if !oldCatalogDamaged { try Catalog.foldWriteAheadLog(path: store.catalog) }
    do {
      var serial = 1
      while try FileSystem.statusIfPresent(store.catalog + ".before-repair-\(serial)", followingLinks: false) != nil {
        serial += 1
      }
      let kept = store.catalog + ".before-repair-\(serial)"
      // A log left beside no copy (a repair killed while it copied) is no copy's.
      for suffix in ["-wal", "-shm"] { try FileSystem.removeFile(kept + suffix) }
      try AtomicFile.copy(contentsOf: store.catalog, to: kept)
      if oldCatalogDamaged, let log = try FileSystem.statusIfPresent(store.catalog + "-wal"), log.size > 0 {
        try AtomicFile.copy(contentsOf: store.catalog + "-wal", to: kept + "-wal")
      }
      report.previousCatalog = kept
      // The old catalog's log and index must not be read with the new file.
      for suffix in ["-wal", "-shm"] { try FileSystem.removeFile(store.catalog + suffix) }
      try FileSystem.durableRename(temporary, to: store.catalog)
    } catch {
      throw .file(error)
    }
  }

  /// Syncs the file at `path` to the disk.
  private static func sync(_ path: String) throws(FileError) {
    let file = try FileDescriptor.open(path, .readOnly)
    try file.closeAfter { () throws(FileError) in
      do throws(Errno) {
        try file.sync()
      } catch {
        throw FileError(operation: "sync", path: path, errno: error)
      }
    }
  }

  /// Whether something is at `name` (relative to the store).
  /// - Throws: ``StoreError/file(_:)`` when that cannot be told (an I/O error).
  private func exists(_ name: String) throws(StoreError) -> Bool {
    do {
      return try FileSystem.statusIfPresent(store.path(name), followingLinks: false) != nil
    } catch {
      throw .file(error)
    }
  }

  private func rename(_ from: String, to: String) throws(StoreError) {
    do {
      try FileSystem.durableRename(from, to: to)
    } catch {
      throw .file(error)
    }
  }
}
