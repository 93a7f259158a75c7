import Testing
@testable import CallDirectoryFormat
import FormatFixtures

/// Lookups in damaged blobs throw `BlobError` or give the right answer;
/// they never trap, and never answer wrongly for damage a checksum covers.
@Suite struct LookupCorruptionTests {
  static let entries = LookupDataset.entries(cycles: 40, seed: 5)
  static let sample: [UInt8] = (try? entries.encoded()) ?? []
  static let blocked = Set(entries.blocking)
  static let labels: [Int64: String] = Dictionary(
    uniqueKeysWithValues: entries.identification.map { ($0.number, LookupDataset.labels[Int($0.label)]) })

  /// The blocking section's frames in `bytes`.
  static func frames(_ bytes: [UInt8]) throws -> [BlobSurgery.Frame] {
    let header = try BlobReader.readHeader(bytes: bytes)
    return BlobSurgery.frames(bytes, try #require(header.info(.blocking)), formatVersion: header.formatVersion)
  }

  /// The first and last blocking numbers of each frame.
  static let frameBounds: [(first: Int64, last: Int64)] = {
    guard let frames = try? BlobLookup(reader: BlobReader(bytes: sample))._index(.blocking).frames else { return [] }
    var bounds = [(first: Int64, last: Int64)]()
    var position = 0
    for frame in frames {
      let count = Int(frame.entryCount)
      bounds.append((entries.blocking[position], entries.blocking[position + count - 1]))
      position += count
    }
    return bounds
  }()

  enum Outcome: Equatable {
    case answer(Bool)
    case error
  }

  /// Looks each number up on its own (so one error hides no other answer)
  /// in a fresh lookup of `bytes`.
  static func outcomes(_ bytes: [UInt8], _ numbers: [Int64]) -> [Outcome] {
    guard let reader = try? BlobReader(bytes: bytes) else { return numbers.map { _ in .error } }
    let lookup = BlobLookup(reader: reader)
    return numbers.map { number in
      do {
        return .answer(try lookup.containsBlocking(number))
      } catch is BlobError {
        return .error
      } catch {
        Issue.record("unexpected error \(error)")
        return .error
      }
    }
  }

  /// Probes around frame `k`: its bounds, its base's neighbours, and the
  /// frames next to it.
  static func probes(aroundFrame k: Int) -> [Int64] {
    var numbers = [Int64]()
    for index in max(0, k - 1)...min(frameBounds.count - 1, k + 1) {
      let (first, last) = frameBounds[index]
      numbers += [first - 1, first, (first + last) / 2, last, last + 1]
    }
    return numbers
  }

  @Test func sampleHasManyFrames() throws {
    #expect(Self.frameBounds.count >= 5)
    #expect(Self.outcomes(Self.sample, Self.probes(aroundFrame: 2)).allSatisfy { $0 != .error })
  }

  /// Any single damaged byte of a frame header: the frame's numbers can no
  /// longer be looked up, and no lookup anywhere answers wrongly.
  @Test func frameHeaderDamageIsDetected() throws {
    var rng = SplitMix64(seed: 12)
    let frames = try Self.frames(Self.sample)
    for k in [0, 1, frames.count / 2, frames.count - 1] {
      for byte in 0..<frames[k].headerSize {
        var damaged = Self.sample
        damaged[frames[k].offset + byte] ^= UInt8(1 + rng.next(below: 255))
        let probes = Self.probes(aroundFrame: k)
        let outcomes = Self.outcomes(damaged, probes)
        for (number, outcome) in zip(probes, outcomes) where outcome != .error {
          #expect(outcome == .answer(Self.blocked.contains(number)), "frame \(k) byte \(byte): \(number)")
        }
        let (first, last) = Self.frameBounds[k]
        #expect(Self.outcomes(damaged, [first, last]) == [.error, .error], "frame \(k) byte \(byte)")
      }
    }
  }

  /// Damage inside one frame's payload fails the lookups routed to that
  /// frame (its CRC); the other frames still answer correctly.
  @Test func payloadDamageStaysInItsFrame() throws {
    var rng = SplitMix64(seed: 13)
    let frames = try Self.frames(Self.sample)
    for k in [0, 2, frames.count - 1] {
      for _ in 0..<8 {
        var damaged = Self.sample
        let at = frames[k].offset + frames[k].headerSize + Int(rng.next(below: UInt64(frames[k].payloadLength)))
        damaged[at] ^= UInt8(1 + rng.next(below: 255))
        let (first, last) = Self.frameBounds[k]
        #expect(Self.outcomes(damaged, [first, (first + last) / 2, last]) == [.error, .error, .error])
        for other in frames.indices where other != k {
          let (otherFirst, otherLast) = Self.frameBounds[other]
          let probes = [otherFirst, otherFirst + 1, otherLast]
          #expect(Self.outcomes(damaged, probes) == probes.map { .answer(Self.blocked.contains($0)) })
        }
      }
    }
  }

  /// Frame headers that are wrong but carry valid checksums.
  struct HeaderEdit: CustomTestStringConvertible, Sendable {
    var name: String
    /// Changes the frame headers of the blocking section (`frames`).
    var edit: @Sendable (inout [UInt8], [BlobSurgery.Frame]) -> Void
    /// The frames whose lookups must fail.
    var failingFrames: @Sendable (Int) -> [Int]
    var testDescription: String { name }

    static func field(_ bytes: inout [UInt8], _ frame: BlobSurgery.Frame, _ at: Int, _ width: Int, _ change: (UInt64) -> UInt64) {
      let value = BlobSurgery.load(bytes, frame.offset + at, width: width)
      BlobSurgery.store(change(value), &bytes, frame.offset + at, width: width)
    }

    static let all: [HeaderEdit] = [
      HeaderEdit(name: "base not increasing", edit: { bytes, frames in
        let previous = BlobSurgery.load(bytes, frames[1].offset + 16, width: 8)
        field(&bytes, frames[2], 16, 8) { _ in previous }
      }, failingFrames: { Array(0..<$0) }),
      HeaderEdit(name: "first base not zero", edit: { bytes, frames in
        field(&bytes, frames[0], 16, 8) { _ in 5 }
      }, failingFrames: { Array(0..<$0) }),
      HeaderEdit(name: "base beyond the last number", edit: { bytes, frames in
        field(&bytes, frames[3], 16, 8) { _ in UInt64(BlobLimits.maxNumber) }
      }, failingFrames: { Array(0..<$0) }),
      HeaderEdit(name: "base shifted up", edit: { bytes, frames in
        field(&bytes, frames[3], 16, 8) { $0 + 1 }
      }, failingFrames: { _ in [2, 3] }),
      HeaderEdit(name: "base shifted down", edit: { bytes, frames in
        field(&bytes, frames[3], 16, 8) { $0 - 1 }
      }, failingFrames: { _ in [2, 3] }),
      HeaderEdit(name: "counts exceed the section's", edit: { bytes, frames in
        field(&bytes, frames[1], 8, 8) { $0 + 1 }
      }, failingFrames: { Array(0..<$0) }),
      HeaderEdit(name: "counts fall short of the section's", edit: { bytes, frames in
        field(&bytes, frames[1], 8, 8) { $0 - 1 }
      }, failingFrames: { Array(0..<$0) }),
      HeaderEdit(name: "count moved between frames", edit: { bytes, frames in
        field(&bytes, frames[1], 8, 8) { $0 + 1 }
        field(&bytes, frames[2], 8, 8) { $0 - 1 }
      }, failingFrames: { _ in [1, 2] }),
      HeaderEdit(name: "payload length zero", edit: { bytes, frames in
        field(&bytes, frames[1], 4, 4) { _ in 0 }
      }, failingFrames: { Array(0..<$0) }),
      HeaderEdit(name: "payload length too large", edit: { bytes, frames in
        field(&bytes, frames[1], 4, 4) { _ in 65_537 }
      }, failingFrames: { Array(0..<$0) }),
      HeaderEdit(name: "payload length off by one", edit: { bytes, frames in
        field(&bytes, frames[1], 4, 4) { $0 - 1 }
      }, failingFrames: { _ in [1] }),
    ]
  }

  @Test(arguments: HeaderEdit.all)
  func checksumValidHeaderDamage(_ edit: HeaderEdit) throws {
    var damaged = Self.sample
    edit.edit(&damaged, try Self.frames(Self.sample))
    BlobSurgery.reseal(&damaged)
    // The sequential reader rejects it.
    #expect(throws: BlobError.self) { try BlobReader(bytes: damaged).verify() }
    // Lookups in the named frames fail; the others throw or answer right.
    let frameCount = Self.frameBounds.count
    let failing = Set(edit.failingFrames(frameCount))
    for k in 0..<frameCount {
      let (first, last) = Self.frameBounds[k]
      let outcomes = Self.outcomes(damaged, [first, last])
      if failing.contains(k) {
        #expect(outcomes.contains(.error), "frame \(k)")
      } else {
        #expect(outcomes.allSatisfy { $0 == .error || $0 == .answer(true) }, "frame \(k)")
      }
    }
  }

  /// Random damage anywhere, with or without resealed checksums, in both
  /// format versions: lookups throw or answer, never trap; without
  /// resealing, every answer is right.
  @Test(arguments: FormatVersionCase.all)
  func randomDamageNeverTraps(_ format: FormatVersionCase) throws {
    var rng = SplitMix64(seed: 99)
    let sample = try format.blob(Self.sample)
    let queries = Array(Self.frameBounds.flatMap { [$0.first - 1, $0.first, $0.last, $0.last + 1] }.prefix(24))
    for round in 0..<120 {
      var damaged = sample
      for _ in 0..<(1 + Int(rng.next(below: 4))) {
        damaged[Int(rng.next(below: UInt64(damaged.count)))] = UInt8(truncatingIfNeeded: rng.next())
      }
      let resealed = round % 2 == 1
      if resealed { BlobSurgery.reseal(&damaged) }
      guard let reader = try? BlobReader(bytes: damaged) else { continue }
      let lookup = BlobLookup(reader: reader)
      if let answers = try? lookup.containsBlocking(queries), !resealed {
        #expect(answers == queries.map { Self.blocked.contains($0) }, "round \(round)")
      }
      _ = try? lookup.labelIDs(for: queries, in: .identification)
      if let texts = try? lookup.identificationLabels(for: queries), !resealed {
        #expect(texts == queries.map { Self.labels[$0] }, "round \(round)")
      }
    }
  }
}
