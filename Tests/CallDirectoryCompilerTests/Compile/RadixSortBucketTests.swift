import Testing

@testable import CallDirectoryCompiler

/// The cells and buckets of `RadixSort.sortInBuckets`, each on its own.
@Suite struct RadixSortBucketTests {
  @Test func cellKeyTakesTheTopSixteenDifferingBits() {
    // Values differ in bits 0...39: the cell is bits 24...39.
    let key = RadixSort.CellKey(differing: (1 << 40) - 1)
    #expect(key.highest == 39 && key.cells == 1 << 16 && key.shift == 24)
    #expect(key.cell(of: 0xAB_CD00_0000) == 0xABCD)
    #expect(key.lowMask == (1 << 40) - 1)
    // Fewer differing bits than a cell holds: every one of them.
    let small = RadixSort.CellKey(differing: 0b1010)
    #expect(small.highest == 3 && small.cells == 16 && small.shift == 0 && small.cell(of: 0x1F) == 0xF)
    #expect(RadixSort.CellKey(differing: UInt64(1) << 63).lowMask == .max)
  }

  /// Cells join buckets in order, a bucket closed before the goal would be
  /// passed (one cell alone may pass it); each part's values get their own
  /// stretch of each bucket, parts in order.
  @Test func bucketLayoutJoinsCellsUpToTheGoal() {
    let cells = 8
    let parts = 2
    let goal = RadixSort.bucketGoal
    // Part 0's counts, then part 1's.
    let counts = [goal / 2, goal / 4, goal / 4, 0, goal * 2, 1, 0, 3, 10, 0, goal / 8, 0, 0, 0, 0, 0]
    let cellCounts = SharedPointer<Int>(count: counts.count)
    cellCounts.base.initialize(from: counts, count: counts.count)
    defer { cellCounts.deallocate() }
    let layout = RadixSort.BucketLayout(cellCounts: cellCounts, cells: cells, parts: parts)
    defer { layout.deallocate() }
    let bucketOfCell = (0..<cells).map { Int(layout.bucketOfCell.base[$0]) }
    // Cells 0–3 hold goal / 2 + 10, goal / 4, goal / 4 + goal / 8, 0: the third passes the goal.
    #expect(bucketOfCell == [0, 0, 1, 1, 2, 3, 3, 3])
    #expect(layout.buckets == 4)
    let total = counts.reduce(0, +)
    #expect(layout.starts == [0, goal / 2 + 10 + goal / 4, goal + 10 + goal / 8, 3 * goal + 10 + goal / 8, total])
    // Part 0 first in each bucket, then part 1.
    for bucket in 0..<layout.buckets {
      let part0 = (0..<cells).filter { bucketOfCell[$0] == bucket }.reduce(0) { $0 + counts[$1] }
      #expect(layout.positions.base[bucket] == layout.starts[bucket])
      #expect(layout.positions.base[layout.buckets + bucket] == layout.starts[bucket] + part0)
    }
    // Two groups of buckets, the last one ending with the last bucket.
    let ends = layout.groupEnds(count: total)
    #expect(ends.count == parts && ends.last == layout.buckets && ends == ends.sorted())
  }
}
