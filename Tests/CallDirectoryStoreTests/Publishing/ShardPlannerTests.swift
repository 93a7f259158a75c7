import FormatFixtures
import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectoryStore

@Suite struct ShardPlannerTests {
  func entries(_ set: NumberSet, _ identification: [LabeledNumber], _ bounds: ClosedRange<Int64>) -> Int {
    set.count(in: bounds) + identification.filter { bounds.contains($0.number) }.count
  }

  func ranges(_ lowers: [Int64]) -> [ClosedRange<Int64>] {
    lowers.enumerated().map { index, lower in
      lower...(index + 1 < lowers.count ? lowers[index + 1] - 1 : Int64.max - 1)
    }
  }

  @Test func everyShardFitsTheLimitAndTheShardsCoverEverything() throws {
    let blocking = NumberSet(singles: (0..<5000).map { 18_005_550_000 + Int64($0 * 3) }, ranges: [33_162_000_000...33_162_009_999])
    let identification = (0..<700).map { LabeledNumber(number: 44_207_946_0000 + Int64($0), labelID: 0) }
    let lowers = try ShardPlanner(limit: 2000).boundaries(blocking: BlockingEntries(blocking), identification: identification, previous: [])
    #expect(lowers.first == 1)
    let total = ranges(lowers).map { entries(blocking, identification, $0) }
    #expect(total.allSatisfy { $0 <= 2000 })
    #expect(total.reduce(0, +) == blocking.count + identification.count)
  }

  @Test func boundariesStayWhileShardsHaveRoom() throws {
    let first = NumberSet(singles: (0..<3000).map { 18_005_550_000 + Int64($0 * 7) }, ranges: [])
    let planner = ShardPlanner(limit: 1000)
    let lowers = try planner.boundaries(blocking: BlockingEntries(first), identification: [], previous: [])
    // A few more numbers everywhere: no shard overflows, nothing moves.
    let grown = NumberSet(singles: first.singles + (0..<50).map { 18_005_550_001 + Int64($0 * 400) }, ranges: [])
    #expect(try planner.boundaries(blocking: BlockingEntries(grown), identification: [], previous: lowers) == lowers)
    // Many more at the end: only the last shard splits.
    let appended = NumberSet(singles: first.singles + (0..<900).map { 19_000_000_000 + Int64($0) }, ranges: [])
    let next = try planner.boundaries(blocking: BlockingEntries(appended), identification: [], previous: lowers)
    #expect(Array(next.prefix(lowers.count)) == lowers)
    #expect(next.count > lowers.count)
  }

  @Test func countAgreesWithIteration() {
    let set = NumberSet(singles: [5, 9, 40, 41, 100], ranges: [10...20, 50...60])
    for bounds in [1...4, 5...5, 9...15, 18...45, 55...200, 1...1000] as [ClosedRange<Int64>] {
      var expected: [Int64] = []
      set.forEach { if bounds.contains($0) { expected.append($0) } }
      #expect(set.count(in: bounds) == expected.count)
    }
  }

  /// The planner's rule written the direct way: counts by binary search.
  func reference(_ set: NumberSet, _ identification: [LabeledNumber], previous: [Int64], limit: Int) -> [Int64] {
    let target = max(1, min(limit, Int(Double(limit) * 0.8)))
    var result: [Int64] = []
    let lowers = previous.first == 1 ? previous : [1]
    for (index, lower) in lowers.enumerated() {
      let upper = index + 1 < lowers.count ? lowers[index + 1] - 1 : Int64.max - 1
      result.append(lower)
      var start = lower
      while entries(set, identification, start...upper) > limit {
        var low = start
        var high = upper
        while low < high {
          let middle = low + (high - low) / 2
          if entries(set, identification, start...middle) >= target { high = middle } else { low = middle + 1 }
        }
        guard low < upper else { break }
        start = low + 1
        result.append(start)
      }
    }
    return result
  }

  @Test func streamingPlanEqualsTheDirectRule() throws {
    var generator = SplitMix64(seed: 17)
    for _ in 0..<200 {
      let singles = (0..<Int(generator.next(below: 400))).map { _ in Int64(100 + generator.next(below: 5000)) }
      let ranges = (0..<Int(generator.next(below: 4))).map { _ -> ClosedRange<Int64> in
        let lower = Int64(100 + generator.next(below: 5000))
        return lower...(lower + Int64(generator.next(below: 300)))
      }
      let set = NumberSet(singles: singles, ranges: ranges)
      let identification = Set((0..<Int(generator.next(below: 200))).map { _ in Int64(100 + generator.next(below: 5000)) })
        .sorted().map { LabeledNumber(number: $0, labelID: 0) }
      let limit = Int(1 + generator.next(below: 150))
      let previous: [Int64] = generator.next(below: 2) == 0 ? [] : [1, Int64(100 + generator.next(below: 5000))]
      let planned = try ShardPlanner(limit: limit).boundaries(
        blocking: BlockingEntries(set), identification: identification, previous: previous)
      #expect(planned == reference(set, identification, previous: previous, limit: limit))
      // Blocking alone: single numbers are planned a stretch at a time.
      let blockingOnly = try ShardPlanner(limit: limit).boundaries(
        blocking: BlockingEntries(set), identification: [], previous: previous)
      #expect(blockingOnly == reference(set, [], previous: previous, limit: limit))
    }
  }
}
