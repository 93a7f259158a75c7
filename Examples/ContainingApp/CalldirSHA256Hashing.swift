import CallDirectoryFormat
import CallDirectorySync

/// SHA-256 as `CallDirectoryFormat` computes the blobs' content digests
/// (CommonCrypto on Darwin, OpenSSL's libcrypto elsewhere): for platforms without
/// CryptoKit, and for tests. On iOS, ``CryptoKitSHA256Hashing`` does the same.
public struct CalldirSHA256Hashing: SHA256Hashing {
  /// A hashing.
  public init() {}

  /// A new running SHA-256.
  public func makeHasher() -> any SHA256Hasher {
    RunningHash()
  }

  /// `CallDirectoryFormat.SHA256`, behind the protocol.
  private struct RunningHash: SHA256Hasher {
    private var hash = CallDirectoryFormat.SHA256()

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
      hash.update(bytes)
    }

    mutating func finalize() -> [UInt8] {
      hash.finalize()
    }
  }
}
