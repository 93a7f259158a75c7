import Foundation
import Testing
@testable import CallDirectoryFormat

/// The entries of the committed version 1 fixtures, `Fixtures/version1-*.cdir`,
/// which the format version 1 writer produced from exactly this code (it is
/// self-contained, so the fixtures stay valid whatever else changes).
enum VersionOneFixture {
  static let labels = ["Bank ✅", "Spam", "", "🚫 démarchage"]

  /// Runs, dense stretches (bitmaps), scattered numbers (Elias–Fano) and a
  /// number at each end of the range.
  static func blocking() -> [Int64] {
    var random = Mixer(state: 0x5EED_0001)
    var numbers: [Int64] = [1]
    var value: Int64 = 18_005_550_000
    for round in 0..<24 {
      let length = 40 + Int(random.next() % 120)
      for _ in 0..<length {
        switch round % 4 {
        case 0: value += 1
        case 1: value += 1 + Int64(random.next() % 4)
        case 2: value += 1 + Int64(random.next() % 50_000)
        default: value += 1 + Int64(random.next() % 40_000_000_000)
        }
        numbers.append(value)
      }
    }
    numbers.append(BlobLimits.maxNumber)
    return numbers
  }

  /// Every third blocking number from the second on, labelled in streaks.
  static func identification() -> [(number: Int64, label: UInt32)] {
    var random = Mixer(state: 0x5EED_0002)
    var out: [(number: Int64, label: UInt32)] = []
    var label: UInt32 = 0
    for (index, number) in blocking().enumerated() where index % 3 == 1 && number < BlobLimits.maxNumber {
      if random.next() % 5 == 0 { label = UInt32(random.next() % UInt64(labels.count)) }
      out.append((number, label))
    }
    let runStart = (out.last?.number ?? 0) + 1000
    out.append(contentsOf: (0..<100).map { (runStart + Int64($0), 1) })
    return out
  }

  static func snapshot() -> Snapshot {
    Snapshot(
      version: 9, blocking: blocking(),
      identification: identification().map { IdentificationEntry(number: $0.number, label: labels[Int($0.label)]) })
  }

  /// A delta from version 8 (a part of the lists) to version 9.
  static func delta() throws -> SnapshotDelta {
    let target = snapshot()
    let base = Snapshot(
      version: 8,
      blocking: target.blocking.enumerated().filter { $0.offset % 5 != 0 }.map(\.element) + [BlobLimits.maxNumber - 1],
      identification: target.identification.enumerated().filter { $0.offset % 4 != 0 }.map {
        IdentificationEntry(number: $0.element.number, label: $0.offset % 7 == 0 ? "Old" : $0.element.label)
      })
    let sortedBase = Snapshot(version: 8, blocking: base.blocking.sorted(), identification: base.identification)
    return try SnapshotDelta(from: sortedBase, to: target)
  }

  /// SplitMix64, inlined.
  struct Mixer {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }
}

/// Format version 1 blobs, written by the version 1 writer, still read,
/// verify and decode to the same entries.
@Suite struct VersionOneTests {
  static func fixture(_ name: String) throws -> [UInt8] {
    let url = try #require(Bundle.module.url(forResource: name, withExtension: "cdir", subdirectory: "Fixtures"))
    return Array(try Data(contentsOf: url))
  }

  @Test func fullSnapshotFixtureReads() throws {
    let bytes = try Self.fixture("version1-full")
    let reader = try BlobReader(bytes: bytes)
    #expect(reader.header.formatVersion == 1)
    #expect(reader.header.dataset == "")
    #expect(reader.header.headerSize == 104 + 3 * 32 + 4)
    #expect(try reader.verify().digestVerified)
    let expected = VersionOneFixture.snapshot()
    #expect(try reader.readSnapshot() == expected)
    #expect(reader.header.contentDigest == (try expected.contentDigest()))
    #expect(try drain(reader.numbers(.blocking), chunk: 7) == expected.blocking)
  }

  @Test func deltaFixtureReads() throws {
    let bytes = try Self.fixture("version1-delta")
    let reader = try BlobReader(bytes: bytes)
    #expect(reader.header.formatVersion == 1)
    #expect(reader.header.kind == .delta)
    try reader.verify()
    #expect(try reader.readDelta() == VersionOneFixture.delta())
  }

  /// The version 2 writer codes the blocks exactly as version 1 did: only
  /// the header and the frame headers differ, and rewriting them gives the
  /// version 1 writer's bytes back. (This also validates
  /// ``BlobSurgery/downgradeToVersion1(_:)``, which other tests use to get
  /// version 1 blobs of any size.)
  @Test func versionTwoDiffersOnlyInHeaders() throws {
    let full = try VersionOneFixture.snapshot().encoded()
    let delta = try VersionOneFixture.delta().encoded()
    let fixture = try Self.fixture("version1-full")
    #expect(try BlobReader.readHeader(bytes: full).formatVersion == 2)
    #expect(try BlobSurgery.downgradeToVersion1(full) == fixture)
    #expect(try BlobSurgery.downgradeToVersion1(delta) == Self.fixture("version1-delta"))
    let v1 = try BlobReader.readHeader(bytes: fixture)
    let v2 = try BlobReader.readHeader(bytes: full)
    #expect(v2.contentDigest == v1.contentDigest)
    #expect(v2.sections.map(\.entryCount) == v1.sections.map(\.entryCount))
    // 64 bytes of dataset identifier, and 8 bytes per frame.
    let frames = v1.sections.filter(\.section.isNumberSection)
      .map { BlobSurgery.frames(fixture, $0, formatVersion: 1).count }
      .reduce(0, +)
    #expect(frames == 2)
    #expect(full.count == fixture.count + 64 + 8 * frames)
  }

  @Test func largeVersionOneBlobsRead() throws {
    let numbers = randomNumbers(count: 150_000, below: 1 << 40, seed: 17)
    let v1 = try BlobSurgery.downgradeToVersion1(encodeFull(blocking: numbers))
    let reader = try BlobReader(bytes: v1)
    #expect(reader.header.formatVersion == 1)
    #expect(BlobSurgery.frames(v1, try #require(reader.header.info(.blocking)), formatVersion: 1).count > 2)
    #expect(try drain(reader.blocking()) == numbers)
    #expect(try reader.verify().digestVerified)
  }
}
