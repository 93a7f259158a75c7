import CallDirectorySync
import CalldirSystem
import Foundation
import Sodium
import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectoryStore

/// The store's own guarantees, in process (the end-to-end sweeps run the
/// binary): key pairs made exclusively, a manifest always beside its own
/// signature, a version never published without its deltas, pruned
/// versions kept through a repair, and a catalog that is never lost.
@Suite struct StoreSafetyUnitTests {
  // MARK: - keys

  @Test func aKeyPairIsMadeExclusivelyOrNotAtAll() throws {
    let workspace = try Workspace()
    let made = try SigningKey.generate(prefix: workspace.path("site"))
    #expect(try SigningKey.load(made.secretPath).publicKey == made.pair.publicKey)
    #expect(try SigningKey.loadPublic(made.publicPath) == made.pair.publicKey)
    let again = #expect(throws: FileError.self) { try SigningKey.generate(prefix: workspace.path("site")) }
    #expect(again?.errno == .fileExists)
    // The .pub cannot be made: the .key made just before goes again.
    for rule in [
      FaultInjection.Rule(call: .link, occurrence: 2, fault: .fail(.ioError)),
      FaultInjection.Rule(call: .fsync, occurrence: 4, fault: .fail(.ioError)),
      FaultInjection.Rule(call: .write, occurrence: 1, fault: .fail(.noSpace), persists: true),
    ] {
      FaultInjection.install([rule])
      let failed = #expect(throws: FileError.self) { try SigningKey.generate(prefix: workspace.path("other")) }
      FaultInjection.reset()
      #expect(failed?.errno != .fileExists, "\(rule)")
      #expect(try FileSystem.contentsOfDirectory(workspace.path("")) == ["site.key", "site.pub"], "\(rule)")
    }
    // A .pub already there (another pair's): nothing is made.
    try FileManager.default.copyItem(atPath: made.publicPath, toPath: workspace.path("third.pub"))
    #expect(throws: FileError.self) { try SigningKey.generate(prefix: workspace.path("third")) }
    #expect(!FileSystem.exists(workspace.path("third.key")))
  }

  @Test func aSecretKeyBesideAnotherKeysPublicKeyIsRefused() throws {
    let workspace = try Workspace()
    let first = try SigningKey.generate(prefix: workspace.path("first"))
    let second = try SigningKey.generate(prefix: workspace.path("second"))
    try FileManager.default.removeItem(atPath: first.publicPath)
    try FileManager.default.copyItem(atPath: second.publicPath, toPath: first.publicPath)
    let error = #expect(throws: SigningKeyError.self) { try SigningKey.load(first.secretPath) }
    guard case .mismatchedPublicKey(let path, let publicPath)? = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(path == first.secretPath && publicPath == first.publicPath)
    try FileManager.default.removeItem(atPath: first.publicPath)
    #expect(try SigningKey.load(first.secretPath).publicKey == first.pair.publicKey)
  }

  // MARK: - the manifest and its signature

  static func manifest(version: Int) -> Manifest {
    Manifest(
      dataset: "com.example", version: version, published: "2026-12-0\(version)T00:00:00Z", fullEvery: 30,
      extensions: [
        Manifest.Extension(
          index: 1, lower: 1, upper: 99, counts: .init(blocking: 1, identification: 0),
          full: .init(path: "snapshots/snapshot-00000\(version).cdir", bytes: 10, sha256: String(repeating: "a", count: 64)),
          deltas: [])
      ])
  }

  @Test func whereverAPublishStopsTheManifestInPlaceVerifies() throws {
    let workspace = try Workspace()
    let store = StoreLayout(root: workspace.path("store"))
    try FileSystem.createDirectory(store.root)
    let publisher = ManifestPublisher(store: store, catalog: try Catalog(path: store.catalog))
    let key = try #require(Ed25519.keyPair())
    let trust = ManifestTrust(publicKey: key.publicKey, verifier: SodiumSignatureVerifier())
    func read() throws -> (manifest: [UInt8], signature: [UInt8]) {
      (try FileSystem.contents(of: store.path("manifest.json")), try FileSystem.contents(of: store.path("manifest.json.sig")))
    }
    try publisher.publish(Self.manifest(version: 1), key: key)
    let first = try read()
    #expect(String(decoding: first.signature, as: UTF8.self).split(separator: "\n").count == 1)
    var stopped = 0
    for call in [FaultInjection.Call.write, .fsync, .rename] {
      for occurrence in 1...9 {
        try publisher.publish(Self.manifest(version: 1), key: key)
        FaultInjection.install([FaultInjection.Rule(call: call, occurrence: occurrence, fault: .fail(.noSpace), persists: true)])
        let outcome = Result { try publisher.publish(Self.manifest(version: 2), key: key) }
        FaultInjection.reset()
        if case .failure = outcome { stopped += 1 }
        let (manifest, signature) = try read()
        let trusted = try trust.verify(manifest: manifest, signature: signature)
        #expect([1, 2].contains(trusted.manifest.version), "\(call) \(occurrence)")
        // The next publish finishes: one line, the new manifest's.
        try publisher.publish(Self.manifest(version: 2), key: key)
        let finished = try read()
        #expect(try trust.verify(manifest: finished.manifest, signature: finished.signature).manifest.version == 2)
        #expect(String(decoding: finished.signature, as: UTF8.self).split(separator: "\n").count == 1)
      }
    }
    #expect(stopped > 5)
    // Nothing to do when both files are what they should be.
    #expect(try publisher.publish(Self.manifest(version: 2), key: key) == false)
  }

  // MARK: - builds, prunes and repairs

