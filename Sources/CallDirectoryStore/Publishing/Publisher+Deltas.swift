import CallDirectoryCompiler
import CallDirectoryFormat
import CallDirectorySync
import CalldirSystem

/// The fifth stage of ``Publisher/build()``: the deltas from the bases to
/// the new version (of the full blob and of each shard), the shards'
/// records and the identity details file, all complete under their
/// pending names.
struct WrittenDeltas {
  /// The full blob's size and checksum (and without shards its SHA-256,
  /// which the manifest lists).
  let blobFacts: FileFacts
  let deltas: [DeltaRecord]
  let shards: [ShardRecord]
  let shardDeltas: [ShardDeltaRecord]
  /// The entries each delta adds and removes, by its name.
  let deltaChanges: [String: DeltaChanges]
  /// The identity details file (nil without liveCallerID, or for a dry run).
  let identitiesFacts: FileFacts?
  /// Each file written so far, from its pending name to its published one.
  let renames: [(from: String, to: String)]
  /// When the last of them was written (the build's timings).
  let writtenAt: MonotonicInstant
}

extension Publisher {
  /// Writes a delta from each base whose content differs (a device that
  /// holds the content needs no file at all), when a device would load it,
  /// records the shards with their deltas, and writes the identity
  /// details beside the snapshot.
  func writeDeltas(
    _ prepared: PreparedBuild, _ compiled: CompiledBuild, _ blobs: WrittenBlobs, pending: inout PendingFiles,
    deferringSyncsTo pendingSyncs: FileSystem.DeferredSyncs, warnings: inout [String]
  ) throws(StoreError) -> WrittenDeltas {
    let (version, snapshot, pendingPath) = (prepared.version, compiled.snapshot, blobs.pendingPath)
    var renames: [(from: String, to: String)] = []
    // Without shards the manifest lists the full blob, with its SHA-256.
    let blobFacts: FileFacts
    if let fullFacts = blobs.fullFacts {
      blobFacts = fullFacts
    } else {
      blobFacts = try FileFacts.of(pendingPath, withSHA256: blobs.shardBlobs.paths.isEmpty)
    }
    let bases = try deltaBases(prepared, warnings: &warnings)
    var deltas: [DeltaRecord] = []
    var deltaChanges: [String: DeltaChanges] = [:]
    for base in bases where base.digest != blobs.header.contentDigest.hex {
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
      blobs.shardBlobs, version: version, bases: bases, catalog: prepared.catalog, pending: &pending,
      renames: &renames, deltaChanges: &deltaChanges, deferringSyncsTo: pendingSyncs, warnings: &warnings)
    // The identity details go beside the snapshot, under a pending name
    // like it; the icons into the store under their SHA-256.
    var identitiesFacts: FileFacts?
    let identitiesName = StoreLayout.identitiesName(version)
    if let identities = blobs.identities, !options.dryRun {
      let identitiesPending = pending.add(pendingLocation(for: identitiesName))
      identitiesFacts = try identities.write(to: identitiesPending, deferringSyncsTo: pendingSyncs)
      renames.append((identitiesPending, store.path(identitiesName)))
    }
    return WrittenDeltas(
      blobFacts: blobFacts, deltas: deltas, shards: shards, shardDeltas: shardDeltas, deltaChanges: deltaChanges,
      identitiesFacts: identitiesFacts, renames: renames, writtenAt: MonotonicInstant.now())
  }

  /// The versions a delta is built from: the latest `deltaHistory` ones
  /// not pruned, newest first, whose blobs are the ones the catalog
  /// recorded.
  func deltaBases(_ prepared: PreparedBuild, warnings: inout [String]) throws(StoreError) -> [SnapshotRecord] {
    var bases: [SnapshotRecord] = []
    guard prepared.config.deltaHistory > 0 else { return bases }
    let candidates = (try prepared.catalog.map { catalog throws(StoreError) in try catalog.allSnapshots() } ?? [])
      .filter { $0.prunedAt == nil }
    for base in candidates.suffix(prepared.config.deltaHistory).reversed() {
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
    return bases
  }

  /// Records the shard blobs written with the full snapshot (renamed into
  /// place with it) and writes their deltas from the bases' shards.
  func recordShards(
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

  /// Writes the delta between two blobs to `pendingPath`; returns its facts
  /// and the entries it adds and removes, or nil (with the file removed)
  /// when a device would load the full snapshot of `fullEntries` instead
  /// (the delta adds and removes more entries: ``ReloadCost``, whatever
  /// either file's size) or the blobs cannot be joined by a delta (then
  /// with a warning).
  /// - Throws: ``StoreError/file(_:)`` when a blob cannot be read or the
  ///   delta cannot be written (a full disk, an I/O error): a version is
  ///   never published without a delta it should have.
  func writeDelta(
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
}
