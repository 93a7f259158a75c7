import CallDirectoryFormat
import CalldirSystem
import FormatFixtures
import Foundation
import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectoryStore

@Suite struct IdentityDetailsTests {
  static let digest = ContentDigest.empty

  @Test func runsFollowTheWinningSourcesAndRoundTrip() throws {
    let icon = [UInt8](repeating: 7, count: 32)
    let profiles: [Int: IdentityDetails.Profile] = [
      1: .init(category: .business, icon: icon), 2: .init(category: .person), 3: .init(category: .business, icon: icon),
    ]
    let details = IdentityDetails.of(
      sources: [1, 1, 3, 2, 2, 2, 1, 9], profileOfSource: { profiles[$0] ?? .init(category: .unspecified) }, version: 42,
      snapshotDigest: Self.digest)
    // Sources 1 and 3 share a profile: one run of three.
    #expect(details.profiles == [.init(category: .business, icon: icon), .init(category: .person), .init(category: .unspecified)])
    #expect(details.runs == [.init(count: 3, profile: 0), .init(count: 3, profile: 1), .init(count: 1, profile: 0), .init(count: 1, profile: 2)])
    #expect(details.entryCount == 8)
    let bytes = details.encoded()
    #expect(try IdentityDetails(decoding: bytes) == details)
    // The digest says what the entries carry, whatever the version.
    var other = details
    other.version = 43
    #expect(other.digest == details.digest)
    other.runs[0].count = 2
    other.runs[1].count = 4
    #expect(other.digest != details.digest)
  }

  /// Details streamed from spilled entries (their runs folded again on
  /// each walk) are the held details' bytes and digest.
  @Test(arguments: [0, 1, 5, 200_000])
  func streamedDetailsAreTheHeldOnes(entries: Int) throws {
    let directory = try Workspace()
    var generator = SplitMix64(seed: UInt64(entries))
    // Long runs and single entries; 200,000 entries pass the 64 KiB pieces.
    var sources: [Int32] = []
    while sources.count < entries {
      let source = Int32(generator.next(below: 6))
      sources += Array(repeating: source, count: min(entries - sources.count, 1 + Int(generator.next(below: 3) == 0 ? 50 : 1)))
    }
    let icon = [UInt8](repeating: 9, count: 32)
    let profileOfSource = { (source: Int) in
      IdentityDetails.Profile(category: source % 3 == 0 ? .business : .person, icon: source == 4 ? icon : nil)
    }
    let held = IdentityDetails.of(sources: sources, profileOfSource: profileOfSource, version: 3, snapshotDigest: Self.digest)
    var walks = 0
    let streamed = try StreamedIdentityDetails(
      sources: { (body) throws(StoreError) in
        walks += 1
        for source in sources { try body(source) }
      }, profileOfSource: profileOfSource, version: 3, snapshotDigest: Self.digest)
    #expect(walks == 2)
    #expect(streamed.digest == held.digest)
    #expect(streamed.runCount == held.runs.count && streamed.entryCount == entries)
    let facts = try streamed.write(to: directory.path("identities.cdid"), deferringSyncsTo: FileSystem.DeferredSyncs())
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory.path("identities.cdid"))))
    #expect(bytes == held.encoded())
    #expect(facts.bytes == Int64(bytes.count))
    #expect(try IdentityDetails(decoding: bytes) == held)
  }

  @Test func everyDamageIsFound() throws {
    let details = IdentityDetails.of(
      sources: [0, 0, 1], profileOfSource: { .init(category: $0 == 0 ? .person : .unspecified) }, version: 1,
      snapshotDigest: Self.digest)
    let bytes = details.encoded()
    for index in bytes.indices {
      var damaged = bytes
      damaged[index] ^= 0x40
      #expect(throws: IdentityDetailsError.self) { try IdentityDetails(decoding: damaged) }
    }
    for length in 0..<bytes.count {
      #expect(throws: IdentityDetailsError.self) { try IdentityDetails(decoding: Array(bytes.prefix(length))) }
    }
  }

  @Test func iconsMustBeHEIC() throws {
    var heic: [UInt8] = [0, 0, 0, 24] + Array("ftypmif1".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)
    heic += [UInt8](repeating: 1, count: 100)
    #expect(try IdentityIcon(bytes: heic).sha256.count == 32)
    var png: [UInt8] = [0x89] + Array("PNG\r\n\u{1A}\n".utf8)
    png += [UInt8](repeating: 0, count: 40)
    #expect(throws: IdentityIconError.notHEIC) { try IdentityIcon(bytes: png) }
    var avif: [UInt8] = [0, 0, 0, 20] + Array("ftypavif".utf8) + [0, 0, 0, 0] + Array("avif".utf8)
    avif += [UInt8](repeating: 0, count: 20)
    #expect(throws: IdentityIconError.notHEIC) { try IdentityIcon(bytes: avif) }
    #expect(throws: IdentityIconError.empty) { try IdentityIcon(bytes: []) }
    #expect(throws: IdentityIconError.tooLarge(64_001)) { try IdentityIcon(bytes: heic + [UInt8](repeating: 0, count: 64_001 - heic.count)) }
  }
}
