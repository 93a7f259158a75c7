import CalldirSystem
import FormatFixtures
import Foundation
import Testing

@testable import CallDirectoryCompiler

/// Past its memory limit a build spills sorted runs and merges them; the
/// entries and counts must be exactly those of an in-memory build.
@Suite struct SpillTests {
  /// Blocking singles with repeats, patterns whose ranges cover some of
  /// them, and allowlists (singles and ranges) that cut both.
  static func workspace() throws -> Workspace {
    let workspace = try Workspace()
    var generator = SplitMix64(seed: 3)
    var block = ""
    for _ in 0..<30_000 { block += "+1212555\(1000 + generator.next(below: 9000))\n" }
    for _ in 0..<8_000 { block += "+1646555\(1000 + generator.next(below: 9000))\n" }
    try workspace.write("block.txt", block)
    try workspace.write("patterns.txt", "+12125551###\n+16465550000-16465550999\n+1718555####\n+19175550000\n")
    var allow = ""
    for _ in 0..<6_000 { allow += "+1212555\(1000 + generator.next(below: 9000))\n" }
    allow += "+17185551234\n+19175550000\n"
    try workspace.write("allow.txt", allow)
    try workspace.write("allow-patterns.txt", "+1718555002#\n+12125552000-12125552099\n")
    try workspace.config([
      #"{"path": "block.txt", "format": "lines", "list": "block"}"#,
      #"{"path": "patterns.txt", "format": "patterns", "list": "block"}"#,
      #"{"path": "allow.txt", "format": "lines", "list": "allow"}"#,
      #"{"path": "allow-patterns.txt", "format": "patterns", "list": "allow"}"#,
    ])
    return workspace
  }

  @Test func spilledRunsGiveTheInMemoryResult() throws {
    let workspace = try Self.workspace()
    let (inMemory, _) = try workspace.compile()
    #expect(inMemory.blocking.inMemory != nil)
    // The smallest limit holds 4096 numbers: the lists spill many runs.
    let (spilled, _) = try workspace.compile(memoryLimit: 1)
    #expect(spilled.blocking.inMemory == nil)
    #expect(spilled.blockingNumbers == inMemory.blockingNumbers)
    var expected = inMemory.statistics
    expected.spilledRuns = spilled.statistics.spilledRuns
    #expect(spilled.statistics == expected)
    #expect(spilled.statistics.spilledRuns >= 2)
    #expect(inMemory.statistics.allowed > 1000)
    #expect(inMemory.statistics.duplicates > 1000)
    var chunks: [String] = []
    try spilled.blocking.forEachChunk(singles: { _ in }, range: { chunks.append("\($0)") })
    #expect(chunks.contains("16465550000...16465550999"))
  }

