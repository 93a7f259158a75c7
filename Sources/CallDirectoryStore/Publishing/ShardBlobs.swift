import CallDirectoryCompiler
import CallDirectoryFormat
import CalldirHost
import CalldirSystem

/// A version's shard blobs, planned and written under their pending names
/// while the full snapshot is written on another core; the publisher then
/// records them (``Publisher``'s `recordShards`) or, when the version turns
/// out unchanged, drops them with its other pending files.
struct ShardBlobs {
  /// The previous version's shards: a sharded store stays sharded, and
  /// the planner keeps their boundaries where it can.
  let previous: [ShardRecord]
  /// The shards' lower bounds, empty when the version is not sharded.
  private(set) var lowers: [Int64] = []
  /// Each shard's pending path: every file that may have been created,
  /// also when writing failed.
  private(set) var paths: [String] = []
  private(set) var written: [ShardWriter.Written] = []
  /// Each shard blob's facts, its SHA-256 included (``readBack()``).
  private(set) var facts: [FileFacts] = []
  /// Why the shards could not be written (thrown when they are recorded).
  private(set) var failure: StoreError?

  init(previous: [ShardRecord]) {
    self.previous = previous
  }

  /// Whether `snapshot` is written in shards: it holds more entries than
  /// one extension takes, or the previous version was sharded.
  func needed(for snapshot: CompiledSnapshot, config: BuildConfig) -> Bool {
    snapshot.statistics.blocking + snapshot.statistics.identification > config.maxEntriesPerExtension
      || !previous.isEmpty
  }

  /// Plans the shards and writes their blobs, each to `location(name)`
  /// (a failure names `directory`), leaving the directory sync to
  /// `deferredSyncs`. Touches nothing but its own files and this value.
  mutating func write(
    of snapshot: CompiledSnapshot, version: Int, config: BuildConfig, directory: String,
    at location: (String) -> String, deferringSyncsTo deferredSyncs: FileSystem.DeferredSyncs
  ) {
    let limit = config.maxEntriesPerExtension
    do {
      let lowers = try ShardPlanner(limit: limit).boundaries(
        blocking: snapshot.blocking,
        identification: snapshot.spilledIdentification.map(ShardIdentification.spilled)
          ?? .memory(snapshot.identification),
        previous: previous.map(\.lowerBound))
      guard lowers.count <= config.maxExtensions else {
        throw StoreError.capacity(
          needed: lowers.count, maxExtensions: config.maxExtensions, perExtension: limit,
          entries: snapshot.statistics.blocking + snapshot.statistics.identification)
      }
      paths = (1...lowers.count).map { location(StoreLayout.snapshotName(version, shard: $0)) }
      var writer = ShardWriter(version: version, identification: snapshot.identification, labels: snapshot.labels)
      writer.spilled = snapshot.spilledIdentification
      writer.dataset = config.dataset
      writer.deferredSyncs = deferredSyncs
      written = try writer.write(blocking: snapshot.blocking, bounds: shardBounds(lowers), paths: paths)
      self.lowers = lowers
    } catch let error as StoreError {
      failure = error
    } catch BlobError.io(let error) {
      failure = .file(error)
    } catch CompileError.spill(let error) {
      // Spilled identification entries that could not be read back.
      failure = .file(error)
    } catch {
      failure = .file(FileError(operation: "write shards in", path: directory, errno: .ioError, detail: "\(error)"))
    }
  }

  /// Reads the written shard blobs back for the catalog and the manifest
  /// (size, CRC-32C, SHA-256), on every core.
  mutating func readBack() {
    guard failure == nil, !paths.isEmpty else { return }
    let paths = self.paths
    let results = Parallel.mapOnOwnThreads(paths.count) { index in
      Swift.Result { () throws(StoreError) in try FileFacts.of(paths[index], withSHA256: true) }
    }
    do throws(StoreError) {
      facts = try results.map { result throws(StoreError) in try result.get() }
    } catch {
      failure = error
    }
  }
}
