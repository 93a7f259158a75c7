import CallDirectoryFormat
import CalldirSystem

/// `calldir repair`: rebuilds a store's catalog from its published files,
/// so that a store whose catalog was lost, emptied or restored from an
/// older backup continues at the right version, and never reuses one.
///
/// Under the store's lock:
/// 1. Everything the old catalog holds is read, if it can be read at all.
/// 2. Every published file is checked: each full snapshot, shard and delta
///    blob is read whole (frame checksums and content digest). A version
///    whose file matches the old catalog keeps its row, sources and counts;
///    a version found only as a file gets a row from its blob (its counts
///    and digest; its sources unknown); a delta or shard is recorded when
///    its blob fits the snapshots it names.
///    Before that, the files of versions the old catalog recorded that a
///    build which died after its catalog transaction left under their
///    pending names are put in place, as the next build would: a blob only
///    when it reads back whole.
/// 3. A version whose snapshot is damaged or missing is retired: its
///    number is never used again, and its files stay where they are.
/// 4. The new catalog is written next to the old one and renamed over it;
///    the old one (with its WAL, if any) is kept as
///    `catalog.sqlite.before-repair-N`.
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
    /// The version the next build publishes.
    public var nextVersion = 1
    /// Files of recorded versions put in place from their pending names,
    /// relative to the store.
    public var placed: [String] = []
    /// Files that could not be used, and why.
    public var warnings: [String] = []
  }

  /// Repairs the store.
  /// - Throws: ``StoreError`` when the store cannot be locked, read or written.
  public func run(wait: Bool = true) throws(StoreError) -> Report {
    guard FileSystem.exists(store.root) else { throw .noCatalog(store: store.root) }
    let lock = try StoreLock(path: store.lock, wait: wait)
    defer { withExtendedLifetime(lock) {} }
    var report = Report()
    let old = readOldCatalog(&report)
    try putRecordedFilesInPlace(Set(old.snapshots.keys), &report)
    let files = try publishedFiles()

    var snapshots: [Int: (record: SnapshotRecord, sources: [SourceRecordRow], reasons: [Int: [String: Int]])] = [:]
    var retired: [Int: String] = Dictionary(old.retired.map { ($0.version, $0.reason) }, uniquingKeysWith: { first, _ in first })
    for (version, name) in files.snapshots.sorted(by: { $0.key < $1.key }) {
      do {
        let (header, facts) = try check(name)
        guard header.kind == .full, header.version == UInt64(version) else {
          throw StoreError.fileMismatch(path: store.path(name), problem: "it is not the full snapshot of version \(version)")
        }
        if let kept = old.snapshots[version], kept.record.digest == header.contentDigest.hex,
          kept.record.fileChecksum == facts.checksum
        {
          snapshots[version] = kept
          report.keptFromCatalog.append(version)
        } else {
          snapshots[version] = (record(version: version, name: name, header: header, facts: facts), [], [:])
          report.rebuiltFromBlobs.append(version)
        }
      } catch {
        retired[version] = "snapshot \(name) cannot be used: \(error)"
      }
    }
    for version in old.snapshots.keys where snapshots[version] == nil && retired[version] == nil {
      retired[version] = "snapshot \(old.snapshots[version]?.record.path ?? "") is missing"
    }
    for version in files.orphanVersions where snapshots[version] == nil && retired[version] == nil {
      retired[version] = "files of version \(version) are published but its full snapshot is not"
    }

    var deltas: [Int: [DeltaRecord]] = [:]
    var shards: [Int: [ShardRecord]] = [:]
    var shardDeltas: [Int: [ShardDeltaRecord]] = [:]
    for (name, from, to, shard) in files.deltas {
      do {
        let (header, facts) = try check(name)
        guard header.kind == .delta, header.baseVersion == UInt64(from), header.version == UInt64(to) else {
          throw StoreError.fileMismatch(path: store.path(name), problem: "it is not a delta from \(from) to \(to)")
        }
        if shard == nil {
          guard let base = snapshots[from], let target = snapshots[to], base.record.digest == header.baseDigest.hex,
            target.record.digest == header.contentDigest.hex
          else { throw StoreError.fileMismatch(path: store.path(name), problem: "its snapshots are not recorded") }
          deltas[to, default: []].append(DeltaRecord(
            fromVersion: from, toVersion: to, path: name, bytes: facts.bytes, fileChecksum: facts.checksum))
        } else if let shard {
          shardDeltas[to, default: []].append(ShardDeltaRecord(
            fromVersion: from, toVersion: to, shard: shard, path: name, bytes: facts.bytes, fileChecksum: facts.checksum))
        }
      } catch {
        report.warnings.append("\(store.path(name)) left out: \(error)")
      }
    }
    for (version, list) in files.shards {
      guard snapshots[version] != nil else { continue }
      var rows: [ShardRecord] = []
      for (shard, name) in list.sorted(by: { $0.shard < $1.shard }) {
        do {
          let (header, facts) = try check(name)
          guard header.kind == .full, header.version == UInt64(version) else {
            throw StoreError.fileMismatch(path: store.path(name), problem: "it is not a shard of version \(version)")
          }
          if let kept = old.shards[version]?.first(where: { $0.shard == shard }), kept.fileChecksum == facts.checksum {
            rows.append(kept)
          } else {
            rows.append(try rebuiltShard(version: version, shard: shard, name: name, header: header, facts: facts))
          }
        } catch {
          report.warnings.append("\(store.path(name)) left out: \(error)")
        }
      }
      shards[version] = Self.tiled(rows)
    }
    // A shard delta is kept only when both its shards are.
    for (to, list) in shardDeltas {
      shardDeltas[to] = list.filter { delta in
        shards[to]?.contains { $0.shard == delta.shard } == true
          && shards[delta.fromVersion]?.contains { $0.shard == delta.shard } == true
      }
    }

    try write(
      snapshots: snapshots, deltas: deltas, shards: shards, shardDeltas: shardDeltas, retired: retired,
      refusals: old.refusals, report: &report)
    report.versions = snapshots.keys.sorted()
    report.retired = retired.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    report.deltas = deltas.values.reduce(0) { $0 + $1.count } + shardDeltas.values.reduce(0) { $0 + $1.count }
    report.shards = shards.values.reduce(0) { $0 + $1.count }
    report.nextVersion = max(snapshots.keys.max() ?? 0, retired.keys.max() ?? 0, store.highestPublishedVersion()) + 1
    return report
  }

  // MARK: - Reading

  private struct OldCatalog {
    var snapshots: [Int: (record: SnapshotRecord, sources: [SourceRecordRow], reasons: [Int: [String: Int]])] = [:]
    var shards: [Int: [ShardRecord]] = [:]
    var retired: [(version: Int, reason: String)] = []
    var refusals: [RefusalRecord] = []
  }

  /// Everything the old catalog holds, or nothing (with a warning) when it
  /// cannot be read.
  private func readOldCatalog(_ report: inout Report) -> OldCatalog {
    var old = OldCatalog()
    guard FileSystem.exists(store.catalog) else { return old }
    do {
      let catalog = try Catalog.openForReading(store)
      for record in try catalog.allSnapshots() {
        old.snapshots[record.version] = (
          record, try catalog.sources(ofVersion: record.version), try catalog.rejectReasons(ofVersion: record.version)
        )
        old.shards[record.version] = try catalog.shards(ofVersion: record.version)
      }
      old.retired = try catalog.retiredVersions()
      old.refusals = try catalog.refusals()
    } catch {
      report.warnings.append("the old catalog cannot be read (\(error)); every version is rebuilt from its files")
    }
    return old
  }

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
        guard let version = StoreLayout.version(ofFileNamed: publishedName),
          recorded.contains(version), !FileSystem.exists(store.path(published))
        else { continue }
        let pending = directory + "/" + name
        if published.hasSuffix(".cdir") {
          do {
            _ = try check(pending)
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
    for name in list(store.snapshotsDirectory) {
      guard let parsed = Self.parse(name, prefix: "snapshot-"), parsed.numbers.count == 1 else { continue }
      let relative = "snapshots/" + name
      if let shard = parsed.shard {
        files.shards[parsed.numbers[0], default: []].append((shard, relative))
        files.orphanVersions.insert(parsed.numbers[0])
      } else {
        files.snapshots[parsed.numbers[0]] = relative
      }
    }
    for name in list(store.deltasDirectory) {
      guard let parsed = Self.parse(name, prefix: "delta-"), parsed.numbers.count == 2 else { continue }
      files.deltas.append(("deltas/" + name, parsed.numbers[0], parsed.numbers[1], parsed.shard))
      files.orphanVersions.insert(parsed.numbers[1])
    }
    for name in list(store.rejectsDirectory) {
      if let version = StoreLayout.version(ofFileNamed: name) { files.orphanVersions.insert(version) }
    }
    return files
  }

  private func list(_ directory: String) -> [String] {
    (try? FileSystem.contentsOfDirectory(directory))?.filter { !$0.hasPrefix(".") } ?? []
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

  // MARK: - Rebuilt rows

  private func record(version: Int, name: String, header: BlobHeader, facts: FileFacts) -> SnapshotRecord {
    let rejects = StoreLayout.rejectsName(version)
    let conflicts = StoreLayout.conflictsName(version)
    return SnapshotRecord(
      version: version, createdAt: facts.modifiedAt, path: name, bytes: facts.bytes, digest: header.contentDigest.hex,
      fileChecksum: facts.checksum, blocking: Int(header.entryCount(.blocking)),
      identification: Int(header.entryCount(.identification)), labels: Int(header.entryCount(.labels)),
      rejected: 0, conflicts: 0, allowed: 0, duplicates: 0,
      rejectsPath: FileSystem.exists(store.path(rejects)) ? rejects : "", configPath: "", forced: false,
      timings: BuildTimings(), changes: nil,
      conflictsPath: FileSystem.exists(store.path(conflicts)) ? conflicts : nil)
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

  private func write(
    snapshots: [Int: (record: SnapshotRecord, sources: [SourceRecordRow], reasons: [Int: [String: Int]])],
    deltas: [Int: [DeltaRecord]], shards: [Int: [ShardRecord]], shardDeltas: [Int: [ShardDeltaRecord]],
    retired: [Int: String], refusals: [RefusalRecord], report: inout Report
  ) throws(StoreError) {
    let temporary = store.path(".catalog-repair-\(CurrentProcess.id).sqlite")
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
    if FileSystem.exists(store.catalog) {
      var serial = 1
      while FileSystem.exists(store.catalog + ".before-repair-\(serial)") { serial += 1 }
      let kept = store.catalog + ".before-repair-\(serial)"
      for suffix in ["-wal", "-shm"] where FileSystem.exists(store.catalog + suffix) {
        try rename(store.catalog + suffix, to: kept + suffix)
      }
      try rename(store.catalog, to: kept)
      report.previousCatalog = kept
    }
    try rename(temporary, to: store.catalog)
  }

  private func rename(_ from: String, to: String) throws(StoreError) {
    do {
      try FileSystem.durableRename(from, to: to)
    } catch {
      throw .file(error)
    }
  }
}
