import CallDirectorySync
import CalldirSystem

/// `calldir prune`: removes the files of old versions, keeping the last N.
///
/// Under the store's lock: the latest version is always kept, and so is
/// every file the current manifest names (a delta from an old version to
/// the latest stays as long as the manifest offers it). The catalog first
/// records the versions as pruned, in one transaction; then their
/// snapshots, shards, deltas to them and reports are removed. A prune that
/// dies between leaves files the next one removes: pruning is idempotent.
/// Catalog rows are kept: history still shows every version, marked pruned.
public struct StorePruner {
  public let store: StoreLayout

  public init(store: StoreLayout) { self.store = store }

  /// What a prune removed.
  public struct Report: Sendable {
    /// Versions whose files are gone, ascending.
    public var prunedVersions: [Int] = []
    /// Files removed, relative to the store.
    public var removedFiles: [String] = []
    /// Files of pruned versions kept because the manifest names them.
    public var keptForManifest: [String] = []
    /// Bytes freed.
    public var bytes: Int64 = 0
  }

  /// Keeps the newest `keep` versions (at least 1).
  public func prune(keep: Int, wait: Bool = true) throws(StoreError) -> Report {
    guard try Self.exists(store.catalog) else { throw .noCatalog(store: store.root) }
    let lock = try StoreLock(path: store.lock, wait: wait)
    defer { withExtendedLifetime(lock) {} }
    let catalog = try Catalog(path: store.catalog)
    let versions = try catalog.allSnapshots()
    // A build that stopped after recording its version left the files
    // under their pending names: older versions may be all that serves.
    if let latest = versions.last, try !Self.exists(store.path(latest.path)) {
      throw .fileMismatch(
        path: store.path(latest.path),
        problem: "the latest version's snapshot is not in place (its build stopped after recording it); nothing was "
          + "pruned; run 'calldir build' to finish publishing it")
    }
    let kept = Set(versions.suffix(max(1, keep)).map(\.version))
    let doomed = versions.filter { !kept.contains($0.version) }
    let referenced = try manifestPaths()

    var report = Report()
    var files: [(version: Int, name: String)] = []
    for record in doomed {
      var names = [record.path, record.rejectsPath]
      if let conflicts = record.conflictsPath { names.append(conflicts) }
      if let identities = record.identitiesPath { names.append(identities) }
      names += try catalog.shards(ofVersion: record.version).map(\.path)
      names += try catalog.deltas(toVersion: record.version).map(\.path)
      names += try catalog.shardDeltas(toVersion: record.version).map(\.path)
      for name in names where !name.isEmpty {
        if referenced.contains(name) {
          report.keptForManifest.append(name)
        } else {
          files.append((record.version, name))
        }
      }
    }
    try catalog.markPruned(versions: doomed.map(\.version), at: UTCTime.iso8601(UTCTime.now()))
    report.prunedVersions = doomed.map(\.version)
    for (_, name) in files {
      let path = store.path(name)
      guard let status = try? FileSystem.statusIfPresent(path, followingLinks: false) else { continue }
      do {
        try FileSystem.removeFile(path)
      } catch {
        throw .file(error)
      }
      report.removedFiles.append(name)
      report.bytes += status.size
    }
    for directory in [store.snapshotsDirectory, store.deltasDirectory, store.rejectsDirectory]
    where FileSystem.exists(directory) {
      do {
        try FileSystem.syncDirectory(containing: directory + "/.")
      } catch {
        throw .file(error)
      }
    }
    return report
  }

  /// Whether something is at `path`.
  /// - Throws: ``StoreError/file(_:)`` when that cannot be told (an I/O error).
  private static func exists(_ path: String) throws(StoreError) -> Bool {
    do {
      return try FileSystem.statusIfPresent(path, followingLinks: false) != nil
    } catch {
      throw .file(error)
    }
  }

  /// The store paths the current manifest names (none without a manifest).
  /// - Throws: ``StoreError`` when it is there but cannot be read: files it
  ///   names must not be taken for files nothing serves.
  private func manifestPaths() throws(StoreError) -> Set<String> {
    let path = store.path(StoreLayout.manifestName)
    let bytes: [UInt8]
    do {
      guard let read = try FileSystem.contentsIfPresent(of: path, limit: ManifestPublisher.manifestLimit) else { return [] }
      bytes = read
    } catch {
      throw .file(error)
    }
    let manifest: Manifest
    do {
      manifest = try Manifest(parsing: bytes)
    } catch {
      throw .catalog("\(path) cannot be read (\(error)); nothing was pruned")
    }
    return Set(manifest.extensions.flatMap { [$0.full.path] + $0.deltas.map(\.file.path) })
  }
}
