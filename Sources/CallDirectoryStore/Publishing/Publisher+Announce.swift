import CallDirectoryCompiler
import CallDirectorySync
import CalldirSystem
import Sodium

extension Publisher {
  /// The last stage of ``Publisher/build()``: puts the recorded version's
  /// files in place (each directory synced once) before the manifest that
  /// points to them, then writes the manifest and its signature.
  func announce(
    _ recorded: RecordedVersion, _ prepared: PreparedBuild, _ blobs: WrittenBlobs, _ written: WrittenDeltas,
    result: Result
  ) throws(StoreError) -> Result {
    var result = result
    let (version, record) = (prepared.version, recorded.record)
    let publishedSyncs = FileSystem.DeferredSyncs()
    for (from, to) in recorded.renames {
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
    result.rejectsPath = store.path(recorded.rejectsName)
    result.conflictsPath = store.path(recorded.conflictsName)
    // The blobs this build wrote were read back once written: their
    // checksums and SHA-256 serve the manifest without another read.
    var readBack = [blobs.snapshotName: written.blobFacts]
    for (index, facts) in blobs.shardBlobs.facts.enumerated() {
      readBack[StoreLayout.snapshotName(version, shard: index + 1)] = facts
    }
    let manifest = try publishManifest(
      of: record, config: prepared.config, key: prepared.key, catalog: recorded.catalog, readBack: readBack,
      into: &result)
    // What a device one version behind reloads, from the manifest it reads.
    if let latest = prepared.latest {
      result.extensions = ReloadForecast.apply(
        to: result.extensions, manifest: manifest.extensions, version: version,
        previous: ReloadForecast.held(at: latest, shards: blobs.shardBlobs.previous))
    }
    return result
  }

  /// Writes the manifest of `record` (the latest version) and its
  /// signature, last; returns the manifest.
  @discardableResult
  func publishManifest(
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
  func manifestExpiry(config: BuildConfig) throws(BuildError) -> String? {
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
}
