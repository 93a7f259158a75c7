import CallDirectoryFormat
import CallDirectorySync
import CalldirSystem
import Foundation
import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectoryStore

/// A build publishes, for every shard that changed, the delta a device one
/// version behind needs (whatever its size in bytes) and nothing for a
/// shard that did not; the manifest gives each extension's content digest
/// and each delta's adds and removes; and the build forecasts what a
/// device one version behind reloads, as the device's planner plans it.
@Suite struct ReloadForecastTests {
  /// Shards of at most 1,000 entries: 1,600 scattered numbers (shards 1
  /// and 2, 800 each), then a run of 1,000 (shard 3, a few bytes).
  static func workspace() throws -> Workspace {
    let workspace = try Workspace()
    try workspace.write("block.txt", (0..<1600).map { "+1212\(String(format: "%07d", 1000 + $0 * 4973))\n" }.joined())
    try workspace.write("run.txt", "+19005550###\n")
    try workspace.write("allow.txt", "")
    try workspace.config(
      [
        #"{"path": "block.txt", "format": "lines", "list": "block"}"#,
        #"{"path": "run.txt", "format": "patterns", "list": "block"}"#,
        #"{"path": "allow.txt", "format": "lines", "list": "allow"}"#,
      ], extra: #""maxEntriesPerExtension": 1000, "maxRemovalRatio": 0.9,"#)
    return workspace
  }

  static func build(_ workspace: Workspace, day: Int, dryRun: Bool = false) throws -> Publisher.Result {
    try Publisher(
      configPath: workspace.path("calldir.json"), store: StoreLayout(root: workspace.path("store")),
      options: .init(
        dryRun: dryRun, asOf: CalendarDay(iso8601: "2026-12-0\(day)")!, publishedAt: "2026-12-0\(day)T00:00:00Z")
    ).build()
  }

  static func manifest(_ workspace: Workspace) throws -> Manifest {
    try Manifest(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: workspace.path("store/manifest.json")))))
  }

  @Test func onlyChangedShardsGetDeltasAndADeviceOneVersionBehindReloadsOnlyThem() throws {
    let workspace = try Self.workspace()
    let first = try Self.build(workspace, day: 1)
    try #require(first.shards.count == 3 && first.shards[2].blocking == 1000, "\(first.shards)")
    #expect(first.extensions.allSatisfy { $0.oneVersionBehind == nil })
    let v1 = try Self.manifest(workspace)
    #expect(zip(v1.extensions, first.shards).allSatisfy { $0.digest == $1.digest })

    // Version 2: one number more in shard 1, one less in the middle of
    // the run (shard 3); shard 2 stays as it was.
    try workspace.write(
      "block.txt", "+12120000007\n" + (0..<1600).map { "+1212\(String(format: "%07d", 1000 + $0 * 4973))\n" }.joined())
    try workspace.write("allow.txt", "+19005550100\n")
    let preview = try Self.build(workspace, day: 2, dryRun: true)
    let second = try Self.build(workspace, day: 2)
    try #require(second.version == 2 && second.shards.count == 3)
    #expect(second.shardDeltas.map(\.shard) == [1, 3], "\(second.shardDeltas)")
    let names = try FileManager.default.contentsOfDirectory(atPath: workspace.path("store/deltas")).sorted()
    #expect(names.filter { $0.contains("shard") } == [
      "delta-000001-000002-shard-01.cdir", "delta-000001-000002-shard-03.cdir",
    ])

    let manifest = try Self.manifest(workspace)
    for (item, shard) in zip(manifest.extensions, second.shards) {
      #expect(item.digest == shard.digest)
    }
    #expect(manifest.extensions[1].digest == v1.extensions[1].digest && manifest.extensions[1].deltas.isEmpty)
    #expect(manifest.extensions[0].digest != v1.extensions[0].digest && manifest.extensions[2].digest != v1.extensions[2].digest)
    // The run's delta removes one number: more bytes than its full blob
    // (two runs), one entry against 999; it is published and chosen.
    let run = manifest.extensions[2]
    let delta = try #require(run.deltas.first)
    #expect(delta.from == 1 && delta.adds == 0 && delta.removes == 1)
    #expect(delta.file.bytes > run.full.bytes, "delta \(delta.file.bytes) bytes, full \(run.full.bytes)")
    let added = try #require(manifest.extensions[0].deltas.first)
    #expect(added.adds == 1 && added.removes == 0)
    let header = try BlobReader.readHeader(path: workspace.path("store/" + delta.file.path))
    #expect(header.addedEntries == 0 && header.removedEntries == 1)

    // What a device at version 1 reloads, as its planner plans it.
    for result in [preview, second] {
      let forecasts = result.extensions.map(\.oneVersionBehind)
      #expect(forecasts.map { $0?.strategy } == [.delta, .unchanged, .delta], "dry run \(result.dryRun)")
      #expect(forecasts.map { $0?.entries } == [1, 0, 1] && forecasts.allSatisfy { $0?.from == 1 })
    }
    let device = try SyncPlanner.plan(
      try signed(manifest),
      state: SyncState(
        dataset: "", version: 1, published: v1.published, incrementalSyncs: 0,
        extensions: [1: 1, 2: 1, 3: 1], digests: Dictionary(uniqueKeysWithValues: v1.extensions.map { ($0.index, $0.digest ?? "") })))
    #expect(device.steps.map { $0.step.reloadEntries(of: $0.extension) } == second.extensions.map { $0.oneVersionBehind?.entries })

    // An unchanged build forecasts the latest version against the one before.
    let unchanged = try Self.build(workspace, day: 3)
    #expect(unchanged.unchanged && unchanged.extensions.map(\.oneVersionBehind) == second.extensions.map(\.oneVersionBehind))
  }

  @Test func aDeltaThatReloadsMoreThanTheFullSnapshotIsNotPublished() throws {
    let workspace = try Self.workspace()
    _ = try Self.build(workspace, day: 1)
    // Every scattered number one lower, in the same shard: shards 1 and 2
    // are new entries (each delta would remove 800 and add 800, against
    // 800 in the full snapshot); the run stays.
    try workspace.write("block.txt", (0..<1600).map { "+1212\(String(format: "%07d", 999 + $0 * 4973))\n" }.joined())
    let second = try Self.build(workspace, day: 2)
    try #require(second.shards.map(\.blocking) == [800, 800, 1000], "\(second.shards)")
    #expect(second.shardDeltas.isEmpty, "\(second.shardDeltas)")
    #expect(second.extensions.map { $0.oneVersionBehind?.strategy } == [.full, .full, .unchanged])
    #expect(second.extensions.map { $0.oneVersionBehind?.entries } == [800, 800, 0])
  }

  /// `manifest`, as a device has it after verifying its signature.
  func signed(_ manifest: Manifest) throws -> TrustedManifest {
    struct AcceptAll: SignatureVerifier {
      func isValidSignature(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool { true }
    }
    return try ManifestTrust(publicKey: [UInt8](repeating: 0, count: 32), verifier: AcceptAll())
      .verify(manifest: manifest.serialized(), signature: Array(Base64.encode([UInt8](repeating: 0, count: 64)).utf8))
  }
}