  /// Ranges past the limit spill as range runs: entries, counts and each
  /// source's contribution are those of the in-memory build, and every
  /// range reaches the writer as one range.
  @Test func spilledRangesGiveTheInMemoryResult() throws {
    let workspace = try Workspace()
    var generator = SplitMix64(seed: 31)
    var ranges = ""
    var overlapping = ""
    for _ in 0..<12_000 {
      let start = 12_125_500_000 + Int64(generator.next(below: 400_000))
      ranges += "+\(start)-\(start + Int64(generator.next(below: 40)))\n"
    }
    for _ in 0..<4_000 {
      let start = 12_125_500_000 + Int64(generator.next(below: 400_000))
      overlapping += "+\(start)-\(start + 1)\n"
    }
    overlapping += "+1212555####\n"
    try workspace.write("ranges.txt", ranges)
    try workspace.write("more.txt", overlapping)
    var singles = ""
    for _ in 0..<6_000 { singles += "+1212550\(1000 + generator.next(below: 9000))\n" }
    try workspace.write("block.txt", singles)
    var allow = ""
    for _ in 0..<500 {
      let start = 12_125_500_000 + Int64(generator.next(below: 400_000))
      allow += "+\(start)-\(start + Int64(generator.next(below: 5)))\n"
    }
    try workspace.write("allow.txt", allow)
    try workspace.config([
      #"{"path": "ranges.txt", "format": "patterns", "list": "block"}"#,
      #"{"path": "block.txt", "format": "lines", "list": "block"}"#,
      #"{"path": "more.txt", "format": "patterns", "list": "block"}"#,
      #"{"path": "allow.txt", "format": "patterns", "list": "allow"}"#,
    ])
    let (inMemory, _) = try workspace.compile()
    #expect(inMemory.blocking.inMemory != nil)
    // Room for 4,096 held numbers: each range counts as two.
    let (spilled, _) = try workspace.compile(memoryLimit: 1)
    #expect(spilled.blocking.inMemory == nil)
    #expect(spilled.statistics.spilledRuns >= 4)
    #expect(spilled.blockingNumbers == inMemory.blockingNumbers)
    var expected = inMemory.statistics
    expected.spilledRuns = spilled.statistics.spilledRuns
    #expect(spilled.statistics == expected)
    #expect(spilled.sources.map(\.contribution) == inMemory.sources.map(\.contribution))
    #expect(inMemory.statistics.allowed > 0 && inMemory.statistics.duplicates > 0)
    func chunks(_ snapshot: CompiledSnapshot) throws -> [String] {
      var result: [String] = []
      try snapshot.blocking.forEachChunk(
        singles: { result.append(contentsOf: $0.map(String.init)) }, range: { result.append("\($0)") })
      return result
    }
    #expect(try chunks(spilled) == chunks(inMemory))
    // The same lines in another order: the same entries and counts.
    let lines = ranges.split(separator: "\n")
    try workspace.write("ranges.txt", lines.reversed().joined(separator: "\n") + "\n")
    let (reordered, _) = try workspace.compile(memoryLimit: 1)
    #expect(try chunks(reordered) == chunks(inMemory))
    var reorderedExpected = inMemory.statistics
    reorderedExpected.spilledRuns = reordered.statistics.spilledRuns
    #expect(reordered.statistics == reorderedExpected)
    // The pattern's 10,000 numbers (joined with what touches them, cut by
    // the allowlist) reach the writer as ranges, never number by number.
    var longest: Int64 = 0
    try spilled.blocking.forEachChunk(singles: { _ in }, range: { longest = max(longest, $0.upperBound - $0.lowerBound) })
    #expect(longest >= 1000)
  }

  @Test func mergedRangeRunsJoinTheRunsRanges() throws {
    let workspace = try Workspace()
    var generator = SplitMix64(seed: 41)
    var covered = Set<Int64>()
    var runs: [RangeRun] = []
    for index in 0..<9 {
      var ranges: [ClosedRange<Int64>] = []
      for _ in 0..<Int(generator.next(below: 300)) {
        let start = Int64(1 + generator.next(below: 5_000))
        let range = start...(start + Int64(generator.next(below: 6)))
        ranges.append(range)
        covered.formUnion(range)
      }
      RangeRun.sortAndJoin(&ranges)
      // Joined: ascending, disjoint, not touching.
      #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound + 1 < $1.lowerBound })
      runs.append(index % 3 == 0 ? .memory(ranges) : try RangeRun.spill(ranges, to: workspace.path("ranges-\(index)")))
    }
    let merged = try MergedRangeRuns(runs, bufferBytes: 1)
    var union: [ClosedRange<Int64>] = []
    while let range = try merged.next() { union.append(range) }
    #expect(zip(union, union.dropFirst()).allSatisfy { $0.upperBound + 1 < $1.lowerBound })
    #expect(union.flatMap { Array($0) } == covered.sorted())
    // Merging the files into one run gives the same union.
    let one = try RangeRun.merge(runs, to: workspace.path("merged"))
    #expect(one.count == union.count)
    let again = try MergedRangeRuns([one])
    var second: [ClosedRange<Int64>] = []
    while let range = try again.next() { second.append(range) }
    #expect(second == union)
  }

