import CallDirectoryFormat
import CalldirSystem
import FormatFixtures
import Foundation
import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectoryFormat

/// The differ on damaged blobs (an error mid-stream must end the merge
/// cleanly: no crash, nothing left running, no file written) and on huge
/// runs (the merge goes run by run).
@Suite struct SnapshotDifferRobustnessTests {
  /// Scattered numbers spanning many frames and several prefetch batches.
  static let numbers: [Int64] = {
    var rng = SplitMix64(seed: 99)
    var next: Int64 = 10_000_000_000
    return (0..<300_000).map { _ in
      next += Int64(rng.next(below: 5_000)) + 1
      return next
    }
  }()

  static func blob(dropping drop: Int? = nil) throws -> [UInt8] {
    let sink = MemoryBlobSink()
    let writer = try FullSnapshotWriter(sink: sink, version: drop == nil ? 1 : 2, labels: ["Bank"])
    for (index, number) in numbers.enumerated() where index != drop { try writer.appendBlocking(number) }
    try writer.appendIdentification(90_000_000_000, labelID: 0)
    try writer.finish()
    return sink.bytes
  }

  /// How a blob is damaged.
  enum Damage: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case truncated, flippedPayloadBit, badFrameChecksum
    var testDescription: String { rawValue }

    func apply(to bytes: [UInt8]) throws -> [UInt8] {
      let info = try #require(try BlobReader(bytes: bytes).header.info(.blocking))
      var damaged = bytes
      // Two thirds into the blocking section: several frames decode first.
      let target = Int(info.offset) + Int(info.length) * 2 / 3
      switch self {
      case .truncated:
        damaged.removeLast(bytes.count - target)
      case .flippedPayloadBit:
        damaged[target] ^= 0x10
      case .badFrameChecksum:
        // Frames are a 24-byte header (CRC-32C first, then the payload
        // length) and the payload; spoil the CRC of the frame at `target`.
        var frame = Int(info.offset)
        while true {
          let length = (4..<8).reversed().reduce(0) { $0 << 8 | Int(bytes[frame + $1]) }
          let next = frame + 24 + length
          if next > target { break }
          frame = next
        }
        damaged[frame] ^= 0xFF
      }
      return damaged
    }
  }

  private func scratchPath() throws -> (directory: String, delta: String) {
    let directory = try makeTemporaryDirectory()
    return (directory, directory + "/delta.cdir")
  }

  @Test(arguments: Damage.allCases, [false, true])
  func aDamagedBlobIsABlobErrorNotACrash(damage: Damage, damagedIsBase: Bool) throws {
    let intact = try Self.blob()
    let other = try Self.blob(dropping: 1_000)
    let damaged = try damage.apply(to: intact)
    let (directory, path) = try scratchPath()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var failure: BlobError?
    do {
      let old = try BlobReader(bytes: damagedIsBase ? damaged : other)
      let new = try BlobReader(bytes: damagedIsBase ? other : damaged)
      _ = try SnapshotDiffer.writeDelta(from: old, to: new, path: path)
    } catch {
      failure = error
    }
    #expect(failure != nil, "\(damage) went unnoticed")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
  }

  /// Repeated failures mid-merge leave no prefetching job behind (the
  /// crash this guards against came on the first one).
  @Test func manyFailedMergesInARow() throws {
    let damaged = try Damage.flippedPayloadBit.apply(to: try Self.blob())
    let intact = try Self.blob(dropping: 5)
    for _ in 0..<20 {
      #expect(throws: BlobError.self) {
        try SnapshotDiffer.mergeNumbers(
          try BlobReader(bytes: damaged).blocking(), try BlobReader(bytes: intact).blocking(),
          onlyInFirst: { _ in }, onlyInSecond: { _ in })
      }
      #expect(throws: BlobError.self) {
        try SnapshotDiffer.mergeNumbers(
          try BlobReader(bytes: intact).blocking(), try BlobReader(bytes: damaged).blocking(),
          onlyInFirst: { _ in }, onlyInSecond: { _ in })
      }
    }
  }

  /// A closure that fails mid-merge ends it the same way.
  @Test func aFailingConsumerEndsTheMerge() throws {
    let old = try BlobReader(bytes: try Self.blob())
    let new = try BlobReader(bytes: try Self.blob(dropping: 250_000))
    var seen = 0
    #expect(throws: BlobError.misuse("stop")) {
      try SnapshotDiffer.mergeNumbers(
        try old.blocking(), try new.blocking(),
        onlyInFirst: { (_) throws(BlobError) in
          seen += 1
          throw BlobError.misuse("stop")
        }, onlyInSecond: { _ in })
    }
    #expect(seen == 1)
  }

  /// Two snapshots that each hold a 10^9-number range diff run by run:
  /// the ranges are compared as ranges, never expanded.
  @Test func billionNumberRangesDiffAsRanges() throws {
    func blob(_ ranges: [ClosedRange<Int64>], identification: ClosedRange<Int64>, label: String) throws -> [UInt8] {
      let sink = MemoryBlobSink()
      let writer = try FullSnapshotWriter(sink: sink, version: 1, labels: [label])
      for range in ranges { try writer.appendBlocking(range) }
      try writer.appendIdentification(identification, labelID: 0)
      try writer.finish()
      return sink.bytes
    }
    let old = try BlobReader(bytes: try blob(
      [5...5, 10_000_000_000...10_999_999_999], identification: 30_000_000_000...30_000_999_999, label: "A"))
    let new = try BlobReader(bytes: try blob(
      [10_000_000_000...10_499_999_999, 10_500_000_001...11_000_000_099],
      identification: 30_000_000_000...30_001_000_099, label: "B"))
    let (directory, path) = try scratchPath()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let summary = try SnapshotDiffer.writeDelta(from: old, to: new, path: path)
    #expect(summary.blockingRemoved == 2)
    #expect(summary.blockingAdded == 100)
    #expect(summary.relabeled == 1_000_000)
    #expect(summary.identificationRemoved == 1_000_000)
    #expect(summary.identificationAdded == 1_000_100)
    #expect(old._statistics.materializedEntries <= 1)
    #expect(new._statistics.materializedEntries == 0)

    let delta = try BlobReader(path: path)
    func ranges(_ iterator: NumberIterator) throws -> [ClosedRange<Int64>] {
      var out: [ClosedRange<Int64>] = []
      while let chunk = try iterator.nextChunk() {
        switch chunk {
        case .run(let range): out.append(range)
        case .numbers(let numbers): out += numbers.map { $0...$0 }
        }
      }
      return out
    }
    #expect(try ranges(delta.blockingRemoves()) == [5...5, 10_500_000_000...10_500_000_000])
    #expect(try ranges(delta.blockingAdds()) == [11_000_000_000...11_000_000_099])
    #expect(try ranges(delta.identificationRemoves()) == [30_000_000_000...30_000_999_999])
    #expect(delta._statistics.materializedEntries == 2)
  }
}

