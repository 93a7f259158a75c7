#if canImport(CryptoKit)
  import CallDirectorySync
  import CryptoKit
  import Foundation

  /// Ed25519 signature checks with CryptoKit (iOS 13), for ``ManifestTrust``:
  ///
  ///     let trust = ManifestTrust(publicKey: pinnedKey, verifier: CryptoKitSignatureVerifier())
  ///
  /// `pinnedKey` is the dataset's 32-byte Ed25519 public key, compiled into
  /// the app (never fetched next to the manifest it is meant to check).
  public struct CryptoKitSignatureVerifier: SignatureVerifier {
    /// A verifier.
    public init() {}

    /// Whether `signature` is `publicKey`'s Ed25519 signature of `message`;
    /// `false` for a key that is not 32 bytes.
    public func isValidSignature(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
      guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey) else { return false }
      return key.isValidSignature(signature, for: message)
    }
  }

  /// SHA-256 with CryptoKit, to check downloaded blobs against the manifest.
  public struct CryptoKitSHA256Hashing: SHA256Hashing {
    /// A hashing.
    public init() {}

    /// A new running SHA-256.
    public func makeHasher() -> any SHA256Hasher {
      RunningHash()
    }

    /// CryptoKit's streaming `SHA256`.
    private struct RunningHash: SHA256Hasher {
      private var hash = CryptoKit.SHA256()

      mutating func update(_ bytes: UnsafeRawBufferPointer) {
        hash.update(bufferPointer: bytes)
      }

      mutating func finalize() -> [UInt8] {
        Array(hash.finalize())
      }
    }
  }
#endif