  @Test func aDamagedRangeRunIsAnErrorNotACrash() throws {
    let workspace = try Workspace()
    let path = workspace.path("ranges")
    let run = try RangeRun.spill([5...9, 20...20, (1 << 40)...(1 << 41)], to: path)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    try bytes.dropLast(3).write(to: URL(fileURLWithPath: path))
    #expect(throws: CompileError.self) {
      let merged = try MergedRangeRuns([run])
      while try merged.next() != nil {}
    }
  }

  @Test func aSourceOfManyRangeRunsIsMergedBeforeItPassesTheFanIn() throws {
    let workspace = try Workspace()
    let files = SpillFiles(directory: workspace.url.path)
    var collector = NumberCollector()
    collector.begin(source: 0)
    var covered = Set<Int64>()
    var generator = SplitMix64(seed: 43)
    for _ in 0..<(SortedRun.maximumFanIn + 3) {
      let ranges = (0..<20).map { _ in
        let start = Int64(1 + generator.next(below: 5000))
        return start...(start + 3)
      }
      for range in ranges { covered.formUnion(range) }
      collector.add(ranges: ranges)
      #expect(collector.held == 20 * SpillPolicy.numbersPerRange)
      try collector.spill(to: files)
      #expect(collector.sources[0].rangeRuns.count < SortedRun.maximumFanIn)
    }
    collector.endSource()
    let merged = try MergedRangeRuns(collector.allRangeRuns)
    var union: [Int64] = []
    while let range = try merged.next() { union.append(contentsOf: range) }
    #expect(union == covered.sorted())
  }

  /// A complaint feed's reports past the limit spill as sorted runs and
  /// are weighed from them: the same numbers, labels and counts.
  @Test func spilledReportsAreWeighedAsInMemory() throws {
    let workspace = try Workspace()
    var generator = SplitMix64(seed: 47)
    var block = "phone,date\n"
    var names = "phone,date,label\n"
    for _ in 0..<30_000 {
      let number = 1_212_555_0000 + Int64(generator.next(below: 9_000))
      let day = 1 + generator.next(below: 28)
      block += "+\(number),2025-02-\(day < 10 ? "0" : "")\(day)\n"
      names += "+\(number + 1_000_000),2025-02-\(day < 10 ? "0" : "")\(day),Caller \(generator.next(below: 4))\n"
    }
    try workspace.write("dnc.csv", block)
    try workspace.write("names.csv", names)
    try workspace.config([
      #"{"path": "dnc.csv", "format": "csv", "list": "block", "number": "phone", "dateColumn": "date", "minReports": 3, "maxAgeDays": 20}"#,
      #"{"path": "names.csv", "format": "csv", "list": "identify", "number": "phone", "label": "label", "dateColumn": "date", "minReports": 2, "labelPolicy": "mostFrequent"}"#,
    ])
    let asOf = CalendarDay(year: 2025, month: 2, day: 28)
    let (inMemory, _) = try workspace.compile(asOf: asOf)
    do {
      let (spilled, _) = try workspace.compile(memoryLimit: 1, asOf: asOf)
      #expect(spilled.statistics.spilledRuns >= 4)
      #expect(inMemory.statistics.spilledRuns == 0)
      #expect(spilled.blockingNumbers == inMemory.blockingNumbers)
      #expect(spilled.identificationPairs == inMemory.identificationPairs)
      #expect(spilled.sources.map(\.evidence) == inMemory.sources.map(\.evidence))
      #expect(inMemory.sources[0].evidence?.kept ?? 0 > 100)
      #expect(inMemory.sources[0].evidence?.droppedByMinReports ?? 0 > 100)
      #expect(inMemory.sources[0].evidence?.reportsTooOld ?? 0 > 100)
      // The reports' runs went once weighed; the identification entries
      // the feed kept spilled too, and their files go with the snapshot.
      #expect(spilled.spilledIdentification != nil)
    }
    #expect(try Self.runFiles(workspace).isEmpty)
  }

  @Test func recordSpillsMergeTheirRunsInOrder() throws {
    let workspace = try Workspace()
    let files = SpillFiles(directory: workspace.url.path)
    let spill = RecordSpill<(Int64, Int32)>(files: files) { ($0.0, $0.1) < ($1.0, $1.1) }
    var generator = SplitMix64(seed: 53)
    var all: [(Int64, Int32)] = []
    for index in 0..<(SortedRun.maximumFanIn * 40 + 7) {
      let record = (Int64(generator.next(below: 1000)), Int32(index))
      all.append(record)
      spill.append(record)
      if index % 40 == 39 { try spill.spill() }
      // Never more than the fan-in of runs to read back.
      #expect(spill.runsWritten < SortedRun.maximumFanIn)
    }
    let cursor = try spill.sorted()
    var result: [(Int64, Int32)] = []
    while let record = try cursor.next() { result.append(record) }
    let expected = all.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
    #expect(result.map(\.0) == expected.map(\.0) && result.map(\.1) == expected.map(\.1))
  }

  /// Identification entries and the lists share the limit: the largest
  /// part spills, the entries (with their labels) when they outweigh the
  /// lists, else the larger list.
  @Test(arguments: [(8_000, 10_000), (30_000, 2_000)])
  func identificationAndTheListsShareTheLimit(blockNumbers: Int, entries: Int) throws {
    let workspace = try Workspace()
    var generator = SplitMix64(seed: 9)
    try workspace.write("block.txt", (0..<blockNumbers).map { _ in "+1212\(5_550_000 + generator.next(below: 40_000))\n" }.joined())
    try workspace.write(
      "names.csv", "phone,name\n" + (0..<entries).map { "+1646\(1_000_000 + $0),Caller \($0 % 50)\n" }.joined())
    try workspace.config([
      #"{"path": "block.txt", "format": "lines", "list": "block"}"#,
      #"{"path": "names.csv", "format": "csv", "list": "identify", "number": "phone", "label": "name"}"#,
    ])
    let (inMemory, _) = try workspace.compile()
    // Room for 20,000 held numbers: not for both (an entry counts as three
    // numbers, its label as its bytes and 160 more, over 24).
    let (spilled, _) = try workspace.compile(memoryLimit: MemoryLimit.reservedBytes + SpillPolicy.bytesPerNumber * 20_000)
    #expect(spilled.statistics.spilledRuns >= 1)
    let entriesSpilled = entries * SpillPolicy.numbersPerIdentification > blockNumbers
    #expect((spilled.spilledIdentification != nil) == entriesSpilled)
    #expect((spilled.blocking.inMemory != nil) == entriesSpilled)
    #expect(spilled.blockingNumbers == inMemory.blockingNumbers)
    #expect(spilled.identificationPairs == inMemory.identificationPairs)
    var expected = inMemory.statistics
    expected.spilledRuns = spilled.statistics.spilledRuns
    #expect(spilled.statistics == expected)
  }

  @Test func runFilesAreRemovedWithTheSnapshot() throws {
    let workspace = try Self.workspace()
    do {
      let (spilled, _) = try workspace.compile(memoryLimit: 1)
      #expect(try Self.runFiles(workspace).count >= 2)
      #expect(!spilled.blockingNumbers.isEmpty)
    }
    #expect(try Self.runFiles(workspace).isEmpty)
  }

  static func runFiles(_ workspace: Workspace) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: workspace.url.path).filter { $0.hasPrefix(".spill-") }
  }

  @Test func mergedRunsYieldTheUnionOnceEach() throws {
    let workspace = try Workspace()
    var generator = SplitMix64(seed: 11)
    var union: Set<Int64> = []
    var runs: [SortedRun] = []
    var total = 0
    for index in 0..<12 {
      let values = Set((0..<Int(generator.next(below: 3000))).map { _ in Int64(1 + generator.next(below: 1 << 40)) }
        + (0..<500).map { _ in Int64(1 + generator.next(below: 2000)) })
      let sorted = values.sorted()
      union.formUnion(sorted)
      total += sorted.count
      let path = workspace.path("run-\(index)")
      runs.append(index % 3 == 0 ? .memory(SortedSlices(sorted)) : try SortedRun.spill(SortedSlices(sorted), to: path))
    }
    let merged = try MergedRuns(runs, bufferBytes: 1)
    var result: [Int64] = []
    while let value = try merged.next() { result.append(value) }
    #expect(result == union.sorted())
    #expect(merged.repeats == total - union.count)
  }

  @Test func manyRunsAreMergedBeforeTheyPassTheFanIn() throws {
    let workspace = try Workspace()
    let files = SpillFiles(directory: workspace.url.path)
    var collector = NumberCollector()
    collector.begin(source: 0)
    var generator = SplitMix64(seed: 23)
    var expected: Set<Int64> = []
    for _ in 0..<(SortedRun.maximumFanIn * 2 + 5) {
      let numbers = (0..<50).map { _ in Int64(1 + generator.next(below: 5000)) }
      expected.formUnion(numbers)
      collector.add(numbers, limit: 50)
      try collector.spill(to: files)
      #expect(collector.sources[0].runs.count < SortedRun.maximumFanIn)
    }
    collector.endSource()
    let added = collector.added
    let merged = try MergedRuns(collector.allRuns)
    var result: [Int64] = []
    while let number = try merged.next() { result.append(number) }
    #expect(result == expected.sorted())
    #expect(collector.repeatsInRuns + merged.repeats == added - expected.count)
    // One run per spill, and one per merge of a full fan-in.
    #expect(collector.runsWritten == SortedRun.maximumFanIn * 2 + 5 + 2)
  }

  @Test func aTruncatedRunIsAnErrorNotACrash() throws {
    let workspace = try Workspace()
    let path = workspace.path("run")
    let run = try SortedRun.spill(SortedSlices([5, 1 << 40, 1 << 50]), to: path)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    try bytes.dropLast(2).write(to: URL(fileURLWithPath: path))
    #expect(throws: CompileError.self) {
      let merged = try MergedRuns([run])
      while try merged.next() != nil {}
    }
  }

  @Test func aSpillDirectoryThatCannotBeWrittenIsASpillError() throws {
    let workspace = try Self.workspace()
    let config = try BuildConfig.load(contentsOf: workspace.path("calldir.json"))
    let log = try RejectLog(directory: workspace.url.path)
    defer { log.discard() }
    var compiler = SnapshotCompiler()
    compiler.memoryLimit = 1
    compiler.spillDirectory = workspace.path("missing")
    #expect {
      _ = try compiler.compile(config, rejects: log)
    } throws: { error in
      guard case CompileError.spill(let failure) = error else { return false }
      return failure.path.hasPrefix(workspace.path("missing") + "/.spill-")
        && "\(error)".hasPrefix("cannot spill sorted numbers: cannot open ")
    }
  }

  @Test func sizesParseWithBinaryUnits() {
    #expect(MemoryLimit.parse("4G") == 4 << 30)
    #expect(MemoryLimit.parse("512MiB") == 512 << 20)
    #expect(MemoryLimit.parse("800m") == 800 << 20)
    #expect(MemoryLimit.parse("2kb") == 2048)
    #expect(MemoryLimit.parse("1048576") == 1 << 20)
    #expect(MemoryLimit.parse("1.5GiB") == 3 << 29)
    for bad in ["", "G", "0", "-1G", "4X", "1.2.3G", "99999999999T", "0.1"] {
      #expect(MemoryLimit.parse(bad) == nil, "\(bad)")
    }
    #expect(MemoryLimit.defaultBytes() > 0)
  }
}
