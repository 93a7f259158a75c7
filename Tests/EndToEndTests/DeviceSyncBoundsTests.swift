import CallDirectorySync
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `calldir device sync` against what a red team tried: a staging
/// directory moved to another disk and linked back, servers that drip
/// bytes or never stop sending, a transfer corrupted and cut short, named
/// pipes where files should be, and credentials in the URL.
@Suite struct DeviceSyncBoundsTests {
  let directory: TemporaryDirectory

  init() throws {
    directory = try TemporaryDirectory()
  }

  func device(_ name: String) -> SyncDevice { SyncDevice(path: directory.path(name)) }

  func write(_ path: String, _ bytes: [UInt8]) throws {
    try FileManager.default.createDirectory(
      atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  func names(_ path: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
  }

  /// The `error` object of a `--json` failure.
  func errorObject(_ result: CalldirProcess.Result) throws -> [String: Any] {
    try #require(try jsonObject(result.standardOutput)["error"] as? [String: Any], "\(result.standardOutput)")
  }

  /// A copy of the store's manifest and signature (and what else is
  /// given) in a directory of its own, for a sync to read.
  func mirror(_ name: String, of store: SyncStore, manifest: [UInt8]? = nil, signature: [UInt8]? = nil) throws -> String {
    let path = directory.path(name)
    try write(path + "/manifest.json", manifest ?? Array(try Data(contentsOf: URL(fileURLWithPath: store.root + "/manifest.json"))))
    try write(
      path + "/manifest.json.sig", signature ?? Array(try Data(contentsOf: URL(fileURLWithPath: store.root + "/manifest.json.sig"))))
    return path
  }

  // MARK: - A linked staging directory

  /// `DEV/sync/staging` moved to a bigger disk and linked back: syncs
  /// stage there (a cut-short download is resumed there), and neither
  /// they nor `device reset` remove anything but what a sync staged.
  @Test func aLinkedStagingDirectoryLosesNothingButWhatTheSyncStaged() throws {
    let store = SyncStore(in: directory, size: 6000)
    let key = try store.publicKeyFile()
    let phone = device("phone")
    let bigdisk = directory.path("bigdisk/staging")
    let lookalike = String(repeating: "a", count: 64) + ".cdir"
    try write(bigdisk + "/notes.txt", Array("mine\n".utf8))
    try write(bigdisk + "/photos/one.jpg", Array("jpeg\n".utf8))
    try write(directory.path("outside/secret.txt"), Array("secret\n".utf8))
    #expect(symlink(directory.path("outside/secret.txt"), bigdisk + "/" + lookalike) == 0)
    try FileManager.default.createDirectory(atPath: phone.path + "/sync", withIntermediateDirectories: true)
    #expect(symlink(bigdisk, phone.path + "/sync/staging") == 0)
    let userFiles = ["notes.txt", "photos", lookalike].sorted()

    try store.publish(1)
    let full = try #require(try store.servedManifest().extensions.first?.full)
    let cut = Int(full.bytes / 3)
    let server = try DroppingHTTPServer(serving: store.root, drops: [full.path: cut])
    let failed = try phone.sync(from: server.url, key: key)
    #expect(failed.status == 74, "\(failed.standardError)")
    #expect(names(bigdisk) == (userFiles + ["\(full.sha256).part"]).sorted())
    let resumed = try phone.synced(from: server.url, key: key)
    #expect((resumed["extensions"] as? [[String: Any]])?.first?["resumedAt"] as? Int == cut)
    try phone.expectHolds(store, version: 1)
    #expect(names(bigdisk) == userFiles)
    try store.publish(2)
    _ = try phone.synced(from: store.root, key: key)
    try phone.expectHolds(store, version: 2)
    #expect(names(bigdisk) == userFiles)

    let reset = try CalldirProcess.run(["device", "reset", "--device", phone.path])
    #expect(reset.status == 0, "\(reset.standardError)")
    #expect(names(bigdisk) == userFiles)
    #expect(try String(contentsOfFile: bigdisk + "/notes.txt", encoding: .utf8) == "mine\n")
    #expect(try String(contentsOfFile: bigdisk + "/photos/one.jpg", encoding: .utf8) == "jpeg\n")
    #expect(try String(contentsOfFile: directory.path("outside/secret.txt"), encoding: .utf8) == "secret\n")
    // A real staging directory keeps what is not a sync's too.
    let other = device("other")
    try write(other.path + "/sync/staging/readme.txt", Array("keep\n".utf8))
    try write(other.path + "/sync/staging/keep/file", Array("keep\n".utf8))
    _ = try other.synced(from: store.root, key: key)
    #expect(try CalldirProcess.run(["device", "reset", "--device", other.path]).status == 0)
    #expect(names(other.path + "/sync/staging") == ["keep", "readme.txt"])
  }

  // MARK: - Slow and endless servers

  /// A host that drips the manifest (2 bytes a second) ends the sync
  /// after --network-timeout seconds, as a network failure.
  @Test func aServerThatDripsTheManifestEndsTheSyncWithinItsBounds() throws {
    let store = SyncStore(in: directory)
    let key = try store.publicKeyFile()
    try store.publish(1)
    let server = try SlowHTTPServer(serving: store.root, drips: ["manifest.json": 2])
    let phone = device("phone")
    let result = try phone.sync(from: server.url, key: key, ["--network-timeout", "2", "--json"], timeout: 60)
    #expect(!result.timedOut, "the sync ran for a minute")
    #expect(result.status == 74, "\(result.standardError)")
    let error = try errorObject(result)
    #expect(error["kind"] as? String == "network")
    #expect((error["message"] as? String)?.hasPrefix("cannot fetch manifest.json: \(server.url)manifest.json: ") == true, "\(error)")
    #expect(try phone.status().sync == nil)
  }

  /// While a sync waits on a host that drips a file, nothing of the
  /// device is reserved: a `device load` and a sync from an honest source
  /// both succeed. The slow sync then ends within its bounds, changing
  /// nothing, and the next sync is up to date.
  @Test func aSlowServerHoldsNoDevice() throws {
    let store = SyncStore(in: directory, size: 3000)
    let key = try store.publicKeyFile()
    let phone = device("phone")
    try store.publish(1)
    _ = try phone.synced(from: store.root, key: key)
    try store.publish(2)
    let item = try #require(try store.servedManifest().extensions.first)
    let delta = try #require(item.deltas.first { $0.from == 1 })
    let server = try SlowHTTPServer(serving: store.root, drips: [delta.file.path: 2, item.full.path: 2])
    let slow = LockedData()
    let finished = DispatchSemaphore(value: 0)
    let serverURL = server.url
    Thread.detachNewThread {
      let result = try? phone.sync(from: serverURL, key: key, ["--network-timeout", "4"], timeout: 90)
      slow.set(Data(
        "\(result?.status ?? -1)\n\(result?.timedOut ?? true)\n\(result?.standardError ?? "")".utf8))
      finished.signal()
    }
    // The slow sync is downloading.
    for _ in 0..<300 where !server.requests.contains(delta.file.path) { usleep(100_000) }
    #expect(server.requests.contains(delta.file.path))

    let load = try CalldirProcess.run(["device", "load", "--device", phone.path, try store.snapshotPath(2)])
    #expect(load.status == 0, "\(load.standardError)")
    let honest = try phone.sync(from: store.root, key: key)
    #expect(honest.status == 0, "\(honest.standardError)")
    try phone.expectHolds(store, version: 2)

    finished.wait()
    let outcome = String(decoding: slow.get(), as: UTF8.self).split(separator: "\n", maxSplits: 2).map(String.init)
    #expect(outcome.count == 3 && outcome[1] == "false", "the slow sync ran for 90 seconds")
    #expect(outcome.first == "74", "\(outcome)")
    #expect(outcome.last?.contains("cannot fetch \(delta.file.path): \(server.url)\(delta.file.path): ") == true, "\(outcome)")
    try phone.expectHolds(store, version: 2)
    let next = try phone.sync(from: store.root, key: key)
    #expect(next.status == 0 && next.standardOutput.contains("already up to date"), "\(next.standardError)")
  }

  /// Two syncs of one device downloading the same files at once, from a
  /// slow server: neither uses the other's half-downloaded file, each
  /// either syncs or finds the device loading (currentlyLoading), and the
  /// device ends holding the version whole.
  @Test func twoSyncsDownloadingAtOnceNeverShareAHalfFile() throws {
    let store = SyncStore(in: directory, size: 6000)
    let key = try store.publicKeyFile()
    try store.publish(1)
    let full = try #require(try store.servedManifest().extensions.first?.full)
    let server = try SlowHTTPServer(serving: store.root, drips: [full.path: 2000])
    let phone = device("phone")
    let sync = ["device", "sync", "--device", phone.path, "--from", server.url, "--public-key", key, "--minimum-rate", "64"]
    let results = try DeviceConcurrencyTests.runTogether([sync, sync])
    for result in results where result.status != 0 {
      #expect(result.status == 1 && result.standardError.hasSuffix("error: currentlyLoading (7)\n"), "\(result.standardError)")
    }
    #expect(results.contains { $0.status == 0 })
    #expect(server.requests.filter { $0 == full.path }.count == 2, "both downloaded: \(server.requests)")
    try phone.expectHolds(store, version: 1)
    // At most the verified file the sync that lost kept (the next sync
    // that stages removes it); no part of either download.
    #expect(phone.staged().allSatisfy { $0 == "\(full.sha256).cdir" }, "\(phone.staged())")
    let next = try phone.sync(from: store.root, key: key)
    #expect(next.status == 0 && next.standardOutput.contains("already up to date"), "\(next.standardError)")
  }

  /// A manifest or signature larger than the sync accepts is bad data
  /// (65, kind `manifest` or `signature`), read from a directory or over
  /// HTTP from a server that never stops sending.
  @Test func anOversizedManifestOrSignatureIsADataError() throws {
    let store = SyncStore(in: directory)
    let key = try store.publicKeyFile()
    try store.publish(1)
    let manifest = Array(try Data(contentsOf: URL(fileURLWithPath: store.root + "/manifest.json")))
    let phone = device("phone")
    func expectRefused(
      _ from: String, kind: String, message: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
      let result = try phone.sync(from: from, key: key, ["--json", "--network-timeout", "5"], timeout: 60)
      #expect(!result.timedOut && result.status == 65, "\(result.standardError)", sourceLocation: sourceLocation)
      let error = try errorObject(result)
      #expect(error["kind"] as? String == kind, "\(error)", sourceLocation: sourceLocation)
      #expect(error["message"] as? String == message, sourceLocation: sourceLocation)
      #expect(try phone.status().sync == nil, sourceLocation: sourceLocation)
    }
    let manifestLimit = SyncSession.manifestLimit
    let signatureLimit = SyncSession.signatureLimit
    try expectRefused(
      try mirror("large-manifest", of: store, manifest: manifest + [UInt8](repeating: 0x20, count: manifestLimit)),
      kind: "manifest", message: "malformed manifest: manifest.json is larger than \(manifestLimit) bytes")
    try expectRefused(
      try mirror("large-signature", of: store, signature: [UInt8](repeating: 0x41, count: signatureLimit + 1)),
      kind: "signature", message: "malformed manifest signature: manifest.json.sig is larger than \(signatureLimit) bytes")
    let endless = try SlowHTTPServer(serving: store.root, endless: ["manifest.json"])
    try expectRefused(
      endless.url, kind: "manifest", message: "malformed manifest: manifest.json is larger than \(manifestLimit) bytes")
    let endlessSignature = try SlowHTTPServer(serving: store.root, endless: ["manifest.json.sig"])
    try expectRefused(
      endlessSignature.url, kind: "signature",
      message: "malformed manifest signature: manifest.json.sig is larger than \(signatureLimit) bytes")
    _ = try phone.synced(from: store.root, key: key)
  }

  // MARK: - A poisoned partial download

  /// A transfer corrupted and cut short leaves a part that does not
  /// verify: the next honest sync resumes it, finds it wrong, and fetches
  /// the whole file again in the same run. A file that is wrong whole is
  /// refused (65) after that one fresh download.
  @Test func aCorruptedCutShortTransferIsFetchedAgainByTheNextSync() throws {
    let store = SyncStore(in: directory, size: 6000)
    let key = try store.publicKeyFile()
    try store.publish(1)
    let full = try #require(try store.servedManifest().extensions.first?.full)
    let cut = Int(full.bytes / 2)
    let server = try DroppingHTTPServer(serving: store.root, drops: [full.path: cut], corrupts: [full.path])
    let phone = device("phone")
    let failed = try phone.sync(from: server.url, key: key)
    #expect(failed.status == 74, "\(failed.standardError)")
    #expect(phone.staged() == ["\(full.sha256).part"])

    let text = try phone.sync(from: server.url, key: key)
    #expect(text.status == 0, "\(text.standardError)")
    #expect(
      text.standardOutput.contains(
        "full snapshot, \(full.bytes) bytes, downloaded again (the \(cut) bytes an earlier sync left did not verify)"),
      "\(text.standardOutput)")
    #expect(server.requests.suffix(2).map(\.range) == ["bytes=\(cut)-", nil])
    try phone.expectHolds(store, version: 1)
    #expect(phone.staged().isEmpty)

    // The JSON says so too; and a file wrong whole is a genuine 65.
    let other = device("other")
    let again = try DroppingHTTPServer(serving: store.root, drops: [full.path: cut], corrupts: [full.path])
    #expect(try other.sync(from: again.url, key: key).status == 74)
    let genuine = try Data(contentsOf: URL(fileURLWithPath: store.root + "/" + full.path))
    var tampered = genuine
    tampered[tampered.count - 5] ^= 0x01
    try tampered.write(to: URL(fileURLWithPath: store.root + "/" + full.path))
    let refused = try other.sync(from: again.url, key: key)
    #expect(refused.status == 65, "\(refused.standardError)")
    #expect(refused.standardError.contains("is not the file the manifest names: its sha-256 is not the manifest's"))
    #expect(again.requests.suffix(2).map(\.range) == ["bytes=\(cut)-", nil])
    #expect(other.staged().isEmpty)
    try genuine.write(to: URL(fileURLWithPath: store.root + "/" + full.path))
    let third = try DroppingHTTPServer(serving: store.root, drops: [full.path: cut], corrupts: [full.path])
    let another = device("another")
    #expect(try another.sync(from: third.url, key: key).status == 74)
    let json = try another.synced(from: third.url, key: key)
    let info = try #require((json["extensions"] as? [[String: Any]])?.first)
    #expect(info["discardedPartial"] as? Int == cut && info["resumedAt"] is NSNull, "\(info)")
    #expect(info["downloaded"] as? Int == Int(full.bytes) - cut + Int(full.bytes), "\(info)")
    try another.expectHolds(store, version: 1)
  }

  // MARK: - Named pipes

  /// A named pipe as the source's manifest, as a blob there, or as the
  /// public key is refused (66) at once; one where the device keeps its
  /// state makes the sync fail, never wait.
  @Test func namedPipesAreRefusedNeverWaitedOn() throws {
    let store = SyncStore(in: directory)
    let key = try store.publicKeyFile()
    try store.publish(1)
    let phone = device("phone")
    func expectNoInput(
      _ result: CalldirProcess.Result, _ message: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
      #expect(!result.timedOut, "the sync waited on a named pipe", sourceLocation: sourceLocation)
      #expect(result.status == 66, "\(result.standardError)", sourceLocation: sourceLocation)
      #expect(result.standardError.contains(message), "\(result.standardError)", sourceLocation: sourceLocation)
    }

    let pipes = directory.path("pipes")
    try FileManager.default.createDirectory(atPath: pipes, withIntermediateDirectories: true)
    #expect(mkfifo(pipes + "/manifest.json", 0o600) == 0)
    expectNoInput(
      try phone.sync(from: pipes, key: key, timeout: 60),
      "error: cannot fetch manifest.json: \(pipes)/manifest.json is not a regular file (named pipe)")
    let json = try phone.sync(from: pipes, key: key, ["--json"], timeout: 60)
    #expect(try errorObject(json)["kind"] as? String == "noInput")

    let full = try #require(try store.servedManifest().extensions.first?.full)
    let blobs = try mirror("blobs", of: store)
    try FileManager.default.createDirectory(
      atPath: URL(fileURLWithPath: blobs + "/" + full.path).deletingLastPathComponent().path, withIntermediateDirectories: true)
    #expect(mkfifo(blobs + "/" + full.path, 0o600) == 0)
    expectNoInput(
      try phone.sync(from: blobs, key: key, timeout: 60),
      "error: cannot fetch \(full.path): \(blobs)/\(full.path) is not a regular file (named pipe)")

    let pipeKey = directory.path("key.pub")
    #expect(mkfifo(pipeKey, 0o600) == 0)
    expectNoInput(
      try phone.sync(from: store.root, key: pipeKey, timeout: 60),
      "error: cannot read \(pipeKey): it is not a regular file (named pipe)")
    #expect(try phone.status().sync == nil && phone.dump().isEmpty)

    // Where the device keeps its state.
    _ = try phone.synced(from: store.root, key: key)
    try store.publish(2)
    let state = phone.path + "/sync/state.json"
    try FileManager.default.removeItem(atPath: state)
    #expect(mkfifo(state, 0o600) == 0)
    let stateless = try phone.sync(from: store.root, key: key, timeout: 60)
    #expect(!stateless.timedOut && stateless.status == 74, "\(stateless.standardError)")
    #expect(stateless.standardError.contains("error: cannot read \(state): it is not a regular file (named pipe)"), "\(stateless.standardError)")
    let other = device("other")
    _ = try other.synced(from: store.root, key: key)
    try store.publish(3)
    let providerState = other.path + "/extensions/calldir.extension.1/container/CallDirectory/state.json"
    try FileManager.default.removeItem(atPath: providerState)
    #expect(mkfifo(providerState, 0o600) == 0)
    let provider = try other.sync(from: store.root, key: key, timeout: 60)
    #expect(!provider.timedOut && provider.status == 74, "\(provider.standardError)")
    #expect(provider.standardError.contains("\(providerState): it is not a regular file (named pipe)"), "\(provider.standardError)")
    let devicePipe = device("device-pipe")
    _ = try devicePipe.synced(from: store.root, key: key)
    try FileManager.default.removeItem(atPath: devicePipe.path + "/device.json")
    #expect(mkfifo(devicePipe.path + "/device.json", 0o600) == 0)
    let deviceState = try devicePipe.sync(from: store.root, key: key, timeout: 60)
    #expect(!deviceState.timedOut && deviceState.status == 74, "\(deviceState.standardError)")
  }

  // MARK: - Credentials

  /// `--from http://user:password@host/`: the credentials go to the
  /// server, and never to a message, `--json` or a file of the device.
  @Test func credentialsInTheURLAreSentButNeverShown() throws {
    let store = SyncStore(in: directory)
    let key = try store.publicKeyFile()
    try store.publish(1)
    let server = try DroppingHTTPServer(serving: store.root, drops: [:])
    let from = "http://user:s3cret@127.0.0.1:\(server.port)/"
    let shown = "http://***@127.0.0.1:\(server.port)/"
    let phone = device("phone")
    let json = try phone.sync(from: from, key: key, ["--json"])
    #expect(json.status == 0, "\(json.standardError)")
    try phone.expectHolds(store, version: 1)
    let basic = "Basic " + Data("user:s3cret".utf8).base64EncodedString()
    #expect(!server.authorizations.isEmpty && server.authorizations.allSatisfy { $0 == basic }, "\(server.authorizations)")

    var outputs = [json.standardOutput, json.standardError]
    let missing = try phone.sync(from: from + "missing/", key: key)
    #expect(missing.status == 74)
    #expect(missing.standardError.contains("\(shown)missing/ has no manifest.json"), "\(missing.standardError)")
    let missingJSON = try phone.sync(from: from + "missing/", key: key, ["--json"])
    #expect((try errorObject(missingJSON)["message"] as? String)?.contains("\(shown)missing/") == true)
    let refused = try device("closed").sync(from: "http://user:s3cret@127.0.0.1:\(try LoopbackPort.free())/", key: key)
    #expect(refused.status == 74 && refused.standardError.contains("http://***@127.0.0.1:"), "\(refused.standardError)")
    let invalid = try phone.sync(from: "http://user:s3cret@/", key: key)
    #expect(invalid.status == 64 && invalid.standardError.contains("'http://***@/' is not a valid url"), "\(invalid.standardError)")
    outputs += [missing, missingJSON, refused, invalid].flatMap { [$0.standardOutput, $0.standardError] }
    for output in outputs { #expect(!output.contains("s3cret"), "\(output)") }
    let kept = FileManager.default.enumerator(atPath: phone.path)?.compactMap { $0 as? String } ?? []
    for name in kept {
      let bytes = (try? Data(contentsOf: URL(fileURLWithPath: phone.path + "/" + name))) ?? Data()
      #expect(bytes.range(of: Data("s3cret".utf8)) == nil, "\(name)")
    }
  }

  @Test func theBoundsAreOptionsWithLimits() throws {
    let store = SyncStore(in: directory)
    let key = try store.publicKeyFile()
    try store.publish(1)
    let phone = device("phone")
    for value in ["0", "-5", "1073741825"] {
      let result = try phone.sync(from: store.root, key: key, ["--minimum-rate", value])
      #expect(result.status == 64, "\(value): \(result.standardError)")
    }
    let help = try CalldirProcess.run(["device", "sync", "--help"])
    #expect(help.standardOutput.contains("--minimum-rate <bytes-per-second>"), "\(help.standardOutput)")
    #expect(help.standardOutput.contains("(default: 1024)"))
    _ = try phone.synced(from: store.root, key: key)
  }
}
