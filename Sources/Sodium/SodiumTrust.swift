import CallDirectoryFormat
import CallDirectorySync

/// CallDirectorySync's signature check on libsodium (what `calldir device
/// sync` passes; an iOS app passes one on CryptoKit).
public struct SodiumSignatureVerifier: SignatureVerifier {
  public init() {}

  public func isValidSignature(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
    Ed25519.isValidSignature(signature, of: message, publicKey: publicKey)
  }
}

/// CallDirectorySync's SHA-256: CallDirectoryFormat's, which is OpenSSL's
/// on Linux (the signature check beside it stays on libsodium).
public struct SodiumHashing: SHA256Hashing {
  public init() {}

  public func makeHasher() -> any SHA256Hasher { SHA256() }
}

extension SHA256: SHA256Hasher {}