  /// A workspace with a config of `count` scattered numbers.
  static func workspace(numbers count: Int) throws -> Workspace {
    let workspace = try Workspace()
    try writeNumbers(count, in: workspace)
    try workspace.config([#"{"path": "block.txt", "format": "lines", "list": "block"}"#])
    return workspace
  }

  static func writeNumbers(_ count: Int, in workspace: Workspace) throws {
    // Scattered: a delta of a few numbers is smaller than the snapshot.
    try workspace.write("block.txt", (0..<count).map { "+4121\(String(format: "%07d", $0 * 9973))\n" }.joined())
  }

  static func build(_ workspace: Workspace) throws -> Publisher.Result {
    try Publisher(
      configPath: workspace.path("calldir.json"), store: StoreLayout(root: workspace.path("store")),
      options: .init(asOf: CalendarDay(iso8601: "2026-12-01")!, publishedAt: "2026-12-01T00:00:00Z")
    ).build()
  }

  @Test func aDeltaThatCannotBeWrittenFailsTheBuildAndTheNextOneMakesIt() throws {
    var failures = 0
    for occurrence in 1...12 {
      let workspace = try Self.workspace(numbers: 300)
      _ = try Self.build(workspace)
      try Self.writeNumbers(310, in: workspace)
      FaultInjection.install([FaultInjection.Rule(call: .write, occurrence: occurrence, fault: .fail(.noSpace))])
      let outcome = Result { try Self.build(workspace) }
      FaultInjection.reset()
      let catalog = try Catalog(path: workspace.path("store/catalog.sqlite"))
      switch outcome {
      case .success(let result):
        #expect(result.deltas.map(\.fromVersion) == [1], "write \(occurrence)")
        #expect(result.warnings.isEmpty, "write \(occurrence): \(result.warnings)")
      case .failure(let error):
        failures += 1
        // Before the catalog records the version, or after (the manifest):
        // either way the next build finishes it, with its delta.
        let recorded = try catalog.latest()?.version
        #expect(recorded == 1 || recorded == 2, "write \(occurrence): \(error)")
        let next = try Self.build(workspace)
        #expect(next.version == 2 && next.unchanged == (recorded == 2), "write \(occurrence)")
        if recorded == 1 { #expect(next.deltas.map(\.fromVersion) == [1], "write \(occurrence)") }
      }
      #expect(try catalog.deltas(toVersion: 2).map(\.fromVersion) == [1], "write \(occurrence)")
    }
    #expect(failures > 0)
  }

  @Test func aRepairKeepsPrunedVersionsAndTheOldCatalog() throws {
    let workspace = try Self.workspace(numbers: 100)
    let store = StoreLayout(root: workspace.path("store"))
    for version in 1...4 {
      try Self.writeNumbers(100 + version, in: workspace)
      #expect(try Self.build(workspace).version == version)
    }
    let pruned = try StorePruner(store: store).prune(keep: 2)
    #expect(pruned.prunedVersions == [1, 2])
    let before = try Catalog(path: store.catalog).allSnapshots()
    let deltas = try (1...4).map { try Catalog(path: store.catalog).deltas(toVersion: $0) }
    #expect(deltas[3].map(\.fromVersion).contains(1), "\(deltas)")
    let report = try StoreRepair(store: store).run()
    #expect(report.pruned == [1, 2] && report.keptFromCatalog == [1, 2, 3, 4] && report.rebuiltFromBlobs.isEmpty)
    #expect(report.oldCatalog == "read" && report.warnings.isEmpty, "\(report.warnings)")
    let after = try Catalog(path: store.catalog)
    #expect(try after.allSnapshots() == before)
    #expect(try (1...4).map { try after.deltas(toVersion: $0) } == deltas)
    let kept = try #require(report.previousCatalog)
    #expect(try Catalog(path: kept).allSnapshots() == before)
    // A second repair keeps another copy, and changes nothing.
    let again = try StoreRepair(store: store).run()
    #expect(again.previousCatalog == store.catalog + ".before-repair-2")
    #expect(try Catalog(path: store.catalog).allSnapshots() == before)
  }

  @Test func aDamagedCatalogIsRebuiltAndKeptAndAnUnreadableOneStopsTheRepair() throws {
    let workspace = try Self.workspace(numbers: 100)
    let store = StoreLayout(root: workspace.path("store"))
    _ = try Self.build(workspace)
    // The catalog's status cannot be read: nothing changes.
    let catalogBytes = try FileSystem.contents(of: store.catalog, limit: 1 << 30)
    FaultInjection.install([FaultInjection.Rule(call: .stat, occurrence: 1, fault: .fail(.ioError), persists: true)])
    let unreadable = #expect(throws: StoreError.self) { try StoreRepair(store: store).run() }
    FaultInjection.reset()
    guard case .file(let error)? = unreadable else {
      Issue.record("\(String(describing: unreadable))")
      return
    }
    #expect(error.errno == .ioError)
    #expect(try FileSystem.contents(of: store.catalog, limit: 1 << 30) == catalogBytes)
    #expect(!FileSystem.exists(store.catalog + ".before-repair-1"))
    // Not a database: rebuilt from the files, the damaged bytes kept.
    for suffix in ["-wal", "-shm"] { try FileSystem.removeFile(store.catalog + suffix) }
    let damaged = Array(repeating: UInt8(ascii: "x"), count: 8192)
    try AtomicFile.write(damaged, to: store.catalog)
    #expect(throws: StoreError.self) { try Catalog.openForReading(store) }
    let report = try StoreRepair(store: store).run()
    #expect(report.oldCatalog == "damaged" && report.rebuiltFromBlobs == [1])
    #expect(try FileSystem.contents(of: try #require(report.previousCatalog), limit: 1 << 20) == damaged)
    #expect(try Catalog.openForReading(store).latest()?.version == 1)
  }
}
