import CallDirectoryFormat
import CallDirectorySync
import CalldirSystem

extension Publisher {
  /// The result of a build whose content, Live Caller ID settings and
  /// details equal the latest version's, and which every guard passed:
  /// nothing is published but the manifest, written again (none for a
  /// dry run); nil when the build publishes a new version.
  func unchangedResult(
    _ prepared: PreparedBuild, _ compiled: CompiledBuild, _ blobs: WrittenBlobs, warnings: [String]
  ) throws(BuildError) -> Result? {
    let (config, key, catalog, snapshot, checks) =
      (prepared.config, prepared.key, prepared.catalog, compiled.snapshot, compiled.checks)
    guard let latest = prepared.latest, latest.digest == blobs.header.contentDigest.hex,
      latest.liveCallerID == prepared.liveCallerID?.settingsText, latest.identitiesDigest == blobs.identities?.digest,
      !checks.contains(where: { !$0.passed })
    else { return nil }
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
}
