import CallDirectorySync
import Foundation
import Sodium
import Testing

/// A store built by `calldir build` with a key from `calldir keygen`: each
/// publish writes the signed manifest a phone syncs from
/// (`manifest.json`, `manifest.json.sig`). Tests that replay or tamper
/// with a manifest serve other bytes, signed with the same key.
///
/// Each version's sources are generated: blocking numbers and caller-ID
/// entries that change from version to version (numbers removed and added,
/// labels changed), so that every delta has removes and adds.
final class SyncStore {
  let directory: TemporaryDirectory
  /// The store's folder name in `directory`.
  let name: String
  /// The store's directory (what a static host serves).
  let root: String
  let dataset: String
  var fullEvery: Int
  /// The config's `manifestLifetimeDays` (nil: manifests never expire).
  var manifestLifetimeDays: Int?
  /// Each published version's build output (`build --json`).
  private(set) var builds: [Int: [String: Any]] = [:]
  /// Each published version's manifest and signature bytes.
  private(set) var manifests: [Int: (manifest: [UInt8], signature: [UInt8])] = [:]
  /// How many blocking numbers a version lists (before its changes).
  let size: Int
  /// How many of the first (lowest) blocking numbers every version lists
  /// alike: the shards that hold only those never change.
  let stableNumbers: Int
  private let maxEntriesPerExtension: Int?

  /// - Parameters:
  ///   - name: The store's folder in `directory`.
  ///   - maxEntriesPerExtension: Shards the store when set.
  init(
    in directory: TemporaryDirectory, name: String = "store", dataset: String = "com.example.blocklist",
    size: Int = 2000, maxEntriesPerExtension: Int? = nil, fullEvery: Int = 30, stableNumbers: Int = 0
  ) {
    self.directory = directory
    self.name = name
    root = directory.path(name)
    self.dataset = dataset
    self.size = size
    self.stableNumbers = stableNumbers
    self.maxEntriesPerExtension = maxEntriesPerExtension
    self.fullEvery = fullEvery
    // A host serves the store's directory before the first publish.
    try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
  }

  /// `calldir keygen --output PREFIX`'s prefix.
  private var keyPrefix: String { directory.path("\(name)-key") }

  /// The key pair, made by `calldir keygen` the first time it is needed.
  private func keyPair() throws -> Ed25519.KeyPair {
    if !FileManager.default.fileExists(atPath: keyPrefix + ".key") {
      let result = try CalldirProcess.run(["keygen", "--output", keyPrefix])
      try #require(result.status == 0, "\(result.standardError)")
    }
    let line = try String(contentsOfFile: keyPrefix + ".key", encoding: .utf8)
    let secret = try #require(Base64.decode(Array(line.trimmingCharacters(in: .whitespacesAndNewlines).utf8)))
    return try #require(Ed25519.keyPair(secret: secret))
  }

  /// The public key file `calldir keygen` wrote (`PREFIX.pub`).
  func publicKeyFile() throws -> String {
    _ = try keyPair()
    return keyPrefix + ".pub"
  }

  /// Builds `version` from generated sources, signing its manifest;
  /// `asOf` is the build's `--as-of` day.
  @discardableResult
  func publish(_ version: Int, asOf: String? = nil) throws -> [String: Any] {
    let key = try publicKeyFile()
    let sources = directory.path("sources-\(name)")
    var blocking = ""
    for index in 0..<size where index < stableNumbers || (index + version) % 7 != 0 {
      blocking += "+1 212 \(String(format: "%07d", index * 37))\n"
    }
    for extra in 0..<5 { blocking += "+1 646 \(String(format: "%07d", version * 100 + extra))\n" }
    var names = "phone,name\n"
    for index in 0..<(size / 8) where (index + version) % 5 != 0 {
      let label = index % 3 == 0 ? "Caller \((index + version) % 4)" : "Caller \(index % 4)"
      names += "+44 20 7946 \(String(format: "%04d", index)),\(label)\n"
    }
    try FileManager.default.createDirectory(atPath: sources, withIntermediateDirectories: true)
    try Data(blocking.utf8).write(to: URL(fileURLWithPath: sources + "/block.txt"))
    try Data(names.utf8).write(to: URL(fileURLWithPath: sources + "/names.csv"))
    let shards = maxEntriesPerExtension.map { "\"maxEntriesPerExtension\": \($0), " } ?? ""
    let lifetime = manifestLifetimeDays.map { "\"manifestLifetimeDays\": \($0), " } ?? ""
    try Data("""
      {"dataset": "\(dataset)", "fullEvery": \(fullEvery), "signingKey": "\(key.dropLast(4)).key",
       \(shards)\(lifetime)"maxRemovalRatio": 0.9, "sources": [
        {"path": "block.txt", "format": "lines", "list": "block"},
        {"path": "names.csv", "format": "csv", "list": "identify", "number": "phone", "label": "name"}]}
      """.utf8).write(to: URL(fileURLWithPath: sources + "/calldir.json"))
    let result = try CalldirProcess.run(
      ["build", "--config", sources + "/calldir.json", "--store", root, "--json"] + (asOf.map { ["--as-of", $0] } ?? []))
    try #require(result.status == 0, "\(result.standardError)")
    let build = try jsonObject(result.standardOutput)
    try #require(build["version"] as? Int == version, "expected version \(version): \(result.standardOutput)")
    builds[version] = build
    manifests[version] = (
      Array(try Data(contentsOf: URL(fileURLWithPath: root + "/manifest.json"))),
      Array(try Data(contentsOf: URL(fileURLWithPath: root + "/manifest.json.sig")))
    )
    return build
  }

  /// Signs `bytes` with the store's key and serves them as the manifest.
  func serve(_ bytes: [UInt8]) throws {
    let signature = try #require(Ed25519.sign(bytes, with: try keyPair()))
    try write(bytes, Array((Base64.encode(signature) + "\n").utf8))
  }

  /// Serves the manifest (and signature) published with `version` again.
  func serveManifest(of version: Int) throws {
    let published = try #require(manifests[version])
    try write(published.manifest, published.signature)
  }

  private func write(_ manifest: [UInt8], _ signature: [UInt8]) throws {
    try Data(manifest).write(to: URL(fileURLWithPath: root + "/manifest.json"))
    try Data(signature).write(to: URL(fileURLWithPath: root + "/manifest.json.sig"))
  }

  /// The manifest now served.
  func servedManifest() throws -> Manifest {
    try Manifest(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: root + "/manifest.json"))))
  }

  /// The full snapshot of `version` (unsharded: the whole dataset).
  func snapshotPath(_ version: Int) throws -> String {
    try #require(builds[version]?["snapshot"] as? String)
  }

  /// The shards' full snapshots of `version`, by extension index; the
  /// snapshot alone for an unsharded store.
  func extensionPaths(_ version: Int) throws -> [Int: String] {
    let shards = builds[version]?["shards"] as? [[String: Any]] ?? []
    if shards.isEmpty { return [1: try snapshotPath(version)] }
    return Dictionary(uniqueKeysWithValues: try shards.map {
      (try #require($0["shard"] as? Int), try #require($0["path"] as? String))
    })
  }
}
