import CSodium

/// SHA-256 (FIPS 180-4) through libsodium's `crypto_hash_sha256_*`: the
/// hash Live Caller ID Lookup shards keywords with, and the one its export
/// names its files by. calldir writes no cryptography of its own.
///
///     var hasher = SodiumSHA256()
///     hasher.update(Array("+14085551212".utf8))
///     let digest = hasher.finalize()          // 32 bytes
///     let same = SodiumSHA256.hash(Array("+14085551212".utf8))
public struct SodiumSHA256 {
  /// The size of a digest in bytes (`crypto_hash_sha256_BYTES`).
  public static let digestBytes = Int(crypto_hash_sha256_BYTES)

  private var state = crypto_hash_sha256_state()

  /// A hasher of the empty message. The corresponding libsodium call is
  /// `crypto_hash_sha256_init`.
  public init() {
    _ = _Sodium.ready()
    crypto_hash_sha256_init(&state)
  }

  /// Adds `bytes` to the message. The corresponding libsodium call is
  /// `crypto_hash_sha256_update`.
  public mutating func update(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
    crypto_hash_sha256_update(&state, base.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
  }

  /// Adds `bytes` to the message.
  public mutating func update(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { update($0) }
  }

  /// The 32-byte digest of everything added. The corresponding libsodium
  /// call is `crypto_hash_sha256_final`.
  public consuming func finalize() -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: Self.digestBytes)
    crypto_hash_sha256_final(&state, &digest)
    return digest
  }

  /// The digest of `bytes` in one call. The corresponding libsodium call is
  /// `crypto_hash_sha256`.
  public static func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
    _ = _Sodium.ready()
    var digest = [UInt8](repeating: 0, count: digestBytes)
    let input = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
    digest.withUnsafeMutableBufferPointer { output in
      if let input {
        _ = crypto_hash_sha256(output.baseAddress!, input, UInt64(bytes.count))
      } else {
        var empty: UInt8 = 0
        _ = crypto_hash_sha256(output.baseAddress!, &empty, 0)
      }
    }
    return digest
  }

  /// The digest of `bytes` in one call.
  public static func hash(_ bytes: [UInt8]) -> [UInt8] {
    bytes.withUnsafeBytes { hash($0) }
  }

  /// The first eight bytes of the digest of `bytes`, read as a
  /// little-endian integer: what Live Caller ID Lookup's `sha256` sharding
  /// function reduces modulo the shard count (its `truncate`).
  public static func truncatedHash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    _ = _Sodium.ready()
    var digest = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
    withUnsafeMutableBytes(of: &digest) { output in
      let out = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
      if let input = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) {
        _ = crypto_hash_sha256(out, input, UInt64(bytes.count))
      } else {
        var empty: UInt8 = 0
        _ = crypto_hash_sha256(out, &empty, 0)
      }
    }
    return UInt64(littleEndian: digest.0)
  }
}
