import CallDirectoryFormat
import CallDirectorySync
import Foundation
import Sodium
import Testing

/// The store's way to the phones: keys, the signed manifest, dataset
/// identity, extension capacity and pruning.
@Suite struct PublishingTests {
  /// A store with a dataset and a signing key.
  struct SignedStore {
    let directory: TemporaryDirectory
    var store: String { directory.path("store") }
    var config: String { directory.path("calldir.json") }

    /// A copy of another store's whole directory.
    init(copying other: SignedStore) throws {
      directory = try TemporaryDirectory()
      for name in try FileManager.default.contentsOfDirectory(atPath: other.directory.url.path) {
        try FileManager.default.copyItem(atPath: other.directory.path(name), toPath: directory.path(name))
      }
    }

    init(extra: String = "", dataset: String = "com.example.blocklist") throws {
      directory = try TemporaryDirectory()
      try FileManager.default.createDirectory(atPath: directory.path("keys"), withIntermediateDirectories: true)
      let keygen = try CalldirProcess.run(["keygen", "--output", directory.path("keys/signing"), "--json"])
      #expect(keygen.status == 0, "\(keygen.standardError)")
      try write(block: 100)
      try directory.write("names.csv", "phone,name\n+41222130001,Bank\n+41222130002,Spam\n")
      try directory.write("calldir.json", """
        {"dataset": "\(dataset)", "signingKey": "keys/signing.key", "defaultRegion": "CH", \(extra)
         "sources": [{"path": "block.txt", "format": "lines", "list": "block"},
                     {"path": "names.csv", "format": "csv", "list": "identify", "number": "phone", "label": "name"}]}
        """)
    }

    func write(block count: Int, from first: Int = 0) throws {
      // Scattered numbers: a delta of a few is smaller than the full snapshot.
      try directory.write("block.txt", (first..<(first + count)).map { "+4121\(String(format: "%07d", $0 * 9973))\n" }.joined())
    }

    func build(_ extra: [String] = []) throws -> CalldirProcess.Result {
      try CalldirProcess.run(["build", "--config", config, "--store", store, "--json"] + extra)
    }

    var publicKey: [UInt8] {
      get throws {
        let text = try String(contentsOfFile: directory.path("keys/signing.pub"), encoding: .utf8)
        return try #require(Base64.decode(Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)))
      }
    }

