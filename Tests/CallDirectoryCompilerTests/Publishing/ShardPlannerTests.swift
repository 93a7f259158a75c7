import Testing

@testable import CallDirectoryCompiler

@Suite struct ShardPlannerTests {
  func entries(_ set: NumberSet, _ identification: [LabeledNumber], _ bounds: ClosedRange<Int64>) -> Int {
    set.count(in: bounds) + identification.filter { bounds.contains($0.number) }.count
  }

  func ranges(_ lowers: [Int64]) -> [ClosedRange<Int64>] {
    lowers.enumerated().map { index, lower in
      lower...(index + 1 < lowers.count ? lowers[index + 1] - 1 : Int64.max - 1)
    }
  }

  @Test func everyShardFitsTheLimitAndTheShardsCoverEverything() {
    let blocking = NumberSet(singles: (0..<5000).map { 18_005_550_000 + Int64($0 * 3) }, ranges: [33_162_000_000...33_162_009_999])
    let identification = (0..<700).map { LabeledNumber(number: 44_207_946_0000 + Int64($0), labelID: 0) }
    let lowers = ShardPlanner(limit: 2000).boundaries(blocking: blocking, identification: identification, previous: [])
    #expect(lowers.first == 1)
    let total = ranges(lowers).map { entries(blocking, identification, $0) }
    #expect(total.allSatisfy { $0 <= 2000 })
    #expect(total.reduce(0, +) == blocking.count + identification.count)
  }

  @Test func boundariesStayWhileShardsHaveRoom() {
    let first = NumberSet(singles: (0..<3000).map { 18_005_550_000 + Int64($0 * 7) }, ranges: [])
    let planner = ShardPlanner(limit: 1000)
    let lowers = planner.boundaries(blocking: first, identification: [], previous: [])
    // A few more numbers everywhere: no shard overflows, nothing moves.
    let grown = NumberSet(singles: first.singles + (0..<50).map { 18_005_550_001 + Int64($0 * 400) }, ranges: [])
    #expect(planner.boundaries(blocking: grown, identification: [], previous: lowers) == lowers)
    // Many more at the end: only the last shard splits.
    let appended = NumberSet(singles: first.singles + (0..<900).map { 19_000_000_000 + Int64($0) }, ranges: [])
    let next = planner.boundaries(blocking: appended, identification: [], previous: lowers)
    #expect(Array(next.prefix(lowers.count)) == lowers)
    #expect(next.count > lowers.count)
  }

  @Test func countAndSliceAgreeWithIteration() {
    let set = NumberSet(singles: [5, 9, 40, 41, 100], ranges: [10...20, 50...60])
    for bounds in [1...4, 5...5, 9...15, 18...45, 55...200, 1...1000] as [ClosedRange<Int64>] {
      var expected: [Int64] = []
      set.forEach { if bounds.contains($0) { expected.append($0) } }
      var sliced: [Int64] = []
      set.slice(bounds).forEach { sliced.append($0) }
      #expect(sliced == expected)
      #expect(set.count(in: bounds) == expected.count)
    }
  }
}
