import CallDirectorySync
import CalldirSystem
import Sodium

/// The Ed25519 key that signs a store's manifest, as `calldir keygen`
/// writes it: `PREFIX.key`, one line of base64 of libsodium's 64-byte
/// secret key (seed then public key) or of the 32-byte seed; `PREFIX.pub`,
/// one line of base64 of the raw 32-byte public key.
public enum SigningKey {
  /// Reads a secret key file. When the file is `PREFIX.key` and a
  /// `PREFIX.pub` lies next to it (as `calldir keygen` writes them), that
  /// file must hold the key's own public key: a pair that does not match
  /// would sign manifests that no app pinning the `.pub` accepts.
  /// - Throws: ``SigningKeyError`` when it cannot be read or is not a
  ///   secret key (a public key file, `PREFIX.pub`, included: its 32
  ///   bytes would pass for a seed, and sign with a key anyone can make),
  ///   or when the `.pub` next to it is another key's.
  public static func load(_ path: String) throws(SigningKeyError) -> Ed25519.KeyPair {
    let bytes: [UInt8]
    do {
      bytes = try FileSystem.contents(of: path, limit: 4096)
    } catch {
      throw .unreadable(error)
    }
    if path.hasSuffix(".pub") { throw .notASecretKey(path: path, reason: "it is a public key file (keygen's PREFIX.pub)") }
    guard let secret = Base64.decode(trimmed(bytes)), let pair = Ed25519.keyPair(secret: secret) else {
      throw .notASecretKey(path: path, reason: "expected one line of base64 of 32 or 64 bytes, as 'calldir keygen' writes")
    }
    if path.hasSuffix(".key") {
      let publicPath = String(path.dropLast(4)) + ".pub"
      let found: [UInt8]?
      do {
        found = try FileSystem.contentsIfPresent(of: publicPath, limit: 4096)
      } catch {
        throw .unreadable(error)
      }
      if let found, Base64.decode(trimmed(found)) != pair.publicKey {
        throw .mismatchedPublicKey(path: path, publicPath: publicPath)
      }
    }
    return pair
  }

  /// Reads a public key file: the raw 32 bytes.
  public static func loadPublic(_ path: String) throws(FileError) -> [UInt8]? {
    let bytes = try FileSystem.contents(of: path, limit: 4096)
    guard let key = Base64.decode(trimmed(bytes)), key.count == 32 else { return nil }
    return key
  }

  /// Writes a new key pair to `PREFIX.key` (mode 0600) and `PREFIX.pub`,
  /// exclusively: both files of one pair, or an error and neither.
  ///
  /// Each file is written whole and synced under a temporary name, then
  /// given its name with `link(2)`, which never replaces anything: the
  /// `.key` first, so that of two keygens on one prefix at once exactly one
  /// gets it and the other stops with nothing made; then the `.pub`. When
  /// the `.pub` cannot be made, the `.key` just made is removed again. A
  /// crash between the two leaves a `.key` alone, never a `.pub` of
  /// another pair beside it (and ``load(_:)`` refuses a pair that does not
  /// match). Temporary files that a keygen killed on the way left are
  /// removed by the next one.
  /// - Throws: ``FileError`` (`EEXIST` when either file exists).
  public static func generate(prefix: String) throws(FileError) -> (secretPath: String, publicPath: String, pair: Ed25519.KeyPair) {
    let secretPath = prefix + ".key"
    let publicPath = prefix + ".pub"
    let folder = FileSystem.directoryName(of: secretPath)
    // Say which folder is missing, rather than ENOENT for the key file.
    guard try FileSystem.statusIfPresent(folder) != nil else {
      throw FileError(
        operation: "create", path: secretPath, errno: .noSuchFileOrDirectory,
        detail: "the folder '\(folder)' does not exist (create it first: mkdir -p '\(folder)')")
    }
    for path in [secretPath, publicPath] { AtomicFile.removeAbandonedTemporaries(of: path) }
    for path in [secretPath, publicPath] where FileSystem.exists(path) { throw exists(path) }
    guard let pair = Ed25519.keyPair() else {
      throw FileError(operation: "create", path: secretPath, errno: .ioError, detail: "libsodium cannot make a key")
    }
    let secret = try AtomicFile(destination: secretPath, permissions: 0o600)
    defer { secret.discard() }
    try secret.writer.write(Array((Base64.encode(pair.secretKey) + "\n").utf8))
    try secret.seal()
    let publicFile = try AtomicFile(destination: publicPath, permissions: 0o644)
    defer { publicFile.discard() }
    try publicFile.writer.write(Array((Base64.encode(pair.publicKey) + "\n").utf8))
    try publicFile.seal()
    do {
      try FileSystem.linkWithoutReplacing(secret.temporaryPath, to: secretPath)
    } catch where error.errno == .fileExists {
      throw exists(secretPath)
    } catch {
      // Linked but not synced: it goes again.
      removeIfSame(secretPath, as: secret.temporaryPath)
      throw error
    }
    do {
      try FileSystem.linkWithoutReplacing(publicFile.temporaryPath, to: publicPath)
    } catch {
      if error.errno != .fileExists { removeIfSame(publicPath, as: publicFile.temporaryPath) }
      removeIfSame(secretPath, as: secret.temporaryPath)
      throw error.errno == .fileExists ? exists(publicPath) : error
    }
    return (secretPath, publicPath, pair)
  }

  /// Removes `path` when it is the file at `original` (a link this
  /// keygen made), never another's.
  private static func removeIfSame(_ path: String, as original: String) {
    guard let made = try? FileSystem.status(path, followingLinks: false), let ours = try? FileSystem.status(original),
      made.device == ours.device && made.inode == ours.inode
    else { return }
    try? FileSystem.removeFile(path)
    try? FileSystem.syncDirectory(containing: path)
  }

  private static func exists(_ path: String) -> FileError {
    FileError(operation: "create", path: path, errno: .fileExists, detail: "it exists; a key is never replaced")
  }

  private static func trimmed(_ bytes: [UInt8]) -> [UInt8] {
    var result = bytes
    while let last = result.last, last == 0x0A || last == 0x0D || last == 0x20 { result.removeLast() }
    return result
  }
}

/// Why the manifest's signing key cannot be used.
public enum SigningKeyError: Error, CustomStringConvertible {
  /// The file cannot be read (missing, a directory, unreadable).
  case unreadable(FileError)
  /// The file is not an Ed25519 secret key.
  case notASecretKey(path: String, reason: String)
  /// The `PREFIX.pub` next to the key `PREFIX.key` is not its public key.
  case mismatchedPublicKey(path: String, publicPath: String)

  public var description: String {
    switch self {
    case .unreadable(let error): "signing key: \(error)"
    case .notASecretKey(let path, let reason): "signing key \(path) is not an ed25519 secret key: \(reason)"
    case .mismatchedPublicKey(let path, let publicPath):
      "signing key \(path) does not match \(publicPath) next to it (not its public key): apps pinning that file "
        + "would refuse every manifest; nothing was signed"
    }
  }
}
