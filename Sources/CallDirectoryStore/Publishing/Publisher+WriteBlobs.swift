import CallDirectoryCompiler
import CallDirectoryFormat
import CalldirSystem

/// The third stage of ``Publisher/build()``: the full snapshot blob and
/// the shard blobs a version needs, complete under their pending names
/// (their directories' syncs deferred), and the Live Caller ID details.
struct WrittenBlobs {
  /// The full snapshot's published name.
  let snapshotName: String
  /// Where it is written first (``Publisher/pendingLocation(for:)``).
  let pendingPath: String
  let header: BlobHeader
  /// The full blob's facts, read back while the shards were written (nil
  /// without shards).
  let fullFacts: FileFacts?
  let shardBlobs: ShardBlobs
  /// With liveCallerID, what the export needs besides the entries: a
  /// version whose entries are unchanged is published all the same when
  /// these changed.
  let identities: LiveCallerIDRecording.Details?
}

extension Publisher {
  /// Writes the full snapshot, and on another core the shard blobs when the
  /// version needs them.
  func writeBlobs(
    _ prepared: PreparedBuild, _ compiled: CompiledBuild, pending: inout PendingFiles,
    deferringSyncsTo pendingSyncs: FileSystem.DeferredSyncs
  ) throws(BuildError) -> WrittenBlobs {
    let (config, version, snapshot) = (prepared.config, prepared.version, compiled.snapshot)
    let snapshotName = StoreLayout.snapshotName(version)
    let pendingPath = pending.add(pendingLocation(for: snapshotName))
    var shardBlobs = ShardBlobs(
      previous: try prepared.latest.map { record throws(BuildError) in
        try storeCall { () throws(StoreError) in try prepared.catalog?.shards(ofVersion: record.version) ?? [] }
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
    let identities = try prepared.liveCallerID.map { recording throws(BuildError) in
      try storeCall { () throws(StoreError) in
        try recording.details(of: snapshot, version: version, digest: header.contentDigest)
      }
    }
    return WrittenBlobs(
      snapshotName: snapshotName, pendingPath: pendingPath, header: header, fullFacts: fullFacts,
      shardBlobs: shardBlobs, identities: identities)
  }

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
}
