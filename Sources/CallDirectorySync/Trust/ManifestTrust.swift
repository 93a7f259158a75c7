import CalldirSystem

/// Checks an Ed25519 signature: what a device needs to trust a manifest.
///
/// The device-side modules never link a cryptography library: the app
/// passes an implementation (on iOS, CryptoKit's `Curve25519.Signing`; in
/// `calldir`, libsodium), so an extension's code stays free of it.
///
///     struct CryptoKitVerifier: SignatureVerifier {
///       func isValidSignature(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
///         guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey) else { return false }
///         return key.isValidSignature(signature, for: message)
///       }
///     }
public protocol SignatureVerifier: Sendable {
  /// Whether `signature` (64 bytes) is a valid Ed25519 signature of
  /// `message` by `publicKey` (32 bytes).
  func isValidSignature(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool
}

/// Computes SHA-256, to check downloaded files against the manifest; also
/// supplied by the app (CryptoKit's `SHA256` on iOS, OpenSSL's here).
public protocol SHA256Hashing: Sendable {
  /// A hasher for one message, fed in pieces.
  func makeHasher() -> any SHA256Hasher
}

/// One running SHA-256.
public protocol SHA256Hasher {
  mutating func update(_ bytes: UnsafeRawBufferPointer)
  /// The 32-byte digest.
  mutating func finalize() -> [UInt8]
}

/// A verified manifest: what ``ManifestTrust/verify(manifest:signature:)`` returns.
public struct TrustedManifest: Sendable, Hashable {
  public let manifest: Manifest
  /// The exact bytes the signature covers.
  public let bytes: [UInt8]
}

/// The checks a device makes before it trusts a manifest: the Ed25519
/// signature over its exact bytes with the pinned public key, then the
/// manifest itself, then its `expires` against the device's clock.
public struct ManifestTrust: Sendable {
  public let publicKey: [UInt8]
  public let verifier: any SignatureVerifier
  /// The device's clock: seconds since 1970, UTC.
  public let clock: @Sendable () -> Int64

  /// - Parameters:
  ///   - publicKey: The dataset's 32-byte Ed25519 public key, pinned in the app.
  ///   - verifier: The signature check (CryptoKit, libsodium).
  ///   - clock: The time an expiring manifest is checked against; the
  ///     system's clock unless a test passes another.
  public init(
    publicKey: [UInt8], verifier: any SignatureVerifier, clock: @escaping @Sendable () -> Int64 = { UTCTime.now() }
  ) {
    self.publicKey = publicKey
    self.verifier = verifier
    self.clock = clock
  }

  /// Verifies `signature` (the bytes of `manifest.json.sig`: one line of
  /// base64, an optional final line feed) over `manifest` (the bytes of
  /// `manifest.json`), then parses the manifest.
  /// - Throws: ``ManifestError``; nothing in the manifest is read before
  ///   the signature verifies. ``ManifestError/expired(expires:now:)``
  ///   once the clock is past the manifest's `expires`.
  public func verify(manifest: [UInt8], signature: [UInt8]) throws(ManifestError) -> TrustedManifest {
    var text = signature
    while let last = text.last, last == 0x0A || last == 0x0D { text.removeLast() }
    guard let raw = Base64.decode(text), raw.count == 64 else {
      throw .malformedSignature("expected one line of base64 of a 64-byte ed25519 signature")
    }
    guard publicKey.count == 32, verifier.isValidSignature(raw, of: manifest, publicKey: publicKey) else {
      throw .badSignature
    }
    let parsed = try Manifest(parsing: manifest)
    if let expires = parsed.expires, let deadline = UTCTime.parse(expires) {
      let now = clock()
      guard now <= deadline else { throw .expired(expires: expires, now: UTCTime.iso8601(now)) }
    }
    return TrustedManifest(manifest: parsed, bytes: manifest)
  }
}
