import Testing
@testable import CallDirectoryFormat
import FormatFixtures

/// Damaged blobs must throw a `BlobError` or read cleanly; never trap, never hang.
@Suite struct CorruptionTests {
  /// Small valid blobs covering every block kind, labels and a delta.
  static let samples: [[UInt8]] = {
    var rng = SplitMix64(seed: 99)
    var numbers = [Int64]()
    var next: Int64 = 18_000_000_000
    for round in 0..<12 {
      for _ in 0..<(40 + Int(rng.next(below: 200))) {
        next += round % 3 == 0 ? 1 : (round % 3 == 1 ? 1 + Int64(rng.next(below: 3)) : 1 + Int64(rng.next(below: 90_000)))
        numbers.append(next)
      }
    }
    let labels = ["Spam", "🚫 démarchage", "Bank ✅"]
    let entries = DatasetShapes.labelled(Array(numbers.prefix(900)), labelCount: 3, seed: 1)
    let full = (try? encodeFull(blocking: numbers, identification: entries, labels: labels)) ?? []
    let base = Snapshot(version: 1, blocking: Array(numbers.prefix(500)))
    let target = Snapshot(
      version: 2, blocking: Array(numbers.dropFirst(100).prefix(600)),
      identification: entries.prefix(50).map { IdentificationEntry(number: $0.number, label: labels[Int($0.label)]) })
    let delta = (try? SnapshotDelta(from: base, to: target).encoded()) ?? []
    // The same blobs in format version 1, which readers still accept.
    let versionOne = [full, delta].map { (try? BlobSurgery.downgradeToVersion1($0)) ?? [] }
    return [full, delta] + versionOne
  }()

  @Test func samplesAreValid() throws {
    for sample in CorruptionTests.samples {
      #expect(!sample.isEmpty)
      try exercise(sample)
    }
  }

  @Test func everyTruncationThrows() throws {
    for sample in CorruptionTests.samples {
      for length in 0..<sample.count {
        let cut = Array(sample[0..<length])
        #expect(throws: BlobError.self) { try exercise(cut) }
      }
      // Trailing garbage is rejected too.
      #expect(throws: BlobError.self) { try exercise(sample + [0]) }
    }
  }

  @Test func truncationNamesTheSection() throws {
    guard let sample = CorruptionTests.samples.first else { return }
    let header = try BlobReader.readHeader(bytes: sample)
    #expect(throws: BlobError.truncated(section: .header)) { _ = try BlobReader(bytes: Array(sample[0..<20])) }
    for info in header.sections where info.length > 0 {
      let cut = Array(sample[0..<Int(info.offset + info.length - 1)])
      #expect(throws: BlobError.truncated(section: info.section)) { _ = try BlobReader(bytes: cut) }
    }
  }

  /// Every single-byte change is caught by a checksum (CRC-32C detects all
  /// burst errors up to 32 bits), so `verify` must throw each time.
  @Test func everyByteFlipIsDetected() throws {
    var rng = SplitMix64(seed: 2024)
    for sample in CorruptionTests.samples {
      for offset in 0..<sample.count {
        var damaged = sample
        damaged[offset] ^= UInt8(1 + rng.next(below: 255))
        #expect(throws: BlobError.self, "offset \(offset)") { try exercise(damaged) }
      }
    }
  }

  /// Multi-byte random damage: every byte is under a checksum, so damage
  /// throws a `BlobError` (and bytes that happen not to change read cleanly).
  @Test func randomDamageThrowsABlobError() throws {
    var rng = SplitMix64(seed: 7)
    for sample in CorruptionTests.samples {
      for trial in 0..<1500 {
        var damaged = sample
        for _ in 0..<(1 + Int(rng.next(below: 8))) {
          damaged[Int(rng.next(below: UInt64(damaged.count)))] = UInt8(truncatingIfNeeded: rng.next())
        }
        if damaged == sample {
          try exercise(damaged)
        } else {
          #expect(throws: BlobError.self, "trial \(trial)") { try exercise(damaged) }
        }
      }
    }
  }

