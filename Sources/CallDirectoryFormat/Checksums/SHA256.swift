#if canImport(CommonCrypto)
  import CommonCrypto
#else
  import CCrypto
#endif

/// SHA-256 (FIPS 180-4), streaming, from the platform's library:
/// CommonCrypto (libSystem) on Darwin, OpenSSL's libcrypto (its EVP
/// interface, which uses the CPU's SHA extensions) elsewhere. calldir
/// writes no cryptography of its own.
///
/// Feed bytes with ``update(_:)`` and read the 32-byte digest with
/// ``finalize()``. It is a value: a copy hashes on independently.
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
    private var context = _EVPContext()

    public init() {}

    /// Feeds `bytes` into the hash.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
      guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
      if !isKnownUniquelyReferenced(&context) { context = context.copy() }
      context.update(base, bytes.count)
    }

    /// The 32-byte digest of everything fed.
    public consuming func finalize() -> [UInt8] {
      if !isKnownUniquelyReferenced(&context) { context = context.copy() }
      return context.finalize()
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

#if !canImport(CommonCrypto)
  /// An OpenSSL digest context started for SHA-256, owned by one
  /// ``SHA256`` value at a time (copied before a shared one is changed).
  private final class _EVPContext {
    private let pointer: OpaquePointer

    init() {
      guard let pointer = EVP_MD_CTX_new(), EVP_DigestInit_ex(pointer, EVP_sha256(), nil) == 1 else {
        // Only an exhausted heap gets here.
        fatalError("OpenSSL could not start a SHA-256 context")
      }
      self.pointer = pointer
    }

    private init(copying other: OpaquePointer) {
      guard let pointer = EVP_MD_CTX_new(), EVP_MD_CTX_copy_ex(pointer, other) == 1 else {
        fatalError("OpenSSL could not copy a SHA-256 context")
      }
      self.pointer = pointer
    }

    deinit { EVP_MD_CTX_free(pointer) }

    func copy() -> _EVPContext { _EVPContext(copying: pointer) }

    func update(_ base: UnsafeRawPointer, _ count: Int) {
      _ = EVP_DigestUpdate(pointer, base, count)
    }

    func finalize() -> [UInt8] {
      var digest = [UInt8](repeating: 0, count: 32)
      var length: UInt32 = 0
      _ = EVP_DigestFinal_ex(pointer, &digest, &length)
      return digest
    }
  }
#endif
