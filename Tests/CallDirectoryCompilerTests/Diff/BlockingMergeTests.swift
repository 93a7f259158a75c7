import CallDirectoryFormat
import FormatFixtures
import Testing

@testable import CallDirectoryCompiler

/// The blocking merge on several cores (`BlockingMerge`) finds exactly the
/// numbers the simple set difference finds, whatever the number of
/// stretches, and agrees with the sequential merge.
@Suite struct BlockingMergeTests {
  /// Scattered numbers, runs and dense stretches; `new` drops about 1% of
  /// them, adds about as many, splits some runs and adds one.
  static let snapshots: (old: [Int64], new: [Int64]) = {
    var rng = SplitMix64(seed: 5)
    var old: [Int64] = []
    var next: Int64 = 33_100_000_000
    while old.count < 250_000 {
      if rng.next(below: 2_000) == 0 {
        let length = Int64(100 + rng.next(below: 5_000))
        old += Array(next...(next + length - 1))
        next += length + 1
      } else {
        old.append(next)
        next += 1 + Int64(rng.next(below: rng.next(below: 2) == 0 ? 4 : 300_000))
      }
    }
    var new = old.filter { _ in rng.next(below: 100) != 0 }
    for _ in 0..<(old.count / 100) { new.append(old[Int(rng.next(below: UInt64(old.count)))] + 1) }
    new += Array((next + 10)...(next + 10_000))
    return (old, Array(Set(new)).sorted())
  }()

  static func blob(_ numbers: [Int64], version: UInt64) throws -> [UInt8] {
    let sink = MemoryBlobSink()
    let writer = try FullSnapshotWriter(sink: sink, version: version, labels: [])
    var index = 0
    while index < numbers.count {
      var end = index + 1
      while end < numbers.count && numbers[end] == numbers[end - 1] + 1 { end += 1 }
      try writer.appendBlocking(numbers[index]...numbers[end - 1])
      index = end
    }
    try writer.finish()
    return sink.bytes
  }

  struct Changes: Equatable {
    var removed: [Int64] = []
    var added: [Int64] = []
  }

  static func merged(_ old: [UInt8], _ new: [UInt8], parts: Int) throws -> Changes {
    var changes = Changes()
    try BlockingMerge.merge(
      try BlobReader(bytes: old), try BlobReader(bytes: new), parts: parts, threshold: 0,
      onlyInOld: { changes.removed += Array($0) }, onlyInNew: { changes.added += Array($0) })
    return changes
  }

  @Test(arguments: [1, 2, 3, 8, 64, 1000])
  func stretchesFindTheSetDifference(parts: Int) throws {
    let (oldNumbers, newNumbers) = Self.snapshots
    let expected = Changes(
      removed: Array(Set(oldNumbers).subtracting(newNumbers)).sorted(),
      added: Array(Set(newNumbers).subtracting(oldNumbers)).sorted())
    let old = try Self.blob(oldNumbers, version: 1)
    let new = try Self.blob(newNumbers, version: 2)
    #expect(try Self.merged(old, new, parts: parts) == expected)
    #expect(try Self.merged(new, old, parts: parts) == Changes(removed: expected.added, added: expected.removed))
    #expect(try Self.merged(old, old, parts: parts) == Changes())

    var sequential = Changes()
    try SnapshotDiffer.mergeNumbers(
      try BlobReader(bytes: old).blocking(), try BlobReader(bytes: new).blocking(),
      onlyInFirst: { sequential.removed += Array($0) }, onlyInSecond: { sequential.added += Array($0) })
    #expect(sequential == expected)
  }

