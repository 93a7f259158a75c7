import CallDirectoryFormat
import CallDirectorySync

/// What a device one version behind reloads of one extension to reach a
/// version (`build --json`'s `oneVersionBehind`), planned as `device sync`
/// plans it (``SyncPlanner/step(for:version:held:fullOnly:)`` on the
/// manifest, with the previous version's content digests as what the
/// device holds, and no periodic full sync due).
public struct ReloadForecast: Sendable, Hashable {
  /// How the extension gets to the version.
  public enum Strategy: String, Sendable, Hashable {
    /// Its content digest is the previous version's: no reload request.
    case unchanged
    /// The delta from the previous version.
    case delta
    /// Its full snapshot (no delta from the previous version, one that
    /// reloads more entries than the full snapshot holds, or an extension
    /// the previous version did not have).
    case full
  }

  /// The version the device holds.
  public var from: Int
  public var strategy: Strategy
  /// The entries its reload adds or removes (``ReloadCost``); 0 when
  /// unchanged.
  public var entries: Int

  /// The estimated seconds of the reload on a phone.
  public var seconds: Double { ReloadCost.seconds(entries: entries) }

  /// `plans` with each extension's forecast for a device that holds
  /// `previous` (its version and each extension's content digest), from
  /// `extensions`, the manifest of `version` (or what it would say).
  static func apply(
    to plans: [ExtensionPlan], manifest extensions: [Manifest.Extension], version: Int,
    previous: (version: Int, digests: [Int: String])
  ) -> [ExtensionPlan] {
    plans.map { plan in
      guard let item = extensions.first(where: { $0.index == plan.index }) else { return plan }
      let held = previous.digests[item.index].map { HeldSnapshot(version: previous.version, digest: $0) }
      let step = SyncPlanner.step(for: item, version: version, held: held)
      let strategy: Strategy =
        switch step {
        case .upToDate, .unchanged: .unchanged
        case .delta: .delta
        case .full: .full
        }
      var forecast = plan
      forecast.oneVersionBehind = ReloadForecast(
        from: previous.version, strategy: strategy, entries: step.reloadEntries(of: item) ?? item.entries)
      return forecast
    }
  }

  /// What a device that synced `record` holds: its version and each of
  /// its extensions' content digests (its shards', or the snapshot's as
  /// extension 1).
  static func held(at record: SnapshotRecord, catalog: Catalog) throws(StoreError)
    -> (version: Int, digests: [Int: String])
  {
    held(at: record, shards: try catalog.shards(ofVersion: record.version))
  }

  /// ``held(at:catalog:)`` from the version's shards, already read.
  static func held(at record: SnapshotRecord, shards: [ShardRecord]) -> (version: Int, digests: [Int: String]) {
    guard !shards.isEmpty else { return (record.version, [1: record.digest]) }
    return (record.version, Dictionary(shards.map { ($0.shard, $0.digest) }, uniquingKeysWith: { first, _ in first }))
  }

  /// The manifest's extensions as a build that publishes nothing (a dry
  /// run) would write them: from the version's records and what its deltas
  /// change (their SHA-256s, which no plan reads, left empty).
  static func extensions(
    record: (version: Int, digest: String, blocking: Int, identification: Int), path: String, bytes: Int64,
    deltas: [DeltaRecord], shards: [ShardRecord], shardDeltas: [ShardDeltaRecord], changes: [String: DeltaChanges]
  ) -> [Manifest.Extension] {
    func delta(from: Int, path: String, bytes: Int64) -> Manifest.Delta {
      Manifest.Delta(
        from: from, file: Manifest.File(path: path, bytes: bytes, sha256: ""), adds: changes[path]?.adds,
        removes: changes[path]?.removes)
    }
    guard !shards.isEmpty else {
      return [
        Manifest.Extension(
          index: 1, lower: 1, upper: BlobLimits.maxNumber,
          counts: .init(blocking: record.blocking, identification: record.identification), digest: record.digest,
          full: Manifest.File(path: path, bytes: bytes, sha256: ""),
          deltas: deltas.map { delta(from: $0.fromVersion, path: $0.path, bytes: $0.bytes) })
      ]
    }
    return shards.map { shard in
      Manifest.Extension(
        index: shard.shard, lower: shard.lowerBound, upper: shard.upperBound,
        counts: .init(blocking: shard.blocking, identification: shard.identification), digest: shard.digest,
        full: Manifest.File(path: shard.path, bytes: shard.bytes, sha256: ""),
        deltas: shardDeltas.filter { $0.shard == shard.shard }.map {
          delta(from: $0.fromVersion, path: $0.path, bytes: $0.bytes)
        })
    }
  }
}

/// The entries a delta adds and removes (its header's): what a device
/// reloads when it applies the delta.
struct DeltaChanges: Sendable, Hashable {
  var adds: Int
  var removes: Int
}
