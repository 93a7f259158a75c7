import FormatFixtures
import Foundation
import Testing

@testable import CallDirectoryCompiler

/// What each source contributes, checked against sets on random configs
/// with overlapping blocking sources, ranges, allowlists and caller-ID lists.
@Suite struct ContributionTests {
  /// A random config's sources and the numbers each gives.
  struct Case {
    var blocking: [[Int64]] = []  // per blocking source, singles as listed (repeats allowed)
    var ranges: [[ClosedRange<Int64>]] = []  // per blocking source, ranges (in a patterns file)
    var allow: [[Int64]] = []
    var identify: [[Int64]] = []
  }

  static func makeCase(seed: UInt64, scale: Int) -> Case {
    var generator = SplitMix64(seed: seed)
    let base: Int64 = 41_210_000_000
    func number() -> Int64 { base + Int64(generator.next(below: UInt64(scale) * 3)) }
    var test = Case()
    for _ in 0..<(2 + Int(generator.next(below: 2))) {
      test.blocking.append((0..<scale).map { _ in number() })
      test.ranges.append((0..<Int(generator.next(below: 4))).map { _ in
        let lower = number()
        return lower...(lower + Int64(generator.next(below: UInt64(scale / 4 + 1))))
      })
    }
    for _ in 0..<Int(generator.next(below: 3)) { test.allow.append((0..<(scale / 3)).map { _ in number() }) }
    for _ in 0..<(1 + Int(generator.next(below: 2))) { test.identify.append((0..<(scale / 2)).map { _ in number() }) }
    return test
  }

  func write(_ test: Case, to workspace: Workspace) throws {
    var sources: [String] = []
    for (index, numbers) in test.blocking.enumerated() {
      try workspace.write("block\(index).txt", numbers.map { "+\($0)\n" }.joined())
      sources.append(#"{"path": "block\#(index).txt", "format": "lines", "list": "block"}"#)
      try workspace.write("ranges\(index).txt", test.ranges[index].map { "\($0.lowerBound)-\($0.upperBound)\n" }.joined())
      sources.append(#"{"path": "ranges\#(index).txt", "format": "patterns", "list": "block"}"#)
    }
    for (index, numbers) in test.allow.enumerated() {
      try workspace.write("allow\(index).txt", numbers.map { "+\($0)\n" }.joined())
      sources.append(#"{"path": "allow\#(index).txt", "format": "lines", "list": "allow"}"#)
    }
    for (index, numbers) in test.identify.enumerated() {
      try workspace.write("names\(index).csv", "phone,name\n" + numbers.map { "+\($0),name \($0 % 7)\n" }.joined())
      sources.append(
        #"{"path": "names\#(index).csv", "format": "csv", "list": "identify", "number": "phone", "label": "name"}"#)
    }
    try workspace.config(sources)
  }

  /// The expected contribution of every source, by config index, from sets.
  func expected(_ test: Case) -> [Int: SourceContribution] {
    var blockSets: [Set<Int64>] = []
    var listedCounts: [Int] = []
    for (index, numbers) in test.blocking.enumerated() {
      blockSets.append(Set(numbers))
      listedCounts.append(numbers.count)
      var rangeSet: Set<Int64> = []
      var listed = 0
      for range in test.ranges[index] {
        rangeSet.formUnion(range)
        listed += range.count
      }
      blockSets.append(rangeSet)
      listedCounts.append(listed)
    }
    let allowSets = test.allow.map { Set($0) }
    let listed = blockSets.reduce(into: Set<Int64>()) { $0.formUnion($1) }
    let allowed = allowSets.reduce(into: Set<Int64>()) { $0.formUnion($1) }
    let entries = listed.subtracting(allowed)
    var result: [Int: SourceContribution] = [:]
    for (index, set) in blockSets.enumerated() {
      let others = blockSets.indices.filter { $0 != index }.reduce(into: Set<Int64>()) { $0.formUnion(blockSets[$1]) }
      result[index] = SourceContribution(
        numbers: set.count, duplicates: listedCounts[index] - set.count,
        unique: set.intersection(entries).subtracting(others).count)
    }
    for (offset, set) in allowSets.enumerated() {
      let others = allowSets.indices.filter { $0 != offset }.reduce(into: Set<Int64>()) { $0.formUnion(allowSets[$1]) }
      result[blockSets.count + offset] = SourceContribution(
        numbers: set.count, duplicates: test.allow[offset].count - set.count,
        unique: set.intersection(listed).subtracting(others).count)
    }
    let identifySets = test.identify.map { Set($0) }
    for (offset, set) in identifySets.enumerated() {
      let others = identifySets.indices.filter { $0 != offset }.reduce(into: Set<Int64>()) { $0.formUnion(identifySets[$1]) }
      result[blockSets.count + allowSets.count + offset] = SourceContribution(
        numbers: set.count, duplicates: test.identify[offset].count - set.count, unique: set.subtracting(others).count)
    }
    return result
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
  func contributionsMatchSetArithmetic(seed: UInt64) throws {
    let test = Self.makeCase(seed: seed, scale: 300)
    let workspace = try Workspace()
    try write(test, to: workspace)
    let (snapshot, _) = try workspace.compile()
    let expected = expected(test)
    for report in snapshot.sources {
      #expect(report.contribution == expected[report.spec.index], "\(report.spec.writtenPath)")
    }
  }

  @Test(arguments: [7, 8] as [UInt64])
  func spilledBuildsCountTheSame(seed: UInt64) throws {
    let test = Self.makeCase(seed: seed, scale: 12_000)
    let workspace = try Workspace()
    try write(test, to: workspace)
    let (inMemory, _) = try workspace.compile()
    let (spilled, _) = try workspace.compile(memoryLimit: 1)
    #expect(spilled.statistics.spilledRuns > 0)
    #expect(spilled.sources.map(\.contribution) == inMemory.sources.map(\.contribution))
    #expect(spilled.statistics == CompileStatistics(
      blocking: inMemory.statistics.blocking, identification: inMemory.statistics.identification,
      labels: inMemory.statistics.labels, rejected: inMemory.statistics.rejected,
      conflicts: inMemory.statistics.conflicts, allowed: inMemory.statistics.allowed,
      duplicates: inMemory.statistics.duplicates, spilledRuns: spilled.statistics.spilledRuns))
    let expected = expected(test)
    for report in spilled.sources {
      #expect(report.contribution == expected[report.spec.index], "\(report.spec.writtenPath)")
    }
  }

  @Test func aSoleBlockingSourceNeedsNoSweep() throws {
    let workspace = try Workspace()
    try workspace.write("block.txt", "+41212130911\n+41212130911\n+41212130912\n")
    try workspace.config([#"{"path": "block.txt", "format": "lines", "list": "block"}"#])
    let (snapshot, _) = try workspace.compile()
    #expect(snapshot.sources[0].contribution == SourceContribution(numbers: 2, duplicates: 1, unique: 2))
  }
}
