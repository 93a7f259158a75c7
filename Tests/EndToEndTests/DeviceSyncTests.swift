import CallDirectorySync
import Foundation
import Sodium
import Testing

/// `calldir device sync` end to end: stores built by `calldir build`, signed
/// manifests, a real HTTP server on loopback (`busybox httpd`) and one of
/// the tests' own that drops connections, the built binary syncing
/// simulated devices.
@Suite struct DeviceSyncTests {
  let directory: TemporaryDirectory

  init() throws {
    directory = try TemporaryDirectory()
  }

  func device(_ name: String) -> SyncDevice { SyncDevice(path: directory.path(name)) }

  /// The `extensions` array of a sync's JSON.
  func extensions(_ json: [String: Any]) throws -> [[String: Any]] {
    try #require(json["extensions"] as? [[String: Any]])
  }

  @Test(.enabled(if: BusyboxHTTPServer.isAvailable, "busybox is not installed (make deps installs it)"))
  func aShardedChainSyncsVersionByVersionAndSkippingVersionsOverHTTP() throws {
    let store = SyncStore(in: directory, maxEntriesPerExtension: 600)
    let key = try store.publicKeyFile()
    let stepwise = device("stepwise")
    let skipping = device("skipping")
    try store.publish(1)
    let server = try BusyboxHTTPServer(serving: store.root)
    var deltasLoaded = 0
    for version in 1...5 {
      if version > 1 { try store.publish(version) }
      let manifest = try store.servedManifest()
      #expect(manifest.extensions.count >= 3, "a sharded store")
      let json = try stepwise.synced(from: server.url, key: key)
      #expect(json["version"] as? Int == version && json["dataset"] as? String == store.dataset)
      #expect(json["upToDate"] as? Bool == false)
      #expect(json["previous"] as? Int == (version == 1 ? nil : version - 1))
      var bytes = 0
      for (item, info) in zip(manifest.extensions, try extensions(json)) {
        let delta = item.deltas.first { $0.from == version - 1 }
        #expect(info["index"] as? Int == item.index)
        #expect(info["strategy"] as? String == (delta == nil ? "full" : "delta"), "version \(version): \(info)")
        #expect(info["bytes"] as? Int == Int(delta?.file.bytes ?? item.full.bytes))
        #expect(info["from"] as? Int == (version == 1 ? nil : version - 1))
        bytes += info["bytes"] as? Int ?? 0
        if delta != nil { deltasLoaded += 1 }
      }
      #expect(json["downloaded"] as? Int == bytes)
      try stepwise.expectHolds(store, version: version)
      #expect(stepwise.staged().isEmpty)

      if version % 2 == 1 {
        let json = try skipping.synced(from: server.url, key: key)
        #expect(json["previous"] as? Int == (version == 1 ? nil : version - 2))
        if version > 1 {
          #expect(try extensions(json).contains { $0["strategy"] as? String == "delta" && $0["from"] as? Int == version - 2 })
        }
        try skipping.expectHolds(store, version: version)
      }
    }
    #expect(deltasLoaded >= 8)

    // Synced again: already up to date, nothing fetched.
    let again = try stepwise.synced(from: server.url, key: key)
    #expect(again["upToDate"] as? Bool == true && again["downloaded"] as? Int == 0)
    #expect(try extensions(again).allSatisfy { $0["strategy"] as? String == "upToDate" })
    let text = try stepwise.sync(from: server.url, key: key)
    #expect(text.status == 0 && text.standardOutput == "\(store.dataset): already up to date (version 5)\n")
  }

