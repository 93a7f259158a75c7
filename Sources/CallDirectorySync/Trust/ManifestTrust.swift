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

  /// Verifies `signature` (the bytes of `manifest.json.sig`) over
  /// `manifest` (the bytes of `manifest.json`), then parses the manifest.
  ///
  /// The signature file holds one or more lines, each the base64 of a
  /// 64-byte Ed25519 signature (empty lines and a final line feed are
  /// allowed): the manifest is trusted when any line verifies. A build
  /// writes one line; while it replaces the manifest, the file holds the
  /// signatures of the old manifest and the new one, so that whichever a
  /// reader finds verifies.
  /// - Throws: ``ManifestError``; nothing in the manifest is read before
  ///   a signature verifies. ``ManifestError/expired(expires:now:)``
  ///   once the clock is past the manifest's `expires`.
  public func verify(manifest: [UInt8], signature: [UInt8]) throws(ManifestError) -> TrustedManifest {
    let signatures = try Self.signatures(in: signature)
    guard publicKey.count == 32,
      signatures.contains(where: { verifier.isValidSignature($0, of: manifest, publicKey: publicKey) })
    else { throw .badSignature }
    let parsed = try Manifest(parsing: manifest)
    if let expires = parsed.expires, let deadline = UTCTime.parse(expires) {
      let now = clock()
      guard now <= deadline else { throw .expired(expires: expires, now: UTCTime.iso8601(now)) }
    }
    return TrustedManifest(manifest: parsed, bytes: manifest)
  }

  /// The most signatures a signature file may hold.
  public static let maximumSignatures = 8

  /// The signatures of a signature file: one per line, each the base64
  /// of 64 bytes; empty lines (and CR before LF) are skipped.
  /// - Throws: ``ManifestError/malformedSignature(_:)`` for a line that
  ///   is not one, a file without any, or one with more than
  ///   ``maximumSignatures``.
  static func signatures(in file: [UInt8]) throws(ManifestError) -> [[UInt8]] {
    var signatures: [[UInt8]] = []
    for var line in file.split(separator: 0x0A, omittingEmptySubsequences: true) {
      while let last = line.last, last == 0x0D { line.removeLast() }
      guard !line.isEmpty else { continue }
      guard let raw = Base64.decode(Array(line)), raw.count == 64 else {
        throw .malformedSignature("expected lines of base64, each of a 64-byte ed25519 signature")
      }
      signatures.append(raw)
    }
    guard !signatures.isEmpty else {
      throw .malformedSignature("expected lines of base64, each of a 64-byte ed25519 signature")
    }
    guard signatures.count <= maximumSignatures else {
      throw .malformedSignature("more than \(maximumSignatures) signatures")
    }
    return signatures
  }
}

/// Verifies a manifest and its signature read from a store that may be
/// publishing a new pair meanwhile (a build replaces them one after the
/// other, and a reader reads them one after the other): a pair that does
/// not verify is read again, and only a pair that reads the same twice
/// and does not verify is refused.
///
///     var verification = ManifestVerification(trust: trust)
///     while true {
///       let manifest = try fetch("manifest.json")
///       let signature = try fetch("manifest.json.sig")
///       if let trusted = try verification.check(manifest: manifest, signature: signature) { return trusted }
///     }
///
/// ``check(manifest:signature:)`` throws at the latest at the
/// ``maximumReads``-th pair, so the loop ends.
public struct ManifestVerification: Sendable {
  /// How many times a pair is read at most.
  public static let maximumReads = 4

  public let trust: ManifestTrust
  /// The pair read last, when it did not verify.
  private var previous: (manifest: [UInt8], signature: [UInt8])?
  /// Pairs checked so far.
  public private(set) var reads = 0

  public init(trust: ManifestTrust) {
    self.trust = trust
  }

  /// Checks one reading of the manifest and its signature.
  ///
  /// - Returns: The trusted manifest; nil when the signature does not
  ///   verify but the pair may have been read while a build replaced it
  ///   (it is the first pair read, or differs from the one read before):
  ///   read both again, in the same order, and check them again.
  /// - Throws: ``ManifestError``: a signature that does not verify over a
  ///   pair that reads the same twice (or after ``maximumReads`` pairs);
  ///   any other problem (a malformed manifest, an expired one) at once.
  public mutating func check(manifest: [UInt8], signature: [UInt8]) throws(ManifestError) -> TrustedManifest? {
    reads += 1
    do {
      return try trust.verify(manifest: manifest, signature: signature)
    } catch {
      switch error {
      case .badSignature, .malformedSignature:
        let unchanged = previous.map { $0.manifest == manifest && $0.signature == signature } ?? false
        guard !unchanged && reads < Self.maximumReads else { throw error }
        previous = (manifest, signature)
        return nil
      default:
        throw error
      }
    }
  }
}
