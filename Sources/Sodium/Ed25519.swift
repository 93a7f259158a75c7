import CSodium

/// Ed25519 signatures (RFC 8032) through libsodium's `crypto_sign_*`.
/// calldir writes no cryptography of its own.
public enum Ed25519 {
  /// A key pair: the 32-byte public key and libsodium's 64-byte secret key
  /// (the 32-byte seed followed by the public key).
  public struct KeyPair: Sendable {
    public let publicKey: [UInt8]
    public let secretKey: [UInt8]
    /// The 32-byte seed the pair derives from (`secretKey`'s first half).
    public var seed: [UInt8] { Array(secretKey.prefix(32)) }
  }

  /// A new random key pair. The corresponding libsodium call is `crypto_sign_keypair`.
  public static func keyPair() -> KeyPair? {
    guard _Sodium.ready() else { return nil }
    var publicKey = [UInt8](repeating: 0, count: Int(crypto_sign_PUBLICKEYBYTES))
    var secretKey = [UInt8](repeating: 0, count: Int(crypto_sign_SECRETKEYBYTES))
    guard crypto_sign_keypair(&publicKey, &secretKey) == 0 else { return nil }
    return KeyPair(publicKey: publicKey, secretKey: secretKey)
  }

  /// The key pair of a 32-byte seed, or of a 64-byte libsodium secret key
  /// (whose public half must match). The corresponding libsodium call is
  /// `crypto_sign_seed_keypair`.
  public static func keyPair(secret: [UInt8]) -> KeyPair? {
    guard _Sodium.ready(), secret.count == 32 || secret.count == 64 else { return nil }
    var publicKey = [UInt8](repeating: 0, count: Int(crypto_sign_PUBLICKEYBYTES))
    var secretKey = [UInt8](repeating: 0, count: Int(crypto_sign_SECRETKEYBYTES))
    let seed = Array(secret.prefix(32))
    guard crypto_sign_seed_keypair(&publicKey, &secretKey, seed) == 0 else { return nil }
    if secret.count == 64 && Array(secret.suffix(32)) != publicKey { return nil }
    return KeyPair(publicKey: publicKey, secretKey: secretKey)
  }

  /// The 64-byte detached signature of `message`. The corresponding
  /// libsodium call is `crypto_sign_detached`.
  public static func sign(_ message: [UInt8], with pair: KeyPair) -> [UInt8]? {
    guard _Sodium.ready() else { return nil }
    var signature = [UInt8](repeating: 0, count: Int(crypto_sign_BYTES))
    var length: UInt64 = 0
    guard crypto_sign_detached(&signature, &length, message, UInt64(message.count), pair.secretKey) == 0 else {
      return nil
    }
    return Array(signature.prefix(Int(length)))
  }

  /// Whether `signature` is `publicKey`'s valid signature of `message`. The
  /// corresponding libsodium call is `crypto_sign_verify_detached`.
  public static func isValidSignature(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
    guard _Sodium.ready(), signature.count == Int(crypto_sign_BYTES),
      publicKey.count == Int(crypto_sign_PUBLICKEYBYTES)
    else { return false }
    return crypto_sign_verify_detached(signature, message, UInt64(message.count), publicKey) == 0
  }
}
