import CSodium

/// SHA-256 through libsodium's `crypto_hash_sha256_*`.
public struct SodiumSHA256 {
  private var state = crypto_hash_sha256_state()

  public init() {
    _ = _Sodium.ready()
    crypto_hash_sha256_init(&state)
  }

  public mutating func update(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return }
    crypto_hash_sha256_update(&state, base.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
  }

  /// The 32-byte digest.
  public mutating func finalize() -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
    crypto_hash_sha256_final(&state, &digest)
    return digest
  }

  /// The digest of `bytes`.
  public static func hash(_ bytes: [UInt8]) -> [UInt8] {
    var hasher = SodiumSHA256()
    bytes.withUnsafeBytes { hasher.update($0) }
    return hasher.finalize()
  }

  /// Lowercase hex of a digest.
  public static func hex(_ digest: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    for byte in digest {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
