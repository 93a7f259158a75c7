import CallDirectorySync
import Foundation
import Sodium
import Testing

/// A manifest's `expires`: written only when set, read strictly, and
/// checked against the device's clock once the signature verifies.
@Suite struct ManifestExpiryTests {
  static let keys = Ed25519.keyPair()!
  static let expires = "2026-12-08T00:00:00Z"
  /// `expires` in seconds since 1970.
  static let deadline: Int64 = 1_796_688_000

  static func manifest(expires: String?) -> Manifest {
    Manifest(
      dataset: "com.example", version: 4, published: "2026-12-01T00:00:00Z", fullEvery: 30, expires: expires,
      extensions: [SyncPlannerTests.item(1, version: 4, deltasFrom: [3])])
  }

  static func verify(_ bytes: [UInt8], at now: Int64) throws -> TrustedManifest {
    let signature = try #require(Ed25519.sign(bytes, with: keys))
    return try ManifestTrust(publicKey: keys.publicKey, verifier: SodiumSignatureVerifier(), clock: { now })
      .verify(manifest: bytes, signature: Array(Base64.encode(signature).utf8))
  }

  @Test func expiresIsWrittenAfterFullEveryOnlyWhenSet() throws {
    let text = String(decoding: Self.manifest(expires: Self.expires).serialized(), as: UTF8.self)
    #expect(text.hasPrefix(#"{"dataset":"com.example","version":4,"published":"2026-12-01T00:00:00Z","fullEvery":30,"#
      + #""expires":"2026-12-08T00:00:00Z","extensions":["#))
    let without = String(decoding: Self.manifest(expires: nil).serialized(), as: UTF8.self)
    #expect(!without.contains("expires") && without.contains(#""fullEvery":30,"extensions":["#))
    for expires in [Self.expires, nil] {
      #expect(try Manifest(parsing: Self.manifest(expires: expires).serialized()) == Self.manifest(expires: expires))
    }
  }

  @Test(arguments: [#""2026-12-08""#, #""tomorrow""#, "1796688000", #""2026-02-30T00:00:00Z""#, #""2026-12-08T24:00:00Z""#])
  func anExpiresThatIsNotAUTCTimeIsMalformed(_ value: String) throws {
    let text = String(decoding: Self.manifest(expires: Self.expires).serialized(), as: UTF8.self)
      .replacingOccurrences(of: #""2026-12-08T00:00:00Z""#, with: value)
    #expect(throws: ManifestError.malformed("manifest.expires: expected an ISO 8601 UTC time such as 2026-12-08T00:00:00Z")) {
      try Manifest(parsing: Array(text.utf8))
    }
  }

  @Test func aManifestIsTrustedUntilItsExpiresAndRefusedAfter() throws {
    let bytes = Self.manifest(expires: Self.expires).serialized()
    #expect(try Self.verify(bytes, at: Self.deadline - 86_400).manifest.expires == Self.expires)
    #expect(try Self.verify(bytes, at: Self.deadline).manifest.version == 4)
    #expect(throws: ManifestError.expired(expires: Self.expires, now: "2026-12-08T00:00:01Z")) {
      try Self.verify(bytes, at: Self.deadline + 1)
    }
    // Without expires, no clock refuses it.
    #expect(try Self.verify(Self.manifest(expires: nil).serialized(), at: Int64(Int32.max) * 2).manifest.expires == nil)
  }

  @Test func theSignatureIsCheckedBeforeTheClock() throws {
    var bytes = Self.manifest(expires: Self.expires).serialized()
    let signature = try #require(Ed25519.sign(bytes, with: Self.keys))
    bytes[bytes.count - 2] = 0x20
    #expect(throws: ManifestError.badSignature) {
      try ManifestTrust(publicKey: Self.keys.publicKey, verifier: SodiumSignatureVerifier(), clock: { Self.deadline + 1 })
        .verify(manifest: bytes, signature: Array(Base64.encode(signature).utf8))
    }
  }
}