  @Test(.enabled(if: BusyboxHTTPServer.isAvailable, "busybox is not installed (make deps installs it)"))
  func untrustedManifestsAndFilesAreRefusedAndChangeNothing() throws {
    let store = SyncStore(in: directory)
    let key = try store.publicKeyFile()
    let phone = device("phone")
    let server = try BusyboxHTTPServer(serving: store.root)
    for version in 1...3 { try store.publish(version) }
    _ = try phone.synced(from: server.url, key: key)
    try store.publish(4)
    try store.publish(5)
    #expect(try extensions(try phone.synced(from: server.url, key: key)).first?["strategy"] as? String == "delta")
    try phone.expectHolds(store, version: 5)
    try store.publish(6)
    let before = try phone.snapshot()

    func expectRefused(_ result: CalldirProcess.Result, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
      #expect(result.status == 65, "\(result.standardError)", sourceLocation: sourceLocation)
      #expect(result.standardError.contains(message), "\(result.standardError)", sourceLocation: sourceLocation)
      #expect(result.standardOutput.isEmpty, sourceLocation: sourceLocation)
      #expect(try phone.snapshot() == before, sourceLocation: sourceLocation)
      #expect(phone.staged().allSatisfy { !$0.hasSuffix(".part") }, sourceLocation: sourceLocation)
    }

    // One byte of the manifest changed after signing.
    let manifestPath = store.root + "/manifest.json"
    var manifest = try Data(contentsOf: URL(fileURLWithPath: manifestPath))
    manifest[manifest.count / 2] ^= 0x01
    try manifest.write(to: URL(fileURLWithPath: manifestPath))
    try expectRefused(
      try phone.sync(from: server.url, key: key),
      "error: the manifest's signature does not verify with the public key; nothing was installed")
    try store.serveManifest(of: 6)

    // Another key.
    let other = directory.path("other.pub")
    try Data((Base64.encode(Ed25519.keyPair()!.publicKey) + "\n").utf8).write(to: URL(fileURLWithPath: other))
    try expectRefused(try phone.sync(from: server.url, key: other), "signature does not verify")

    // No signature at all (404): refused for good, not a network error to retry.
    let signaturePath = store.root + "/manifest.json.sig"
    let signature = try Data(contentsOf: URL(fileURLWithPath: signaturePath))
    try FileManager.default.removeItem(atPath: signaturePath)
    // The message names the store, not the missing file's own URL.
    let storeURL = server.url.hasSuffix("/") ? server.url : server.url + "/"
    try expectRefused(
      try phone.sync(from: server.url, key: key),
      "error: \(storeURL) has no manifest.json.sig: the store's manifest is not signed")
    let unsigned = try phone.sync(from: server.url, key: key, ["--json"])
    #expect((try jsonObject(unsigned.standardOutput)["error"] as? [String: Any])?["kind"] as? String == "signature")
    try signature.write(to: URL(fileURLWithPath: signaturePath))

    // An older manifest, genuinely signed: a replay of version 3.
    try store.serveManifest(of: 3)
    try expectRefused(
      try phone.sync(from: server.url, key: key),
      "error: the manifest offers version 3, older than the installed version 5 (a replay or a rollback)")
    let json = try phone.sync(from: server.url, key: key, ["--json"])
    #expect(json.status == 65)
    #expect((try jsonObject(json.standardOutput)["error"] as? [String: Any])?["kind"] as? String == "rollback")
    try store.serveManifest(of: 6)

    // One byte of the blob the sync needs changed on the server.
    let delta = try #require(try store.servedManifest().extensions[0].deltas.first { $0.from == 5 })
    let blobPath = store.root + "/" + delta.file.path
    let genuine = try Data(contentsOf: URL(fileURLWithPath: blobPath))
    var tampered = genuine
    tampered[tampered.count - 7] ^= 0x01
    try tampered.write(to: URL(fileURLWithPath: blobPath))
    try expectRefused(
      try phone.sync(from: server.url, key: key),
      "error: \(delta.file.path) is not the file the manifest names: its sha-256 is not the manifest's")
    #expect(phone.staged().isEmpty, "the tampered download is discarded")
    try genuine.write(to: URL(fileURLWithPath: blobPath))
    _ = try phone.synced(from: server.url, key: key)
    try phone.expectHolds(store, version: 6)
  }