  /// Dense blobs changed throughout: a stretch with more changes than a
  /// worker keeps is merged again as it is handed over, and a delta with
  /// more adds than it holds merges twice; the changes and the delta are
  /// those of a merge that keeps everything.
  @Test(arguments: [1, 3, 64])
  func stretchesWithMoreChangesThanAWorkerKeepsAreMergedAgain(parts: Int) throws {
    // Pairs of numbers one apart, shifted by one: every number changes.
    let count = _ChunkMerge.fullCount * 3
    let oldNumbers = (0..<Int64(count)).flatMap { [33_600_000_000 + 3 * $0, 33_600_000_001 + 3 * $0] }
    let newNumbers = oldNumbers.map { $0 + 1 }
    let old = try Self.blob(oldNumbers, version: 1)
    let new = try Self.blob(newNumbers, version: 2)
    let expected = Changes(
      removed: Array(Set(oldNumbers).subtracting(newNumbers)).sorted(),
      added: Array(Set(newNumbers).subtracting(oldNumbers)).sorted())
    #expect(expected.removed.count == count && expected.added.count == count)
    #expect(try Self.merged(old, new, parts: parts) == expected)
    var sequential = Changes()
    try SnapshotDiffer.mergeNumbers(
      try BlobReader(bytes: old).blocking(), try BlobReader(bytes: new).blocking(),
      onlyInFirst: { sequential.removed += Array($0) }, onlyInSecond: { sequential.added += Array($0) })
    #expect(sequential == expected)
  }

  @Test func emptySnapshotsMerge() throws {
    let empty = try Self.blob([], version: 1)
    let some = try Self.blob(Array(Self.snapshots.old.prefix(20_000)), version: 2)
    #expect(try Self.merged(empty, empty, parts: 8) == Changes())
    #expect(try Self.merged(empty, some, parts: 8) == Changes(added: Array(Self.snapshots.old.prefix(20_000))))
    #expect(try Self.merged(some, empty, parts: 8) == Changes(removed: Array(Self.snapshots.old.prefix(20_000))))
  }

  @Test func cutsAreAscendingFrameBasesSharingTheBytes() throws {
    let old = try BlobReader(bytes: try Self.blob(Self.snapshots.old, version: 1)).frames(of: .blocking)
    let new = try BlobReader(bytes: try Self.blob(Self.snapshots.new, version: 2)).frames(of: .blocking)
    let bases = Set((old + new).map(\.base))
    for parts in [2, 3, 4, 8, 100] {
      let cuts = BlockingMerge.cuts(old, new, parts: parts)
      #expect(cuts.first == 0 && cuts.last == BlobLimits.maxNumber)
      #expect(zip(cuts, cuts.dropFirst()).allSatisfy { $0 < $1 })
      #expect(cuts.count <= parts + 1 && cuts.count >= 3, "\(cuts) of \(old.count)+\(new.count) frames")
      #expect(cuts.dropFirst().dropLast().allSatisfy { bases.contains($0) })
    }
    #expect(BlockingMerge.cuts([], [], parts: 4) == [0, BlobLimits.maxNumber])
  }

  /// A damaged frame in either blob ends the merge with its error, with
  /// nothing left running, however many stretches run.
  @Test func aDamagedStretchEndsTheMerge() throws {
    let old = try Self.blob(Self.snapshots.old, version: 1)
    let new = try Self.blob(Self.snapshots.new, version: 2)
    let info = try #require(try BlobReader(bytes: old).header.info(.blocking))
    var damaged = old
    damaged[Int(info.offset + info.length * 3 / 4)] ^= 0x08
    for _ in 0..<10 {
      #expect(throws: BlobError.self) { _ = try Self.merged(damaged, new, parts: 8) }
      #expect(throws: BlobError.self) { _ = try Self.merged(new, damaged, parts: 8) }
    }
    // A consumer that throws ends it too.
    var calls = 0
    #expect(throws: BlobError.misuse("stop")) {
      try BlockingMerge.merge(
        try BlobReader(bytes: old), try BlobReader(bytes: new), parts: 8, threshold: 0,
        onlyInOld: { (_) throws(BlobError) in
          calls += 1
          throw BlobError.misuse("stop")
        }, onlyInNew: { _ in })
    }
    #expect(calls == 1)
  }
}
