import CallDirectoryFormat
import CallDirectorySync
import Sodium
import Testing

/// RFC 8032 §7.1, tests 1–3: secret key (seed), public key, message, signature.
struct RFC8032Vector: CustomTestStringConvertible, Sendable {
  let name: String
  let seed: String
  let publicKey: String
  let message: String
  let signature: String
  var testDescription: String { name }
}

func bytes(hex: String) -> [UInt8] {
  var result: [UInt8] = []
  var index = hex.startIndex
  while index < hex.endIndex {
    let next = hex.index(index, offsetBy: 2)
    result.append(UInt8(hex[index..<next], radix: 16) ?? 0)
    index = next
  }
  return result
}

@Suite struct Ed25519Tests {
  static let vectors = [
    RFC8032Vector(
      name: "test 1",
      seed: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
      publicKey: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", message: "",
      signature: "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
    RFC8032Vector(
      name: "test 2",
      seed: "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
      publicKey: "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", message: "72",
      signature: "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
    RFC8032Vector(
      name: "test 3",
      seed: "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
      publicKey: "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", message: "af82",
      signature: "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"),
  ]

  @Test(arguments: vectors) func signsAndVerifiesTheRFCVectors(_ vector: RFC8032Vector) throws {
    let pair = try #require(Ed25519.keyPair(secret: bytes(hex: vector.seed)))
    #expect(pair.publicKey == bytes(hex: vector.publicKey))
    #expect(Ed25519.sign(bytes(hex: vector.message), with: pair) == bytes(hex: vector.signature))
    #expect(Ed25519.isValidSignature(bytes(hex: vector.signature), of: bytes(hex: vector.message), publicKey: pair.publicKey))
    // The 64-byte secret key form gives the same pair.
    #expect(Ed25519.keyPair(secret: pair.secretKey)?.publicKey == pair.publicKey)
    var tampered = bytes(hex: vector.signature)
    tampered[10] ^= 1
    #expect(!Ed25519.isValidSignature(tampered, of: bytes(hex: vector.message), publicKey: pair.publicKey))
    #expect(!Ed25519.isValidSignature(bytes(hex: vector.signature), of: bytes(hex: vector.message) + [0], publicKey: pair.publicKey))
  }

  @Test func aSecretKeyWhosePublicHalfDisagreesIsRefused() throws {
    let pair = try #require(Ed25519.keyPair())
    var secret = pair.secretKey
    secret[63] ^= 1
    #expect(Ed25519.keyPair(secret: secret) == nil)
    #expect(Ed25519.keyPair(secret: [1, 2, 3]) == nil)
  }

  @Test func sha256MatchesKnownAnswers() {
    #expect(ContentDigest(bytes: SHA256.hash([]))?.hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(ContentDigest(bytes: SHA256.hash(Array("abc".utf8)))?.hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  }

  @Test func aManifestSignedByItsKeyIsTrustedAndNothingElseIs() throws {
    let pair = try #require(Ed25519.keyPair())
    let manifest = Manifest(
      dataset: "com.example.blocklist", version: 3, published: "2026-12-01T03:00:00Z", fullEvery: 30,
      extensions: [
        .init(
          index: 1, lower: 1, upper: 9_223_372_036_854_775_806, counts: .init(blocking: 5, identification: 1),
          full: .init(path: "snapshots/snapshot-000003.cdir", bytes: 300, sha256: String(repeating: "a", count: 64)),
          deltas: [.init(from: 2, file: .init(path: "deltas/delta-000002-000003.cdir", bytes: 90, sha256: String(repeating: "b", count: 64)))])
      ])
    let bytes = manifest.serialized()
    let signature = Array((Base64.encode(try #require(Ed25519.sign(bytes, with: pair))) + "\n").utf8)
    let trust = ManifestTrust(publicKey: pair.publicKey, verifier: SodiumSignatureVerifier())
    #expect(try trust.verify(manifest: bytes, signature: signature).manifest == manifest)
    #expect(throws: ManifestError.badSignature) { try trust.verify(manifest: bytes + [0x20], signature: signature) }
    let other = try #require(Ed25519.keyPair())
    #expect(throws: ManifestError.badSignature) {
      try ManifestTrust(publicKey: other.publicKey, verifier: SodiumSignatureVerifier()).verify(manifest: bytes, signature: signature)
    }
    #expect(throws: ManifestError.self) { try trust.verify(manifest: bytes, signature: Array("not base64".utf8)) }
  }
}
