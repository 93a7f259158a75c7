import Testing
@testable import CallDirectoryFormat
import FormatFixtures

/// A named list of blocking numbers for parameterized round trips.
struct NumberCase: CustomTestStringConvertible, Sendable {
  var name: String
  var numbers: [Int64]
  var testDescription: String { name }

  static let all: [NumberCase] = {
    let max = BlobLimits.maxNumber
    var cases = [
      NumberCase(name: "empty", numbers: []),
      NumberCase(name: "single 1", numbers: [1]),
      NumberCase(name: "single max", numbers: [max]),
      NumberCase(name: "two extremes", numbers: [1, max]),
      NumberCase(name: "top run", numbers: Array((max - 99)...max)),
      NumberCase(name: "top scattered", numbers: [max - 1_000_000_000, max - 77, max - 3, max]),
      NumberCase(name: "short run", numbers: Array(18_005_551_200...18_005_551_210)),
      NumberCase(name: "long run", numbers: Array(33_162_000_000...33_162_099_999)),
    ]
    // Dense (bitmap territory): ~70% of a range.
    var rng = SplitMix64(seed: 11)
    var dense = [Int64]()
    for number in Int64(4_915_100_000_000)...4_915_100_020_000 where rng.next(below: 10) < 7 {
      dense.append(number)
    }
    cases.append(NumberCase(name: "dense bitmap", numbers: dense))
    // Alternating dense/sparse with embedded runs.
    var mixed = [Int64]()
    var next: Int64 = 10_000_000_000
    for round in 0..<40 {
      let kind = round % 4
      for _ in 0..<(200 + Int(rng.next(below: 3000))) {
        switch kind {
        case 0: next += 1
        case 1: next += 1 + Int64(rng.next(below: 3))
        case 2: next += 1 + Int64(rng.next(below: 5000))
        default: next += 1 + Int64(rng.next(below: 1 << 40))
        }
        mixed.append(next)
      }
    }
    cases.append(NumberCase(name: "mixed regimes", numbers: mixed))
    cases.append(NumberCase(name: "uniform 63-bit", numbers: randomNumbers(count: 5000, below: UInt64(max), seed: 5)))
    cases.append(NumberCase(name: "frame spill", numbers: randomNumbers(count: 120_000, below: 1 << 36, seed: 6)))
    // Runs of exactly threshold-1, threshold and threshold+1 amid scatter.
    var edges = [Int64]()
    var base: Int64 = 1_000
    for length in [63, 64, 65, 1, 2, 128, 63] {
      edges.append(contentsOf: base..<(base + Int64(length)))
      base += Int64(length) + 1 + Int64(rng.next(below: 1000))
    }
    cases.append(NumberCase(name: "run thresholds", numbers: edges))
    return cases
  }()
}

@Suite struct RoundTripTests {
  @Test(arguments: NumberCase.all)
  func blockingRoundTrip(_ testCase: NumberCase) throws {
    for useRanges in [false, true] {
      let bytes = try encodeFull(blocking: testCase.numbers, useRanges: useRanges)
      let reader = try BlobReader(bytes: bytes)
      #expect(reader.header.entryCount(.blocking) == UInt64(testCase.numbers.count))
      for chunk in [1, 7, 2048, 5000] {
        #expect(try drain(reader.blocking(), chunk: chunk) == testCase.numbers)
      }
      let iterator = try reader.blocking()
      var single = [Int64]()
      while let number = try iterator.next() { single.append(number) }
      #expect(single == testCase.numbers)
      let verification = try reader.verify()
      #expect(verification.digestVerified)
      #expect(reader.header.contentDigest == (try Snapshot(blocking: testCase.numbers).contentDigest()))
    }
  }

  @Test func rangeAndSingleAppendsGiveIdenticalBytes() throws {
    for testCase in NumberCase.all {
      let single = try encodeFull(blocking: testCase.numbers, useRanges: false)
      let ranged = try encodeFull(blocking: testCase.numbers, useRanges: true)
      #expect(single == ranged, "\(testCase.name)")
    }
  }

