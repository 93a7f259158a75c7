import CallDirectorySync
import CalldirSystem
import Foundation
import Sodium
import Testing

/// A signature file may hold several signatures (a build writes both the
/// old manifest's and the new one's while it replaces the manifest), and a
/// device that reads while a store publishes reads the pair again instead
/// of calling the signature bad.
@Suite(.serialized) struct ManifestRereadTests {
  let directory: TemporaryDirectory
  var store = StoreFixture()

  init() throws {
    directory = try TemporaryDirectory()
  }

  static func file(_ signatures: [[UInt8]]) -> [UInt8] {
    Array(signatures.map { Base64.encode($0) + "\n" }.joined().utf8)
  }

  var trust: ManifestTrust { ManifestTrust(publicKey: store.keys.publicKey, verifier: SodiumSignatureVerifier()) }

  func sign(_ bytes: [UInt8]) throws -> [UInt8] {
    try #require(Ed25519.sign(bytes, with: store.keys))
  }

  @Test mutating func aManifestIsTrustedWhenAnyLineOfItsSignatureFileVerifies() throws {
    try store.publish(version: 1)
    let manifest = try #require(store.source[SyncSession.manifestPath])
    let other = Array("{\"other\": true}\n".utf8)
    let mine = try sign(manifest)
    let theirs = try sign(other)
    for lines in [[mine], [theirs, mine], [mine, theirs]] {
      #expect(try trust.verify(manifest: manifest, signature: Self.file(lines)).manifest.version == 1)
    }
    // CR LF, blank lines and no final line feed are read too.
    let crlf = Array((Base64.encode(theirs) + "\r\n\r\n" + Base64.encode(mine)).utf8)
    #expect(try trust.verify(manifest: manifest, signature: crlf).manifest.version == 1)
    #expect(throws: ManifestError.badSignature) { try trust.verify(manifest: manifest, signature: Self.file([theirs])) }
    #expect(throws: ManifestError.badSignature) { try trust.verify(manifest: other, signature: Self.file([mine])) }
    for malformed in [
      Self.file([mine]) + Array("not base64\n".utf8), Array("\n\n".utf8), [],
      Self.file(Array(repeating: mine, count: ManifestTrust.maximumSignatures + 1)),
      Array((Base64.encode(Array(mine.prefix(32))) + "\n").utf8),
    ] {
      let error = #expect(throws: ManifestError.self) { try trust.verify(manifest: manifest, signature: malformed) }
      guard case .malformedSignature? = error else {
        Issue.record("\(String(describing: error))")
        continue
      }
    }
  }

  /// The steps of a build that replaces manifest `old` by `new`, each an
  /// atomic replacement of one file.
  func publishSteps(from old: [UInt8], to new: [UInt8]) throws -> [(path: String, bytes: [UInt8])] {
    [
      (SyncSession.signaturePath, Self.file([try sign(old), try sign(new)])),
      (SyncSession.manifestPath, new),
      (SyncSession.signaturePath, Self.file([try sign(new)])),
    ]
  }

  @Test mutating func everyStateOfAPublishVerifies() throws {
    try store.publish(version: 1)
    let old = try #require(store.source[SyncSession.manifestPath])
    var state = [SyncSession.manifestPath: old, SyncSession.signaturePath: Self.file([try sign(old)])]
    for step in try publishSteps(from: old, to: Array(old.dropLast()) + [0x20, 0x0A]) {
      state[step.path] = step.bytes
      let manifest = try #require(state[SyncSession.manifestPath])
      let signature = try #require(state[SyncSession.signaturePath])
      #expect(try trust.verify(manifest: manifest, signature: signature).bytes == manifest)
    }
  }

  @Test(arguments: 0...3)
  mutating func aPairReadWhileAStorePublishesIsReadAgain(_ stepsBeforeTheSignature: Int) async throws {
    try store.publish(version: 1)
    let old = try #require(store.source[SyncSession.manifestPath])
    try store.publish(version: 2)
    let new = try #require(store.source[SyncSession.manifestPath])
    store.sign(old)
    // The device reads the old manifest; the store then goes through
    // `stepsBeforeTheSignature` steps of a publish before the device
    // reads the signature, and finishes before it reads again.
    let steps = try publishSteps(from: old, to: new)
    let source = store.source
    source.afterFetch = { path, count in
      guard count == 1 else {
        if count == 2 { for step in steps.dropFirst(stepsBeforeTheSignature) { source[step.path] = step.bytes } }
        return
      }
      for step in steps.prefix(stepsBeforeTheSignature) { source[step.path] = step.bytes }
    }
    let trusted = try await store.session(directory.path).fetchManifest()
    // Read in the middle of the publish, the old pair verifies unless the
    // new manifest's signature alone was there by then: that pair is
    // read again and is the new one.
    #expect(trusted.manifest.version == (stepsBeforeTheSignature == 3 ? 2 : 1))
    #expect(source.fetches.count == (stepsBeforeTheSignature == 3 ? 4 : 2))
  }

  @Test mutating func aPairThatReadsTheSameTwiceAndDoesNotVerifyIsRefused() async throws {
    try store.publish(version: 1)
    var tampered = try #require(store.source[SyncSession.manifestPath])
    tampered[tampered.count - 2] = 0x20
    store.source[SyncSession.manifestPath] = tampered
    await #expect(throws: SyncError.untrusted(.badSignature)) { try await store.session(directory.path).fetchManifest() }
    #expect(store.source.fetches.count == 4)
  }

  @Test mutating func aSourceThatNeverSettlesIsRefusedAfterItsLastRead() async throws {
    try store.publish(version: 1)
    let source = store.source
    source.afterFetch = { path, count in
      if path == SyncSession.signaturePath { source[SyncSession.signaturePath] = Array("\(count)".utf8) + Self.file([[UInt8](repeating: 7, count: 64)]) }
    }
    source[SyncSession.signaturePath] = Self.file([[UInt8](repeating: 7, count: 64)])
    let error = await #expect(throws: SyncError.self) { try await store.session(directory.path).fetchManifest() }
    guard case .untrusted? = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(source.fetches.count == 2 * ManifestVerification.maximumReads)
  }

  @Test func theVerificationReadsAgainOnlyForASignature() async throws {
    var verification = ManifestVerification(trust: trust)
    let manifest = Array("{}".utf8)
    // A signature that does not verify: read again, then refused when unchanged.
    #expect(try verification.check(manifest: manifest, signature: Self.file([[UInt8](repeating: 1, count: 64)])) == nil)
    #expect(throws: ManifestError.badSignature) {
      try verification.check(manifest: manifest, signature: Self.file([[UInt8](repeating: 1, count: 64)]))
    }
    // A manifest whose signature verifies but that is malformed: at once.
    var another = ManifestVerification(trust: trust)
    let error = #expect(throws: ManifestError.self) { try another.check(manifest: manifest, signature: Self.file([try sign(manifest)])) }
    guard case .malformed? = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(another.reads == 1)
  }
}
