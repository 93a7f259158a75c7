import CallDirectorySync
import CalldirSystem
import Sodium

/// The Ed25519 key that signs a store's manifest, as `calldir keygen`
/// writes it: `PREFIX.key`, one line of base64 of libsodium's 64-byte
/// secret key (seed then public key) or of the 32-byte seed; `PREFIX.pub`,
/// one line of base64 of the raw 32-byte public key.
public enum SigningKey {
  /// Reads a secret key file.
  /// - Throws: ``SigningKeyError`` when it cannot be read or is not a
  ///   secret key (a public key file, `PREFIX.pub`, included: its 32
  ///   bytes would pass for a seed, and sign with a key anyone can make).
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
    return pair
  }

  /// Reads a public key file: the raw 32 bytes.
  public static func loadPublic(_ path: String) throws(FileError) -> [UInt8]? {
    let bytes = try FileSystem.contents(of: path, limit: 4096)
    guard let key = Base64.decode(trimmed(bytes)), key.count == 32 else { return nil }
    return key
  }

  /// Writes a new key pair to `PREFIX.key` (mode 0600) and `PREFIX.pub`;
  /// never replaces an existing file.
  /// - Throws: ``FileError`` (`EEXIST` when either file exists).
  public static func generate(prefix: String) throws(FileError) -> (secretPath: String, publicPath: String, pair: Ed25519.KeyPair) {
    let secretPath = prefix + ".key"
    let publicPath = prefix + ".pub"
    for path in [secretPath, publicPath] where FileSystem.exists(path) {
      throw FileError(operation: "create", path: path, errno: .fileExists, detail: "it exists; a key is never replaced")
    }
    guard let pair = Ed25519.keyPair() else {
      throw FileError(operation: "create", path: secretPath, errno: .ioError, detail: "libsodium cannot make a key")
    }
    try AtomicFile.write(Array((Base64.encode(pair.secretKey) + "\n").utf8), to: secretPath, permissions: 0o600)
    try AtomicFile.write(Array((Base64.encode(pair.publicKey) + "\n").utf8), to: publicPath, permissions: 0o644)
    return (secretPath, publicPath, pair)
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

  public var description: String {
    switch self {
    case .unreadable(let error): "signing key: \(error)"
    case .notASecretKey(let path, let reason): "signing key \(path) is not an ed25519 secret key: \(reason)"
    }
  }
}