  @Test func identificationWithLabels() throws {
    let labels = ["Telemarketing", "🚫 démarchage", "⚠️ Possible scam", "✅ Bank", "", "日本語ラベル"]
    let numbers = randomNumbers(count: 20_000, below: 1 << 34, seed: 21)
      + Array(Int64(1 << 35)...Int64(1 << 35) + 500)
    let entries = DatasetShapes.labelled(numbers, labelCount: labels.count, seed: 4)
    let bytes = try encodeFull(blocking: [5, 6, 7], identification: entries, labels: labels)
    let reader = try BlobReader(bytes: bytes)
    #expect(reader.labelCount == labels.count)
    for chunk in [1, 100, 4096] {
      let decoded = try drain(reader.identification(), chunk: chunk)
      #expect(decoded.map(\.number) == entries.map(\.number))
      #expect(decoded.map(\.label) == entries.map(\.label))
    }
    #expect(try drain(reader.numbers(.identification)) == entries.map(\.number))
    for (index, label) in labels.enumerated() {
      #expect(try reader.label(UInt32(index)) == label)
    }
    try reader.verify()
    let snapshot = try reader.readSnapshot()
    #expect(snapshot.identification.count == entries.count)
    #expect(snapshot.identification.first?.label == labels[Int(entries[0].label)])
  }

  @Test func identificationRunsSplitOnLabelChange() throws {
    // 300 consecutive numbers, label changes at 100 and 250.
    let entries = (0..<300).map { index -> (number: Int64, label: UInt32) in
      (Int64(44_200_000_000 + index), index < 100 ? 0 : (index < 250 ? 1 : 0))
    }
    let bytes = try encodeFull(blocking: [], identification: entries, labels: ["a", "b"])
    let decoded = try drain(BlobReader(bytes: bytes).identification())
    #expect(decoded.map(\.number) == entries.map(\.number))
    #expect(decoded.map(\.label) == entries.map(\.label))
    // Three run blocks in one frame: tiny after the header (the 14-byte
    // label section, a 24-byte frame header and 18 bytes of blocks).
    let header = try BlobReader.readHeader(bytes: bytes)
    #expect(bytes.count - header.headerSize == 56)
  }

  @Test func snapshotValueRoundTrip() throws {
    let snapshot = Snapshot(
      version: 7,
      blocking: [1, 2, 3, 18_005_551_234, BlobLimits.maxNumber],
      identification: [
        IdentificationEntry(number: 33_612_345_678, label: "🚫 démarchage"),
        IdentificationEntry(number: 33_612_345_679, label: "caf\u{E9}"),
        IdentificationEntry(number: 33_612_345_680, label: "cafe\u{301}"),
      ])
    let decoded = try Snapshot(blob: snapshot.encoded())
    #expect(decoded == snapshot)
    // Canonically equivalent but byte-different labels stay distinct.
    let reader = try BlobReader(bytes: snapshot.encoded())
    #expect(reader.labelCount == 3)
    #expect(Array(decoded.identification[1].label.utf8) != Array(decoded.identification[2].label.utf8))
    #expect(try decoded.contentDigest() == reader.header.contentDigest)
  }

  @Test func emptySnapshot() throws {
    let bytes = try Snapshot(version: 3).encoded()
    let reader = try BlobReader(bytes: bytes)
    #expect(reader.header.contentDigest == ContentDigest.empty)
    #expect(reader.header.version == 3)
    #expect(try reader.blocking().next() == nil)
    #expect(try reader.identification().next() == nil)
    #expect(try reader.verify().digestVerified)
    #expect(bytes.count == reader.header.headerSize + 4)
  }

  @Test func labelsSetAfterBlocking() throws {
    let sink = MemoryBlobSink()
    let writer = try FullSnapshotWriter(sink: sink, version: 2)
    try writer.appendBlocking(10)
    try writer.setLabels(["x"])
    try writer.appendIdentification(11, labelID: 0)
    try writer.finish()
    let snapshot = try Snapshot(blob: sink.bytes)
    #expect(snapshot.blocking == [10])
    #expect(snapshot.identification == [IdentificationEntry(number: 11, label: "x")])
  }
}