  @Test(.enabled(if: BusyboxHTTPServer.isAvailable, "busybox is not installed (make deps installs it)"))
  func anotherDatasetIsRefusedUntilTheDeviceIsReset() throws {
    let store = SyncStore(in: directory)
    let other = SyncStore(in: directory, name: "other", dataset: "org.example.other", size: 900)
    let phone = device("phone")
    try store.publish(1)
    try store.publish(2)
    _ = try phone.synced(from: store.root, key: try store.publicKeyFile())
    // The other store, served over HTTP, genuinely signed with its own key.
    try other.publish(1)
    let server = try BusyboxHTTPServer(serving: other.root)
    let before = try phone.snapshot()
    let refused = try phone.sync(from: server.url, key: try other.publicKeyFile())
    #expect(refused.status == 65)
    #expect(refused.standardError.contains(
      "error: the manifest is of dataset 'org.example.other', the device holds 'com.example.blocklist'; nothing was installed"))
    #expect(try phone.snapshot() == before)

    let reset = try CalldirProcess.run(["device", "reset", "--device", phone.path])
    #expect(reset.status == 0, "\(reset.standardError)")
    #expect(reset.standardOutput.contains("removed 1 extension, forgot its sync of com.example.blocklist version 2"))
    #expect(try phone.dump().isEmpty && (try phone.status().sync == nil))
    let adopted = try phone.synced(from: server.url, key: try other.publicKeyFile())
    #expect(adopted["dataset"] as? String == "org.example.other" && adopted["previous"] is NSNull)
    try phone.expectHolds(other, version: 1)
    #expect(try phone.status().sync?["dataset"] as? String == "org.example.other")
  }

  @Test func anExtensionThatCannotApplyItsDeltaLoadsTheFullSnapshot() throws {
    // A store rebuilt from scratch: its version 2 is other content than the
    // phone's, so the delta from 2 does not apply to what the phone holds.
    let store = SyncStore(in: directory)
    let rebuilt = SyncStore(in: directory, name: "rebuilt", size: 900)
    let phone = device("phone")
    try store.publish(1)
    try store.publish(2)
    _ = try phone.synced(from: store.root, key: try store.publicKeyFile())
    for version in 1...3 { try rebuilt.publish(version) }
    #expect(try rebuilt.servedManifest().extensions[0].deltas.contains { $0.from == 2 })
    let json = try phone.synced(from: rebuilt.root, key: try rebuilt.publicKeyFile())
    let info = try #require(try extensions(json).first)
    #expect(info["strategy"] as? String == "full" && info["unusableDelta"] as? Int == 2, "\(info)")
    try phone.expectHolds(rebuilt, version: 3)

    // An extension whose last request's outcome was never recorded (the
    // app was killed while the system loaded it) takes only a full snapshot.
    try rebuilt.publish(4)
    let state = phone.path + "/extensions/calldir.extension.1/container/CallDirectory/state.json"
    var object = try jsonObject(try String(contentsOfFile: state, encoding: .utf8))
    object["pendingVersion"] = 4
    object["pendingDigest"] = String(repeating: "0", count: 64)
    try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: state))
    let text = try phone.sync(from: rebuilt.root, key: try rebuilt.publicKeyFile())
    #expect(text.status == 0, "\(text.standardError)")
    #expect(text.standardOutput.contains(
      "full snapshot, \(try rebuilt.servedManifest().extensions[0].full.bytes) bytes (the extension cannot apply the delta "
        + "from version 3: no usable blob: the outcome of the last request was never recorded"), "\(text.standardOutput)")
    try phone.expectHolds(rebuilt, version: 4)
  }

  @Test func aFullSnapshotWhoseCountsAreNotTheManifestsIsRefused() throws {
    let store = SyncStore(in: directory)
    let key = try store.publicKeyFile()
    try store.publish(1)
    var manifest = try store.servedManifest()
    manifest.extensions[0].counts.blocking += 1
    try store.serve(manifest.serialized())
    let phone = device("phone")
    let result = try phone.sync(from: store.root, key: key)
    #expect(result.status == 65, "\(result.standardError)")
    #expect(result.standardError.contains("is not the file the manifest names: it holds"), "\(result.standardError)")
    #expect(try phone.status().sync == nil && (try phone.dump().isEmpty))
  }

  /// `device load` outside the sync: another dataset is refused, and an
  /// extension a load moved to another version is brought back by the
  /// next sync (the provider's record corrects the sync's).
  @Test func loadsOutsideTheSyncAreRefusedOrCorrected() throws {
    let store = SyncStore(in: directory)
    let other = SyncStore(in: directory, name: "other", dataset: "org.example.other", size: 900)
    let key = try store.publicKeyFile()
    let phone = device("phone")
    for version in 1...3 { try store.publish(version) }
    _ = try phone.synced(from: store.root, key: key)
    try other.publish(1)
    let foreign = try CalldirProcess.run(["device", "load", "--device", phone.path, try other.snapshotPath(1)])
    #expect(foreign.status == 65, "\(foreign.standardError)")
    #expect(foreign.standardError.contains("is of dataset 'org.example.other'; the device syncs 'com.example.blocklist'"))
    try phone.expectHolds(store, version: 3)

    let older = try CalldirProcess.run(
      ["device", "load", "--device", phone.path, "--allow-downgrade", try store.snapshotPath(2)])
    #expect(older.status == 0, "\(older.standardError)")
    let json = try phone.synced(from: store.root, key: key)
    #expect(json["upToDate"] as? Bool == false, "\(json)")
    #expect(try extensions(json).first?["strategy"] as? String == "delta")
    try phone.expectHolds(store, version: 3)
  }

  @Test func anExpiredManifestIsRefusedUntilABuildSignsAFreshOne() throws {
    let store = SyncStore(in: directory)
    store.manifestLifetimeDays = 7
    let key = try store.publicKeyFile()
    let phone = device("phone")
    // Built as of 2020-01-01: its manifest expired on 2020-01-08.
    let old = try store.publish(1, asOf: "2020-01-01")
    #expect(old["manifestExpires"] as? String == "2020-01-08T00:00:00Z")
    let expired = (
      manifest: try Data(contentsOf: URL(fileURLWithPath: store.root + "/manifest.json")),
      signature: try Data(contentsOf: URL(fileURLWithPath: store.root + "/manifest.json.sig")))
    func expectRefused(sourceLocation: SourceLocation = #_sourceLocation) throws {
      let refused = try phone.sync(from: store.root, key: key)
      #expect(refused.status == 65, "\(refused.standardError)", sourceLocation: sourceLocation)
      #expect(
        refused.standardError.hasPrefix("error: the manifest expired at 2020-01-08T00:00:00Z (the device's clock says 20"),
        "\(refused.standardError)", sourceLocation: sourceLocation)
      let json = try phone.sync(from: store.root, key: key, ["--json"])
      #expect(json.status == 65, sourceLocation: sourceLocation)
      #expect(
        (try jsonObject(json.standardOutput)["error"] as? [String: Any])?["kind"] as? String == "expired",
        sourceLocation: sourceLocation)
    }
    try expectRefused()
    #expect(try phone.status().sync == nil && (try phone.dump().isEmpty))

    // The same sources built today: no new version, but a manifest signed afresh.
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    let today = Date()
    let fresh = try store.publish(1, asOf: formatter.string(from: today))
    #expect(fresh["unchanged"] as? Bool == true)
    let expires = "\(formatter.string(from: today.addingTimeInterval(7 * 86_400)))T00:00:00Z"
    #expect(fresh["manifestExpires"] as? String == expires)
    let synced = try phone.synced(from: store.root, key: key)
    #expect(synced["expires"] as? String == expires && synced["version"] as? Int == 1)
    try phone.expectHolds(store, version: 1)

    // A mirror that froze at the old copy is found out by the phone that synced.
    try expired.manifest.write(to: URL(fileURLWithPath: store.root + "/manifest.json"))
    try expired.signature.write(to: URL(fileURLWithPath: store.root + "/manifest.json.sig"))
    let holding = try phone.snapshot()
    try expectRefused()
    #expect(try phone.snapshot() == holding)
  }

  @Test func aConnectionDroppedMidFileResumesWithARangeRequest() throws {
    let store = SyncStore(in: directory, size: 6000)
    let key = try store.publicKeyFile()
    let phone = device("phone")
    try store.publish(1)
    let full = try #require(try store.servedManifest().extensions.first?.full)
    let cut = Int(full.bytes / 2)
    let server = try DroppingHTTPServer(serving: store.root, drops: [full.path: cut])
    let failed = try phone.sync(from: server.url, key: key)
    #expect(failed.status == 74, "\(failed.standardError)")
    #expect(failed.standardError.hasPrefix("error: cannot fetch \(full.path): \(server.url)\(full.path): "))
    #expect(try phone.dump().isEmpty && (try phone.status().sync == nil) && (try phone.extensions().isEmpty))
    #expect(phone.staged() == ["\(full.sha256).part"])
    let partial = try FileManager.default.attributesOfItem(atPath: phone.path + "/sync/staging/\(full.sha256).part")
    #expect(partial[.size] as? Int == cut)

    let json = try phone.synced(from: server.url, key: key)
    #expect(server.requests.last?.path == full.path && server.requests.last?.range == "bytes=\(cut)-")
    let info = try #require(try extensions(json).first)
    #expect(info["resumedAt"] as? Int == cut && info["downloaded"] as? Int == Int(full.bytes) - cut)
    #expect(json["downloaded"] as? Int == Int(full.bytes) - cut)
    try phone.expectHolds(store, version: 1)
    #expect(phone.staged().isEmpty)
  }

  /// A server without ranges answers 200; some answer every range with
  /// the whole file as a 206 from byte 0.
  @Test(arguments: [false, true])
  func aServerWithoutRangesMakesTheDownloadStartOver(answersFromStart: Bool) throws {
    let store = SyncStore(in: directory, size: 6000)
    let key = try store.publicKeyFile()
    let phone = device("phone")
    try store.publish(1)
    let full = try #require(try store.servedManifest().extensions.first?.full)
    let server = try DroppingHTTPServer(
      serving: store.root, drops: [full.path: 1000], supportsRanges: answersFromStart, rangesFromStart: answersFromStart)
    #expect(try phone.sync(from: server.url, key: key).status == 74)
    let json = try phone.synced(from: server.url, key: key)
    #expect(server.requests.last?.range == "bytes=1000-")
    let info = try #require(try extensions(json).first)
    #expect(info["resumedAt"] is NSNull && info["downloaded"] as? Int == Int(full.bytes))
    try phone.expectHolds(store, version: 1)
  }

  /// Redirects are followed (as URLSession followed them), to a limit;
  /// statuses other than 200, 206, 404, 410 and 416 fail the sync.
  @Test func redirectsAreFollowedAndOtherStatusesFail() throws {
    let store = SyncStore(in: directory)
    let key = try store.publicKeyFile()
    let phone = device("phone")
    try store.publish(1)
    let server = try DroppingHTTPServer(
      serving: store.root, drops: [:], redirects: ["moved/": "", "loop/": "loop/", "away/": "moved/"])
    let json = try phone.synced(from: server.url + "away", key: key)
    #expect(json["version"] as? Int == 1)
    try phone.expectHolds(store, version: 1)
    #expect(server.requests.contains { $0.path == "away/manifest.json" })
    #expect(server.requests.contains { $0.path == "moved/manifest.json" })
    #expect(server.requests.contains { $0.path == "manifest.json" })

    let loop = try device("other").sync(from: server.url + "loop", key: key)
    #expect(loop.status == 74, "\(loop.standardError)")
    #expect(loop.standardError.hasPrefix("error: cannot fetch manifest.json: \(server.url)loop/manifest.json: "))
    #expect(server.requests.filter { $0.path == "loop/manifest.json" }.count == 21, "the first request and 20 redirects")
  }

  @Test(.enabled(if: BusyboxHTTPServer.isAvailable, "busybox is not installed (make deps installs it)"))
  func aDeltaMissingFromTheHostFallsBackToTheFullSnapshot() throws {
    let store = SyncStore(in: directory)
    let key = try store.publicKeyFile()
    let phone = device("phone")
    let server = try BusyboxHTTPServer(serving: store.root)
    try store.publish(1)
    _ = try phone.synced(from: server.url, key: key)
    try store.publish(2)
    let item = try #require(try store.servedManifest().extensions.first)
    let delta = try #require(item.deltas.first)
    try FileManager.default.removeItem(atPath: store.root + "/" + delta.file.path)
    let json = try phone.synced(from: server.url, key: key)
    let info = try #require(try extensions(json).first)
    #expect(info["strategy"] as? String == "full" && info["missingDelta"] as? Int == 1)
    #expect(info["bytes"] as? Int == Int(item.full.bytes) && json["downloaded"] as? Int == Int(item.full.bytes))
    try phone.expectHolds(store, version: 2)
    #expect(try phone.status().sync?["incrementalSyncs"] as? Int == 0)
    let text = try phone.sync(from: server.url, key: key)
    #expect(text.standardOutput.contains("already up to date"))
  }

  @Test func afterFullEveryIncrementalSyncsFullSnapshotsLoad() throws {
    let store = SyncStore(in: directory, fullEvery: 2)
    let key = try store.publicKeyFile()
    let phone = device("phone")
    var strategies: [String] = []
    var periodic: [Bool] = []
    var counts: [Int] = []
    for version in 1...5 {
      try store.publish(version)
      let json = try phone.synced(from: store.root, key: key)
      strategies.append(try extensions(json).first?["strategy"] as? String ?? "")
      periodic.append(json["periodicFull"] as? Bool ?? false)
      counts.append(json["incrementalSyncs"] as? Int ?? -1)
      try phone.expectHolds(store, version: version)
    }
    #expect(strategies == ["full", "delta", "delta", "full", "delta"])
    #expect(periodic == [false, false, false, true, false])
    #expect(counts == [0, 1, 2, 0, 1])
  }

  @Test func statusShowsTheSyncAndTheCommandsAreDocumented() throws {
    let store = SyncStore(in: directory)
    let key = try store.publicKeyFile()
    let phone = device("phone")
    try store.publish(1)
    let text = try phone.sync(from: store.root, key: key)
    #expect(text.status == 0, "\(text.standardError)")
    #expect(text.standardOutput.hasPrefix("com.example.blocklist: synced to version 1 (first sync), "))
    #expect(text.standardOutput.contains("  extension 1: full snapshot, "))
    let status = try CalldirProcess.run(["device", "status", "--device", phone.path])
    let published = try store.servedManifest().published
    #expect(status.standardOutput.hasPrefix(
      "sync: com.example.blocklist version 1 (published \(published)), 0 incremental syncs since the last full one, extensions 1\n"))
    let sync = try #require(try phone.status().sync)
    #expect(sync["dataset"] as? String == "com.example.blocklist" && sync["version"] as? Int == 1)
    #expect(sync["extensions"] as? [[String: Int]] == [["index": 1, "version": 1]])
    let never = try CalldirProcess.run(["device", "status", "--device", directory.path("fresh")])
    #expect(never.status == 66)

    let help = try CalldirProcess.run(["device", "--help"])
    #expect(help.standardOutput.contains("  sync ") && help.standardOutput.contains("  reset "))
    let syncHelp = try CalldirProcess.run(["device", "sync", "--help"])
    #expect(syncHelp.standardOutput.contains("--public-key <file>") && syncHelp.standardOutput.contains("(default: 30)"))
  }

  /// A device keeps its rollback floor, the highest version it accepted of
  /// a dataset, apart from its sync state: with the state lost, a replayed
  /// older manifest is refused without advising a reset, a reset keeps the
  /// floor, and only `device sync --allow-downgrade` goes below it (its
  /// --json saying so). A floor file lost is rebuilt from the state; a
  /// malformed one refuses until --allow-downgrade.
  @Test func aReplayAfterTheSyncStateIsLostIsRefusedEvenAfterAReset() throws {
    let store = SyncStore(in: directory)
    let key = try store.publicKeyFile()
    let phone = device("phone")
    for version in 1...3 { try store.publish(version) }
    _ = try phone.synced(from: store.root, key: key)
    let floorPath = phone.path + "/rollback-floor.json"
    #expect(
      try String(contentsOfFile: floorPath, encoding: .utf8)
        == #"{"floors":[{"dataset":"com.example.blocklist","version":3}]}"# + "\n")
    try store.serveManifest(of: 2)

    let floorRefusal =
      "error: the manifest offers version 2 of 'com.example.blocklist', older than version 3, the newest this device "
      + "has accepted of it (a replay or a rollback); nothing was installed; "
      + "'calldir device sync --allow-downgrade' installs it anyway\n"
    for lose in ["sync/state.json", "sync"] {
      try FileManager.default.removeItem(atPath: phone.path + "/" + lose)
      let replay = try phone.sync(from: store.root, key: key)
      #expect(replay.status == 65 && replay.standardError == floorRefusal, "\(lose): \(replay.standardError)")
      #expect(!replay.standardError.contains("reset"))
      try phone.expectHolds(store, version: 3, recorded: false)
    }
    let reset = try CalldirProcess.run(["device", "reset", "--device", phone.path])
    #expect(reset.status == 0, "\(reset.standardError)")
    #expect(reset.standardOutput.hasSuffix("; kept its rollback floor (com.example.blocklist version 3)\n"))
    var json = try phone.sync(from: store.root, key: key, ["--json"])
    #expect(json.status == 65 && json.standardError == floorRefusal)
    #expect((try jsonObject(json.standardOutput)["error"] as? [String: Any])?["kind"] as? String == "rollback")
    let status = try CalldirProcess.run(["device", "status", "--device", phone.path, "--json"])
    let floors = try #require(try jsonObject(status.standardOutput)["rollbackFloors"] as? [[String: Any]])
    #expect(floors.count == 1 && floors.first?["dataset"] as? String == "com.example.blocklist")
    #expect(floors.first?["version"] as? Int == 3)
    #expect(try phone.dump().isEmpty)

    // Explicitly: a downgrade, which the floor survives.
    let allowed = try phone.synced(from: store.root, key: key, ["--allow-downgrade"])
    #expect(allowed["downgrade"] as? Bool == true && allowed["rollbackFloor"] as? Int == 3 && allowed["version"] as? Int == 2)
    try phone.expectHolds(store, version: 2)
    #expect(try phone.synced(from: store.root, key: key)["upToDate"] as? Bool == true)
    try store.publish(4)
    let forward = try phone.synced(from: store.root, key: key)
    #expect(forward["downgrade"] as? Bool == false && forward["rollbackFloor"] as? Int == 4)
    try phone.expectHolds(store, version: 4)

    // The state kept, the floor file lost: the state stands in, and the
    // floor is written back.
    try FileManager.default.removeItem(atPath: floorPath)
    try store.serveManifest(of: 3)
    json = try phone.sync(from: store.root, key: key)
    #expect(json.status == 65 && json.standardError.hasPrefix(
      "error: the manifest offers version 3, older than the installed version 4 (a replay or a rollback); "))
    #expect(try String(contentsOfFile: floorPath, encoding: .utf8).contains(#""version":4"#))

    // Both lost: the extensions' own versions refuse the older blobs,
    // advising a downgrade, not a reset.
    try FileManager.default.removeItem(atPath: floorPath)
    try FileManager.default.removeItem(atPath: phone.path + "/sync/state.json")
    json = try phone.sync(from: store.root, key: key)
    #expect(json.status == 65, "\(json.standardError)")
    #expect(json.standardError.hasPrefix("error: extension 1 holds version 4; refusing to load version 3 (older)"))
    #expect(json.standardError.contains("--allow-downgrade") && !json.standardError.contains("reset"))

    // A malformed floor: refused until a downgrade is allowed.
    try store.serveManifest(of: 4)
    try Data("{\"floors\": 3}\n".utf8).write(to: URL(fileURLWithPath: floorPath))
    json = try phone.sync(from: store.root, key: key, ["--json"])
    #expect(json.status == 65 && json.standardError.contains("rollback-floor.json is malformed: floors: expected an array"))
    #expect((try jsonObject(json.standardOutput)["error"] as? [String: Any])?["kind"] as? String == "state")
    _ = try phone.synced(from: store.root, key: key, ["--allow-downgrade"])
    try phone.expectHolds(store, version: 4)
    #expect(try String(contentsOfFile: floorPath, encoding: .utf8).contains(#""version":4"#))
    let help = try CalldirProcess.run(["device", "sync", "--help"])
    #expect(help.standardOutput.contains("--allow-downgrade"))
  }

  @Test func badArgumentsAndMissingFilesHaveTheirExitCodes() throws {
    let store = SyncStore(in: directory)
    let key = try store.publicKeyFile()
    let phone = device("phone")
    try store.publish(1)
    var result = try phone.sync(from: store.root, key: directory.path("missing.pub"))
    #expect(result.status == 66 && result.standardError.contains("missing.pub"))
    try Data("not base64!\n".utf8).write(to: URL(fileURLWithPath: directory.path("bad.pub")))
    result = try phone.sync(from: store.root, key: directory.path("bad.pub"))
    #expect(result.status == 65)
    #expect(result.standardError.contains("is not a public key: expected one line of base64 of a 32-byte ed25519 public key"))
    result = try phone.sync(from: "ftp://example.invalid/store", key: key)
    #expect(result.status == 64 && result.standardError.contains("unsupported url scheme 'ftp'"))
    result = try phone.sync(from: directory.path("nowhere"), key: key)
    #expect(result.status == 74 && result.standardError.contains("has no manifest.json"), "\(result.standardError)")
    result = try phone.sync(from: store.root, key: key, ["--network-timeout", "0"])
    #expect(result.status == 64)
    let reset = try CalldirProcess.run(["device", "reset", "--device", directory.path("none")])
    #expect(reset.status == 66)
  }

  @Test func concurrentSyncsAndLoadsSerializeOrFailWithCurrentlyLoading() throws {
    let store = SyncStore(in: directory)
    let key = try store.publicKeyFile()
    try store.publish(1)
    let other = try directory.full("other.cdir", sampleSnapshot(version: 1, count: 500, start: 44_100_000_000))
    let synced = try inspectEntries(try store.snapshotPath(1))
    let loaded = try inspectEntries(other)
    for round in 1...3 {
      let phone = device("phone-\(round)")
      let sync = ["device", "sync", "--device", phone.path, "--from", store.root, "--public-key", key]
      let results = try DeviceConcurrencyTests.runTogether(
        [sync, sync, ["device", "load", "--device", phone.path, "--allow-downgrade", other]])
      for (index, result) in results.enumerated() where result.status != 0 {
        #expect(result.status == 1, "round \(round), process \(index): \(result.standardError)")
        #expect(result.standardError.hasSuffix("error: currentlyLoading (7)\n"), "\(result.standardError)")
      }
      #expect(results.contains { $0.status == 0 }, "round \(round)")
      let dump = try phone.dump()
      #expect(dump == synced || dump == loaded, "round \(round): the device holds a mixture")
    }
  }
}
