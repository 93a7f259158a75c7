import CallDirectoryFormat
import CallDirectorySync
import CalldirSystem
import Sodium

/// Writes `STORE/manifest.json` (and, with a signing key,
/// `STORE/manifest.json.sig`) for the store's latest version: the last step
/// of every publish, atomic, from what the catalog recorded. Each file the
/// manifest names is read whole: its CRC-32C must be the catalog's (a file
/// changed on disk is never signed), and its SHA-256 goes into the manifest.
/// A file the build has just read back once written (`readBack`, by name)
/// is not read again.
struct ManifestPublisher {
  let store: StoreLayout
  let catalog: Catalog
  var readBack: [String: FileFacts] = [:]

  /// The manifest of `record`, the latest version, expiring at `expires`.
  func manifest(of record: SnapshotRecord, fullEvery: Int, expires: String?) throws(StoreError) -> Manifest {
    let shards = try catalog.shards(ofVersion: record.version)
    var extensions: [Manifest.Extension] = []
    if shards.isEmpty {
      extensions.append(Manifest.Extension(
        index: 1, lower: 1, upper: BlobLimits.maxNumber,
        counts: .init(blocking: record.blocking, identification: record.identification),
        full: try file(record.path, bytes: record.bytes, checksum: record.fileChecksum),
        deltas: try catalog.deltas(toVersion: record.version).map { delta throws(StoreError) in
          Manifest.Delta(from: delta.fromVersion, file: try file(delta.path, bytes: delta.bytes, checksum: delta.fileChecksum))
        }))
    } else {
      let shardDeltas = try catalog.shardDeltas(toVersion: record.version)
      for shard in shards {
        extensions.append(Manifest.Extension(
          index: shard.shard, lower: shard.lowerBound, upper: shard.upperBound,
          counts: .init(blocking: shard.blocking, identification: shard.identification),
          full: try file(shard.path, bytes: shard.bytes, checksum: shard.fileChecksum),
          deltas: try shardDeltas.filter { $0.shard == shard.shard }.sorted { $0.fromVersion > $1.fromVersion }.map {
            delta throws(StoreError) in
            Manifest.Delta(from: delta.fromVersion, file: try file(delta.path, bytes: delta.bytes, checksum: delta.fileChecksum))
          }))
      }
    }
    return Manifest(
      dataset: record.dataset, version: record.version, published: record.createdAt, fullEvery: fullEvery,
      expires: expires, extensions: extensions)
  }

  /// Writes the manifest (and its signature, signed by `key`) when its
  /// bytes differ from what is there; the signature first, the manifest
  /// last. Returns whether anything was written.
  @discardableResult
  func publish(_ manifest: Manifest, key: Ed25519.KeyPair?) throws(StoreError) -> Bool {
    let bytes = manifest.serialized()
    let signaturePath = store.path(StoreLayout.manifestSignatureName)
    let signature = key.flatMap { Ed25519.sign(bytes, with: $0) }.map { Array((Base64.encode($0) + "\n").utf8) }
    if key != nil && signature == nil { throw .catalog("libsodium cannot sign the manifest") }
    let manifestPath = store.path(StoreLayout.manifestName)
    let current = try? FileSystem.contents(of: manifestPath, limit: Self.manifestLimit)
    let currentSignature = try? FileSystem.contents(of: signaturePath, limit: 4096)
    guard current != bytes || (signature != nil && currentSignature != signature) else { return false }
    do {
      if let signature {
        try AtomicFile.write(signature, to: signaturePath)
      } else {
        // An unsigned manifest never sits next to another's signature.
        try FileSystem.removeFile(signaturePath)
      }
      try AtomicFile.write(bytes, to: manifestPath)
    } catch {
      // Whichever manifest is in place keeps the signature that is its own.
      if signature != nil, (try? FileSystem.contents(of: manifestPath, limit: Self.manifestLimit)) != bytes {
        if let currentSignature {
          try? AtomicFile.write(currentSignature, to: signaturePath)
        } else {
          try? FileSystem.removeFile(signaturePath)
        }
      }
      throw .file(error)
    }
    return true
  }

  /// The largest manifest read back (20 extensions with 1,000 deltas each
  /// is about 4 MB).
  static let manifestLimit = 64 << 20

  /// A file the manifest names, read whole and checked against the catalog.
  private func file(_ name: String, bytes: Int64, checksum: String) throws(StoreError) -> Manifest.File {
    if let facts = readBack[name], facts.bytes == bytes, facts.checksum == checksum, let sha256 = facts.sha256 {
      return Manifest.File(path: name, bytes: bytes, sha256: sha256)
    }
    let path = store.path(name)
    let facts = try FileFacts.ofPublished(path, withSHA256: true)
    guard facts.bytes == bytes, facts.checksum == checksum else {
      throw .fileMismatch(
        path: path,
        problem: "\(facts.bytes) bytes with \(facts.checksum), the catalog recorded \(bytes) bytes with \(checksum)")
    }
    return Manifest.File(path: name, bytes: bytes, sha256: facts.sha256 ?? "")
  }
}
