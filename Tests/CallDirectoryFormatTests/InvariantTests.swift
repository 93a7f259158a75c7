import FormatFixtures
import Testing

@testable import CallDirectoryFormat

/// The invariants the format's structures check in debug builds (which
/// the tests run): a number section's writer and reader keep their
/// numbers strictly ascending and above what went before, and a delta
/// joins its base to its target. Every path that builds them passes its
/// checks, and a check that finds its invariant broken stops the process.
@Suite struct InvariantTests {
  /// Shaped numbers through every way of appending them (one by one,
  /// ranges, buffers, ascending slices hashed aside or not) and labelled
  /// entries: each writer checks itself after every append and every
  /// block it sends out, the reader every number it returns, and what
  /// comes back is what went in.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func everyWritingPathKeepsTheSectionInvariants(seed: UInt64) throws {
    let numbers = BulkWriterAgreementTests.shapedNumbers(seed: seed)
    var identification: [(number: Int64, label: UInt32)] = []
    for (index, number) in numbers.enumerated() where index % 3 == 0 {
      identification.append((number, UInt32(index % 5)))
    }
    let labels = ["a", "b", "c", "d", "e"]
    var blobs: [[UInt8]] = []
    blobs.append(try encodeFull(blocking: numbers, identification: identification, labels: labels))
    blobs.append(try encodeFull(blocking: numbers, identification: identification, labels: labels, useRanges: true))
    for mode in 0..<3 {
      let sink = MemoryBlobSink()
      let writer = try FullSnapshotWriter(sink: sink, version: 1, labels: labels)
      try numbers.withUnsafeBufferPointer { all in
        var start = 0
        var size = 1
        while start < all.count {
          let slice = UnsafeBufferPointer(rebasing: all[start..<min(all.count, start + size)])
          switch mode {
          case 0: try writer.appendBlocking(contentsOf: slice)
          case 1: try writer.appendBlocking(ascending: slice, hashingAside: true)
          default: try writer.appendBlocking(ascending: slice, hashingAside: false)
          }
          start += slice.count
          size = size * 3 % 70_001 + 1
        }
      }
      for entry in identification { try writer.appendIdentification(entry.number, labelID: entry.label) }
      try writer.finish()
      blobs.append(sink.bytes)
    }
    for bytes in blobs {
      #expect(bytes == blobs[0])
      let reader = try BlobReader(bytes: bytes)
      #expect(try drain(reader.blocking()) == numbers)
      let entries = try drain(reader.identification())
      #expect(entries.map(\.number) == identification.map(\.number))
      #expect(entries.map(\.label) == identification.map(\.label))
    }
  }

  /// A delta between two snapshots checks that it turns the one into the
  /// other; so does the blob written from it, read back.
  @Test func deltasJoinTheirBaseAndTarget() throws {
    let base = Snapshot(
      version: 1, blocking: randomNumbers(count: 5000, below: 1 << 30, seed: 7),
      identification: [IdentificationEntry(number: 5, label: "x"), IdentificationEntry(number: 9, label: "y")])
    var next = Set(base.blocking.enumerated().filter { $0.offset % 4 != 0 }.map(\.element))
    next.formUnion(randomNumbers(count: 2000, below: 1 << 30, seed: 8))
    let target = Snapshot(
      version: 2, blocking: next.sorted(),
      identification: [IdentificationEntry(number: 5, label: "z"), IdentificationEntry(number: 11, label: "y")])
    let delta = try SnapshotDelta(from: base, to: target)
    #expect(!delta.isEmpty)
    #expect(try base.applying(delta) == target)
    #expect(delta.identificationRemoves == [5, 9])
    #expect(delta.identificationAdds.map(\.number) == [5, 11])
  }

  /// A block that does not ascend is caught before it is encoded.
  @Test func aBlockOutOfOrderStopsTheWriter() async {
    await #expect(processExitsWith: .failure) {
      let writer = _NumberSectionWriter(section: .blocking, sink: MemoryBlobSink())
      let values: [UInt64] = [10, 30, 20]
      values.withUnsafeBufferPointer { writer._checkBlock($0.baseAddress!, count: $0.count) }
    }
  }

  /// A delta whose changes do not turn its base into its target is caught.
  @Test func aDeltaThatDoesNotJoinItsSnapshotsIsCaught() async {
    await #expect(processExitsWith: .failure) {
      let base = Snapshot(version: 1, blocking: [1, 2, 3])
      let target = Snapshot(version: 2, blocking: [1, 2, 4])
      let digest = ContentDigestBuilder().finalize()
      let wrong = SnapshotDelta(
        baseVersion: 1, baseDigest: digest, targetVersion: 2, targetDigest: digest, blockingRemoves: [3],
        blockingAdds: [5])
      wrong._checkInvariants(base: base, target: target)
    }
  }
}
