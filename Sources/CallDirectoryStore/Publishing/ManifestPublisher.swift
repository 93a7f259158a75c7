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
/// is not read again. Each extension carries its content digest (the
/// catalog's), and each delta the entries it adds and removes (its
/// header's): what a device plans its reloads with.
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
        digest: Self.digest(record.digest),
        full: try file(record.path, bytes: record.bytes, checksum: record.fileChecksum),
        deltas: try catalog.deltas(toVersion: record.version).map { delta throws(StoreError) in
          try self.delta(
            from: delta.fromVersion, to: record.version, delta.path, bytes: delta.bytes, checksum: delta.fileChecksum)
        }))
    } else {
      let shardDeltas = try catalog.shardDeltas(toVersion: record.version)
      for shard in shards {
        extensions.append(Manifest.Extension(
          index: shard.shard, lower: shard.lowerBound, upper: shard.upperBound,
          counts: .init(blocking: shard.blocking, identification: shard.identification),
          digest: Self.digest(shard.digest),
          full: try file(shard.path, bytes: shard.bytes, checksum: shard.fileChecksum),
          deltas: try shardDeltas.filter { $0.shard == shard.shard }.sorted { $0.fromVersion > $1.fromVersion }.map {
            delta throws(StoreError) in
            try self.delta(
              from: delta.fromVersion, to: record.version, delta.path, bytes: delta.bytes, checksum: delta.fileChecksum)
          }))
      }
    }
    return Manifest(
      dataset: record.dataset, version: record.version, published: record.createdAt, fullEvery: fullEvery,
      expires: expires, extensions: extensions)
  }

  /// Writes the manifest (and its signature, signed by `key`) when its
  /// bytes, or those of its signature file, differ from what is there.
  /// Returns whether anything was written.
  ///
  /// A reader (a device, a mirror) reads the two files one after the
  /// other, and a build may stop anywhere: every state between the files'
  /// atomic replacements is a pair that verifies. With a key and a
  /// manifest in place that changes: (1) the signature file takes the
  /// signatures of both the manifest in place and the new one, one per
  /// line; (2) the new manifest is renamed in; (3) the signature file is
  /// rewritten with the new manifest's signature alone, so that after a
  /// build that finishes it holds one line, as external verifiers expect.
  /// A build that stops after (1) or (2), or a disk that fills, leaves two
  /// lines beside either manifest, which devices accept (``ManifestTrust``
  /// trusts a manifest when any line verifies); the next build finishes
  /// step (3).
  @discardableResult
  func publish(_ manifest: Manifest, key: Ed25519.KeyPair?) throws(StoreError) -> Bool {
    let bytes = manifest.serialized()
    let manifestPath = store.path(StoreLayout.manifestName)
    let signaturePath = store.path(StoreLayout.manifestSignatureName)
    let current: [UInt8]?
    let currentSignature: [UInt8]?
    do {
      current = try FileSystem.contentsIfPresent(of: manifestPath, limit: Self.manifestLimit)
      currentSignature = try FileSystem.contentsIfPresent(of: signaturePath, limit: Self.signatureLimit)
    } catch {
      throw .file(error)
    }
    guard let key else {
      guard current != bytes || currentSignature != nil else { return false }
      do {
        // An unsigned manifest never sits next to another's signature.
        try FileSystem.removeFile(signaturePath)
        try AtomicFile.write(bytes, to: manifestPath)
      } catch {
        throw .file(error)
      }
      return true
    }
    let signature = try Self.sign(bytes, with: key)
    let final = Self.file(of: [signature])
    guard current != bytes || currentSignature != final else { return false }
    // While the manifest changes, the signatures of both.
    let transition = try current.map { current throws(StoreError) in
      Self.file(of: [try Self.sign(current, with: key), signature])
    }
    do {
      if current == bytes {
        try AtomicFile.write(final, to: signaturePath)
      } else if let transition {
        try AtomicFile.write(transition, to: signaturePath)
        try AtomicFile.write(bytes, to: manifestPath)
        try AtomicFile.write(final, to: signaturePath)
      } else {
        // No manifest yet: its signature still comes first, so that no
        // reader ever finds it unsigned.
        try AtomicFile.write(final, to: signaturePath)
        try AtomicFile.write(bytes, to: manifestPath)
      }
    } catch {
      throw .file(error)
    }
    return true
  }

  /// The largest signature file read back (``ManifestTrust`` reads at most
  /// ``ManifestTrust/maximumSignatures`` lines).
  static let signatureLimit = 4096

  /// The Ed25519 signature of `bytes`.
  private static func sign(_ bytes: [UInt8], with key: Ed25519.KeyPair) throws(StoreError) -> [UInt8] {
    guard let signature = Ed25519.sign(bytes, with: key) else { throw .catalog("libsodium cannot sign the manifest") }
    return signature
  }

  /// A signature file: each signature's base64 on a line of its own.
  private static func file(of signatures: [[UInt8]]) -> [UInt8] {
    Array(signatures.map { Base64.encode($0) + "\n" }.joined().utf8)
  }

  /// The largest manifest read back (20 extensions with 1,000 deltas each
  /// is about 4 MB).
  static let manifestLimit = 64 << 20

  /// A content digest as the catalog recorded it, for the manifest: nil
  /// unless it is 64 lowercase hexadecimal digits (the manifest's grammar).
  private static func digest(_ recorded: String) -> String? {
    ContentDigest(hex: recorded).map(\.hex) == recorded ? recorded : nil
  }

  /// A delta the manifest names: its file, and the entries it adds and
  /// removes, from its header, which must be a delta from `from` to `to`.
  private func delta(
    from: Int, to: Int, _ name: String, bytes: Int64, checksum: String
  ) throws(StoreError) -> Manifest.Delta {
    let listed = try file(name, bytes: bytes, checksum: checksum)
    let path = store.path(name)
    let header: BlobHeader
    do {
      header = try BlobReader.readHeader(path: path)
    } catch {
      if case .io(let failure) = error { throw .file(failure) }
      throw .fileMismatch(path: path, problem: "its header: \(error)")
    }
    guard header.kind == .delta, header.baseVersion == UInt64(from), header.version == UInt64(to) else {
      throw .fileMismatch(
        path: path,
        problem: "it is a \(header.kind) blob of version \(header.version) (base \(header.baseVersion)), "
          + "the catalog recorded a delta from version \(from) to \(to)")
    }
    return Manifest.Delta(
      from: from, file: listed, adds: Int(clamping: header.addedEntries), removes: Int(clamping: header.removedEntries))
  }

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
