#if canImport(CommonCrypto)
  import CommonCrypto
#else
  import CSodium
#endif

/// SHA-256 (FIPS 180-4), streaming, from the platform's library:
/// CommonCrypto (libSystem) on Darwin, libsodium's `crypto_hash_sha256_*`
/// elsewhere. calldir writes no cryptography of its own.
///
/// Feed bytes with ``update(_:)`` and read the 32-byte digest with
/// ``finalize()``. The value type holds the library's state inline.
public struct SHA256: @unchecked Sendable {
  #if canImport(CommonCrypto)
    private var context = CC_SHA256_CTX()

    public init() {
      CC_SHA256_Init(&context)
    }

    /// Feeds `bytes` into the hash.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
      guard let base = bytes.baseAddress else { return }
      var offset = 0
      while offset < bytes.count {
        // CC_LONG is 32 bits wide.
        let piece = min(bytes.count - offset, 1 << 30)
        CC_SHA256_Update(&context, base + offset, CC_LONG(piece))
        offset += piece
      }
    }

    /// The 32-byte digest of everything fed.
    public consuming func finalize() -> [UInt8] {
      var digest = [UInt8](repeating: 0, count: Int(CC_SHA256_DIGEST_LENGTH))
      CC_SHA256_Final(&digest, &context)
      return digest
    }
  #else
    private var state = crypto_hash_sha256_state()

    public init() {
      _ = SHA256.libraryReady
      crypto_hash_sha256_init(&state)
    }

    /// libsodium asks for `sodium_init` before any other call (it is
    /// idempotent and thread-safe); run once.
    private static let libraryReady: Void = { _ = sodium_init() }()

    /// Feeds `bytes` into the hash.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
      guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
      crypto_hash_sha256_update(&state, base.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
    }

    /// The 32-byte digest of everything fed.
    public consuming func finalize() -> [UInt8] {
      var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
      crypto_hash_sha256_final(&state, &digest)
      return digest
    }
  #endif

  /// Feeds the bytes of `sequence` into the hash.
  public mutating func update(_ sequence: some Sequence<UInt8>) {
    let bytes = Array(sequence)
    bytes.withUnsafeBytes { update($0) }
  }

  /// The digest of `bytes`.
  public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
    var hasher = SHA256()
    hasher.update(bytes)
    return hasher.finalize()
  }
}