extension SnapshotDifferRobustnessTests {
  /// Counting changes goes run by run too, and agrees with the delta.
  @Test func countingChangesAgreesWithTheDelta() throws {
    var generator = SplitMix64(seed: 3)
    let oldNumbers = Array(Set((0..<2_000).map { _ in 5_000 + Int64(generator.next(below: 9_000)) })).sorted()
    let newNumbers = Array(Set((0..<2_000).map { _ in 5_000 + Int64(generator.next(below: 9_000)) })).sorted()
    let old = Snapshot(
      version: 1, blocking: oldNumbers + Array(100_000...2_000_000),
      identification: [IdentificationEntry(number: 9, label: "A"), IdentificationEntry(number: 10, label: "B")])
    let new = Snapshot(
      version: 2, blocking: newNumbers + Array(100_001...2_000_100),
      identification: [IdentificationEntry(number: 10, label: "C"), IdentificationEntry(number: 11, label: "C")])
    let counts = try SnapshotDiffer.countChanges(
      from: try BlobReader(bytes: try old.encoded()), to: try BlobReader(bytes: try new.encoded()))
    let delta = try SnapshotDelta(from: old, to: new)
    let relabeled = Set(delta.identificationRemoves).intersection(delta.identificationAdds.map(\.number)).count
    #expect(counts.blockingAdded == delta.blockingAdds.count)
    #expect(counts.blockingRemoved == delta.blockingRemoves.count)
    #expect(counts.identificationAdded == delta.identificationAdds.count - relabeled)
    #expect(counts.identificationRemoved == delta.identificationRemoves.count - relabeled)
  }
}