  /// Hostile input: damage, then recompute every checksum so the
  /// structural validators (block headers, bitmaps, Elias–Fano bits, label
  /// ids, offsets, UTF-8) must catch it. Throws or reads cleanly; when it
  /// reads cleanly, every list still comes out strictly ascending and in
  /// range.
  @Test func checksumValidDamageIsContained() throws {
    var rng = SplitMix64(seed: 31337)
    var rejected = 0
    var total = 0
    for sample in CorruptionTests.samples {
      let header = try BlobReader.readHeader(bytes: sample)
      for _ in 0..<800 {
        var damaged = sample
        let offset = header.headerSize + Int(rng.next(below: UInt64(sample.count - header.headerSize)))
        damaged[offset] ^= UInt8(1 + rng.next(below: 255))
        if rng.next(below: 2) == 0 {
          damaged[header.headerSize + Int(rng.next(below: UInt64(sample.count - header.headerSize)))] = UInt8(truncatingIfNeeded: rng.next())
        }
        BlobSurgery.reseal(&damaged)
        total += 1
        do {
          let reader = try BlobReader(bytes: damaged)
          for info in reader.header.sections where info.section.isNumberSection {
            let numbers = try drain(reader.numbers(info.section), chunk: 100)
            #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 })
            #expect(numbers.allSatisfy { $0 >= 1 && $0 <= BlobLimits.maxNumber })
          }
          try exercise(damaged)
        } catch is BlobError {
          rejected += 1
        }
      }
    }
    // Most structural damage is caught (some changes are benign, e.g. a
    // different but valid label id or gap).
    #expect(rejected > total / 3, "rejected \(rejected) of \(total)")
    print("checksum-valid damage: rejected \(rejected) of \(total)")
  }

  /// Label text is checked like the numbers: the first lookup verifies the
  /// label section's checksum, so a flipped bit never reaches a reader.
  @Test func aDamagedLabelSectionFailsTheFirstLookup() throws {
    guard let sample = CorruptionTests.samples.first else { return }
    let header = try BlobReader.readHeader(bytes: sample)
    let info = try #require(header.info(.labels))
    for offset in [Int(info.offset), Int(info.offset + info.length) - 1] {
      var damaged = sample
      damaged[offset] ^= 0x01
      let reader = try BlobReader(bytes: damaged)
      #expect(throws: BlobError.checksumMismatch(section: .labels)) { _ = try reader.label(0) }
    }
    #expect(try BlobReader(bytes: sample).label(0).isEmpty == false)
  }

  @Test func headerErrors() throws {
    guard let sample = CorruptionTests.samples.first else { return }
    var magic = sample
    magic[0] = UInt8(ascii: "X")
    #expect(throws: BlobError.badMagic) { _ = try BlobReader(bytes: magic) }
    for unsupported: UInt16 in [0, 3, 0x0102, .max] {
      var version = sample
      BlobSurgery.store(UInt64(unsupported), &version, 4, width: 2)
      #expect(throws: BlobError.unsupportedVersion(unsupported)) { _ = try BlobReader(bytes: version) }
    }
    // A version 2 header relabelled as version 1 announces the wrong length.
    var relabelled = sample
    relabelled[4] = 1
    #expect(throws: BlobError.self) { _ = try BlobReader(bytes: relabelled) }
    var kind = sample
    kind[6] = 9
    #expect(throws: BlobError.checksumMismatch(section: .header)) { _ = try BlobReader(bytes: kind) }
    BlobSurgery.reseal(&kind)
    #expect(throws: BlobError.self) { _ = try BlobReader(bytes: kind) }
    // A version past Int64 (catalog rows, manifests, JSON) is no version.
    var huge = sample
    BlobSurgery.store(UInt64(Int64.max) + 1, &huge, 24, width: 8)
    let headerLength = Int(BlobSurgery.load(huge, 8, width: 4))
    BlobSurgery.store(UInt64(CRC32C.checksum(huge[0..<(headerLength - 4)])), &huge, headerLength - 4, width: 4)
    #expect(throws: BlobError.corrupt("version 9223372036854775808 is above 2^63 - 1")) { _ = try BlobReader(bytes: huge) }
    #expect(throws: BlobError.truncated(section: .header)) { _ = try BlobReader(bytes: []) }
    #expect(throws: BlobError.badMagic) { _ = try BlobReader(bytes: Array("PK\u{3}\u{4}hello world, not a blob".utf8)) }
  }
}
