@_exported import CalldirTestSupport
import CallDirectoryFormat
import CallDirectorySync
import Foundation
import Sodium

/// A store made in memory: versions of one or more extensions' snapshots,
/// their deltas, and the manifest of the latest version, signed.
struct StoreFixture {
  static let dataset = "com.example.tests"
  let keys = Ed25519.keyPair()!
  let source = MemorySource()
  /// The snapshots of each version, by extension index.
  private(set) var versions: [Int: [Int: Snapshot]] = [:]

  /// A snapshot of extension `index` at `version`: numbers that change
  /// with the version, so that deltas have removes and adds.
  static func snapshot(version: Int, index: Int = 1, count: Int = 200) -> Snapshot {
    let base = Int64(33_600_000_000 + index * 100_000_000)
    let blocking = (0..<Int64(count)).map { base + $0 * 5 + Int64(version % 3) }
    let identification = (0..<Int64(count / 4)).map {
      IdentificationEntry(number: base + 1 + $0 * 11, label: "Label \(($0 + Int64(version)) % 4)")
    }
    return Snapshot(version: UInt64(version), blocking: blocking, identification: identification)
  }

  /// Publishes `version` with `extensions` extensions: their full
  /// snapshots, deltas from every earlier version (or from `deltasFrom`),
  /// and the signed manifest.
  ///
  /// - Parameters:
  ///   - keeping: Extensions whose entries stay those of the latest
  ///     version published (the new version leaves them as they were).
  ///   - describingContent: Whether the manifest gives each extension's
  ///     content digest and each delta's adds and removes, as calldir's
  ///     build does (then, as it does, no delta joins equal contents).
  mutating func publish(
    version: Int, extensions: Int = 1, fullEvery: Int = 30, deltasFrom: [Int]? = nil, dataset: String = dataset,
    keeping: Set<Int> = [], describingContent: Bool = false
  ) throws {
    var snapshots: [Int: Snapshot] = [:]
    var items: [Manifest.Extension] = []
    let latest = versions.keys.max().flatMap { versions[$0] }
    for index in 1...extensions {
      var snapshot = Self.snapshot(version: version, index: index)
      if keeping.contains(index), let kept = latest?[index] {
        snapshot = Snapshot(version: UInt64(version), blocking: kept.blocking, identification: kept.identification)
      }
      snapshots[index] = snapshot
      let encoded = try snapshot.encoded()
      let digest = try BlobReader.readHeader(bytes: encoded).contentDigest.hex
      let full = put("snapshots/v\(version)-e\(index).cdir", encoded)
      var deltas: [Manifest.Delta] = []
      for from in (deltasFrom ?? Array(versions.keys)).sorted(by: >) {
        guard let base = versions[from]?[index] else { continue }
        let bytes = try SnapshotDelta(from: base, to: snapshot).encoded()
        let header = try BlobReader.readHeader(bytes: bytes)
        if describingContent && header.baseDigest.hex == digest { continue }
        deltas.append(Manifest.Delta(
          from: from, file: put("deltas/\(from)-\(version)-e\(index).cdir", bytes),
          adds: describingContent ? Int(header.addedEntries) : nil,
          removes: describingContent ? Int(header.removedEntries) : nil))
      }
      let lower = Int64(33_600_000_000 + index * 100_000_000)
      items.append(Manifest.Extension(
        index: index, lower: lower, upper: lower + 99_999_999,
        counts: Manifest.Counts(blocking: snapshot.blocking.count, identification: snapshot.identification.count),
        digest: describingContent ? digest : nil, full: full, deltas: deltas))
    }
    versions[version] = snapshots
    let manifest = Manifest(
      dataset: dataset, version: version, published: "2026-12-0\(min(version, 9))T03:00:00Z", fullEvery: fullEvery,
      extensions: items)
    sign(manifest.serialized())
  }

  /// Serves `bytes` as the manifest, with their signature.
  func sign(_ bytes: [UInt8]) {
    source[SyncSession.manifestPath] = bytes
    let signature = Ed25519.sign(bytes, with: keys) ?? []
    source[SyncSession.signaturePath] = Array((Base64.encode(signature) + "\n").utf8)
  }

  /// Serves `bytes` at `path` and describes the file.
  func put(_ path: String, _ bytes: [UInt8]) -> Manifest.File {
    source[path] = bytes
    return Manifest.File(path: path, bytes: Int64(bytes.count), sha256: hex(SHA256.hash(bytes)))
  }

  /// A session for the sync directory `directory`.
  func session(_ directory: String, publicKey: [UInt8]? = nil) -> SyncSession {
    SyncSession(
      directory: SyncDirectory(path: directory), source: source,
      trust: ManifestTrust(publicKey: publicKey ?? keys.publicKey, verifier: SodiumSignatureVerifier()), hashing: SodiumHashing())
  }
}

extension TemporaryDirectory {
  /// The names in a subdirectory, sorted; empty when it does not exist.
  func names(_ relative: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path + "/" + relative)) ?? []).sorted()
  }
}

/// The hexadecimal string of bytes.
func hex(_ bytes: [UInt8]) -> String {
  bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
}