    /// The manifest, after checking its signature and every file's size and SHA-256.
    func verifiedManifest() throws -> Manifest {
      let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: store + "/manifest.json")))
      let signature = try Array(Data(contentsOf: URL(fileURLWithPath: store + "/manifest.json.sig")))
      let manifest = try ManifestTrust(publicKey: try publicKey, verifier: SodiumSignatureVerifier())
        .verify(manifest: bytes, signature: signature).manifest
      for item in manifest.extensions {
        for file in [item.full] + item.deltas.map(\.file) {
          let data = try Array(Data(contentsOf: URL(fileURLWithPath: store + "/" + file.path)))
          #expect(Int64(data.count) == file.bytes, "\(file.path)")
          #expect(ContentDigest(bytes: SHA256.hash(data))?.hex == file.sha256, "\(file.path)")
        }
      }
      return manifest
    }
  }

  @Test func keygenWritesAPrivateKeyAndNeverReplacesOne() throws {
    let directory = try TemporaryDirectory()
    let prefix = directory.path("k/site")
    try FileManager.default.createDirectory(atPath: directory.path("k"), withIntermediateDirectories: true)
    let result = try CalldirProcess.run(["keygen", "-o", prefix, "--json"])
    #expect(result.status == 0, "\(result.standardError)")
    let attributes = try FileManager.default.attributesOfItem(atPath: prefix + ".key")
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    let secret = try String(contentsOfFile: prefix + ".key", encoding: .utf8)
    let publicText = try String(contentsOfFile: prefix + ".pub", encoding: .utf8)
    #expect(secret.hasSuffix("\n") && publicText.hasSuffix("\n") && !secret.dropLast().contains("\n"))
    let secretBytes = try #require(Base64.decode(Array(secret.dropLast().utf8)))
    let pair = try #require(Ed25519.keyPair(secret: secretBytes))
    #expect(Base64.encode(pair.publicKey) + "\n" == publicText)
    #expect(try parseJSON(result.standardOutput)["publicKeyBase64"] as? String == Base64.encode(pair.publicKey))
    let again = try CalldirProcess.run(["keygen", "-o", prefix])
    #expect(again.status == 73)
    #expect(again.standardError.contains("a key is never replaced"))
    // A directory is no prefix: it would make the hidden files k/.key and k/.pub.
    let folder = try CalldirProcess.run(["keygen", "-o", directory.path("k") + "/"])
    #expect(folder.status == 64 && folder.standardError.contains("is a directory; give a prefix such as"))
    #expect(!FileManager.default.fileExists(atPath: directory.path("k/.key")))
    #expect(try String(contentsOfFile: prefix + ".key", encoding: .utf8) == secret)
  }

  @Test func aSigningKeyThatCannotBeUsedStopsTheBuildBeforeTheStoreIsMade() throws {
    let store = try SignedStore()
    try store.directory.write("keys/bad.key", "not a key\n")
    for (key, status, message) in [
      ("keys/missing.key", 66, "signing key: cannot open"),
      ("keys", 66, "signing key: cannot read"),
      ("keys/bad.key", 65, "is not an ed25519 secret key: expected one line of base64"),
      ("keys/signing.pub", 65, "is not an ed25519 secret key: it is a public key file"),
    ] {
      let result = try store.build(["--signing-key", store.directory.path(key)])
      #expect(result.status == Int32(status), "\(key): \(result.standardError)")
      #expect(result.standardError.contains(message), "\(key): \(result.standardError)")
      #expect((try parseJSON(result.standardOutput)["error"] as? [String: Any])?["kind"] as? String == "signingKey")
      #expect(!FileManager.default.fileExists(atPath: store.store), "\(key): the store was made")
    }
  }

  @Test func everyPublishWritesASignedManifestOfItsFiles() throws {
    let store = try SignedStore()
    let first = try store.build()
    #expect(first.status == 0, "\(first.standardError)")
    #expect(try parseJSON(first.standardOutput)["signature"] as? String == store.store + "/manifest.json.sig")
    var manifest = try store.verifiedManifest()
    #expect(manifest.dataset == "com.example.blocklist" && manifest.version == 1 && manifest.fullEvery == 30)
    #expect(manifest.extensions.map(\.index) == [1])
    #expect(manifest.extensions[0].counts == .init(blocking: 100, identification: 2))
    #expect(manifest.extensions[0].full.path == "snapshots/snapshot-000001.cdir")
    for version in 2...3 {
      try store.write(block: 100 + version)
      #expect(try store.build().status == 0)
    }
    manifest = try store.verifiedManifest()
    #expect(manifest.version == 3)
    #expect(manifest.extensions[0].deltas.map(\.from) == [2, 1])
    // The blobs carry the dataset too.
    let inspect = try CalldirProcess.run(["inspect", "--json", store.store + "/snapshots/snapshot-000003.cdir"])
    #expect(try parseJSON(inspect.standardOutput)["dataset"] as? String == "com.example.blocklist")
    // An unchanged build leaves the manifest's bytes as they are.
    let before = try Data(contentsOf: URL(fileURLWithPath: store.store + "/manifest.json"))
    #expect(try parseJSON(try store.build().standardOutput)["unchanged"] as? Bool == true)
    #expect(try Data(contentsOf: URL(fileURLWithPath: store.store + "/manifest.json")) == before)
  }

  @Test func aStoreKeepsItsDataset() throws {
    let store = try SignedStore()
    #expect(try store.build().status == 0)
    try store.directory.write("calldir.json", """
      {"dataset": "org.other.list", "defaultRegion": "CH", "sources": [{"path": "block.txt", "format": "lines", "list": "block"}]}
      """)
    let refused = try store.build()
    #expect(refused.status == 65)
    #expect(refused.standardError.contains("publishes dataset 'com.example.blocklist', the config names 'org.other.list'"))
    let badName = try CalldirProcess.run([
      "build", "--config", store.config, "--store", store.store, "--dry-run",
    ])
    #expect(badName.status == 65)
    try store.directory.write("calldir.json", #"{"dataset": "has space", "sources": [{"path": "block.txt", "format": "lines", "list": "block"}]}"#)
    let invalid = try store.build()
    #expect(invalid.status == 65)
    #expect(invalid.standardError.contains("dataset: must be 1 to 64 bytes"))
  }

  @Test func aLargeDatasetIsShardedByDefaultAndEveryShardLoads() throws {
    let directory = try TemporaryDirectory()
    // 5,000,000 numbers in ranges, plus scattered ones.
    try directory.write("ranges.txt", (0..<5).map { "+4121\($0)######\n" }.joined())
    try directory.write("calldir.json", #"{"maxRejectRatio": 1, "sources": [{"path": "ranges.txt", "format": "patterns", "list": "block"}]}"#)
    let store = directory.path("store")
    let result = try CalldirProcess.run(["build", "--config", directory.path("calldir.json"), "--store", store, "--json"])
    #expect(result.status == 0, "\(result.standardError)")
    let object = try parseJSON(result.standardOutput)
    let extensions = try #require(object["extensions"] as? [[String: Any]])
    #expect(extensions.count >= 3)
    #expect(extensions.allSatisfy { ($0["entries"] as? Int ?? .max) <= 1_800_000 })
    #expect(extensions.reduce(0) { $0 + ($1["entries"] as? Int ?? 0) } == 5_000_000)
    #expect((extensions.first?["reloadSeconds"] as? Double ?? 0) > 0)
    let shards = try #require(object["shards"] as? [[String: Any]])
    let load = try CalldirProcess.run(["device", "load", "--device", directory.path("phone")] + shards.compactMap { $0["path"] as? String })
    #expect(load.status == 0, "\(load.standardError)")
    let summary = try CalldirProcess.run(["build", "--config", directory.path("calldir.json"), "--store", store, "--dry-run", "--verbose"])
    #expect(summary.standardOutput.contains("extensions (each below CallKit's 2,000,000 entries"))
  }

  @Test func capacityLimitsAreChecked() throws {
    let directory = try TemporaryDirectory()
    try directory.write("ranges.txt", "4121#######\n")
    try directory.write("calldir.json", #"{"maxEntriesPerExtension": 2000001, "sources": [{"path": "ranges.txt", "format": "patterns", "list": "block"}]}"#)
    let tooLarge = try CalldirProcess.run(["build", "--config", directory.path("calldir.json"), "--store", directory.path("store")])
    #expect(tooLarge.status == 65)
    #expect(tooLarge.standardError.contains("maxEntriesPerExtension: must be between 1 and 1999999"))
    try directory.write("calldir.json", #"{"maxEntriesPerExtension": 1000, "maxExtensions": 5, "sources": [{"path": "ranges.txt", "format": "patterns", "list": "block"}]}"#)
    let tooMany = try CalldirProcess.run(["build", "--config", directory.path("calldir.json"), "--store", directory.path("store"), "--json"])
    #expect(tooMany.status == 65)
    #expect(tooMany.standardError.contains("above maxExtensions 5"))
    #expect(!FileManager.default.fileExists(atPath: directory.path("store/snapshots/snapshot-000001.cdir")))
  }

  @Test func pruneKeepsTheLastVersionsAndWhatTheManifestNames() throws {
    let store = try SignedStore()
    for version in 1...6 {
      try store.write(block: 100 + version)
      #expect(try store.build().status == 0)
    }
    let result = try CalldirProcess.run(["prune", "--store", store.store, "--keep", "2", "--json"])
    #expect(result.status == 0, "\(result.standardError)")
    let object = try parseJSON(result.standardOutput)
    #expect(object["pruned"] as? [Int] == [1, 2, 3, 4])
    let snapshots = try FileManager.default.contentsOfDirectory(atPath: store.store + "/snapshots").filter { !$0.hasPrefix(".") }.sorted()
    #expect(snapshots == ["snapshot-000005.cdir", "snapshot-000006.cdir"])
    // The deltas to the latest version stay: the manifest offers them.
    let manifest = try store.verifiedManifest()
    #expect(manifest.extensions[0].deltas.map(\.from) == [5, 4, 3, 2, 1])
    let history = try parseJSON(try CalldirProcess.run(["history", "--store", store.store, "--json"]).standardOutput)
    let versions = try #require(history["versions"] as? [[String: Any]])
    #expect(versions.map { $0["pruned"] is String } == [true, true, true, true, false, false])
    // Idempotent, and the next build still publishes (its deltas skip pruned bases).
    let again = try parseJSON(try CalldirProcess.run(["prune", "--store", store.store, "--keep", "2", "--json"]).standardOutput)
    #expect((again["removed"] as? [Any])?.isEmpty == true)
    try store.write(block: 200)
    let next = try store.build()
    #expect(next.status == 0, "\(next.standardError)")
    #expect(!next.standardError.contains("warning"))
    #expect(try store.verifiedManifest().extensions[0].deltas.map(\.from) == [6, 5])
    #expect(try CalldirProcess.run(["prune", "--store", store.store, "--keep", "0"]).status == 64)
  }

  /// A build that fails anywhere leaves a manifest whose signature and
  /// digests hold (the old one or the new one), and the next build publishes.
  @Test func everyFaultOfASignedBuildLeavesAManifestThatVerifies() throws {
    let reference = try SignedStore()
    #expect(try reference.build().status == 0)
    try reference.write(block: 120)
    let counted = try SignedStore(copying: reference)
    let counts = counted.directory.path("counts")
    #expect(try CalldirProcess.run(
      ["build", "--config", counted.config, "--store", counted.store], environment: ["CALLDIR_FAULT_COUNTS": counts]).status == 0)
    let calls = try faultCounts(counts)
    for call in ["write", "fsync", "rename", "read"] {
      for occurrence in 1...max(1, calls[call] ?? 0) {
        let store = try SignedStore(copying: reference)
        let result = try CalldirProcess.run(
          ["build", "--config", store.config, "--store", store.store],
          environment: ["CALLDIR_FAULTS": "\(call):\(occurrence):EIO"])
        let context = "\(call) \(occurrence): \(result.standardError)"
        #expect(result.status == 0 || (result.status == 74 && result.standardError.hasPrefix("error: ")), "\(context)")
        #expect(try [1, 2].contains(store.verifiedManifest().version), "\(context)")
        #expect(try store.build().status == 0, "\(context)")
        #expect(try store.verifiedManifest().version == 2, "\(context)")
      }
    }
  }

  @Test func everyFaultOfAPruneLosesNothingPublishedItShouldKeep() throws {
    let reference = try SignedStore()
    for version in 1...4 {
      try reference.write(block: 100 + version)
      #expect(try reference.build().status == 0)
    }
    let counted = try SignedStore(copying: reference)
    let counts = counted.directory.path("counts")
    #expect(try CalldirProcess.run(
      ["prune", "--store", counted.store, "--keep", "1"], environment: ["CALLDIR_FAULT_COUNTS": counts]).status == 0)
    let calls = try faultCounts(counts)
    for call in ["unlink", "fsync", "read"] {
      for occurrence in 1...max(1, calls[call] ?? 0) {
        let store = try SignedStore(copying: reference)
        let result = try CalldirProcess.run(
          ["prune", "--store", store.store, "--keep", "1"], environment: ["CALLDIR_FAULTS": "\(call):\(occurrence):EIO"])
        let context = "\(call) \(occurrence): \(result.standardError)"
        #expect(result.status == 0 || (result.status == 74 && result.standardError.hasPrefix("error: ")), "\(context)")
        _ = try store.verifiedManifest()
        #expect(try CalldirProcess.run(["validate", store.store + "/snapshots/snapshot-000004.cdir"]).status == 0, "\(context)")
        #expect(try integrityCheck(store.store + "/catalog.sqlite") == "ok", "\(context)")
        #expect(try CalldirProcess.run(["prune", "--store", store.store, "--keep", "1"]).status == 0, "\(context)")
        let left = try FileManager.default.contentsOfDirectory(atPath: store.store + "/snapshots").filter { !$0.hasPrefix(".") }
        #expect(left == ["snapshot-000004.cdir"], "\(context)")
      }
    }
  }
}
