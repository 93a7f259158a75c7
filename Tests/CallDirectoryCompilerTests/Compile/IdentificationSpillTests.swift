import CalldirSystem
import FormatFixtures
import Foundation
import Testing

@testable import CallDirectoryCompiler

/// Identification entries past the memory limit spill as label runs and
/// are resolved from them: the winners (by priority, then source order,
/// then line), their labels and sources, the conflicts log, the counts and
/// each source's contribution must be exactly those of the in-memory
/// resolution.
@Suite struct IdentificationSpillTests {
  /// One added entry.
  struct Entry {
    var number: Int64
    var label: String
    var priority: Int
    var source: Int
    var line: Int
  }

  /// Labels that sort differently by UTF-8 bytes than by UTF-16 or by
  /// character (U+FF61 against an emoji), prefixes of one another, the
  /// empty label, and many plain ones.
  static let oddLabels = [
    "", "a", "ab", "a b", "Ab", "\u{E9}cole", "ecole", "\u{FF61}", "😀", "🚫 démarchage", "Доставка", "配達", "z",
  ]

  /// Random entries of `sources` sources (each with its own priority,
  /// several the same), in source order then line order, many numbers
  /// repeated within and across sources, with the same or another label.
  static func entries(seed: UInt64, count: Int, sources: Int, distinctNumbers: Int, plainLabels: Int) -> [Entry] {
    var generator = SplitMix64(seed: seed)
    let priorities = (0..<sources).map { _ in [-1, 0, 0, 2, 5][Int(generator.next(below: 5))] }
    var result: [Entry] = []
    var line = 0
    for index in 0..<count {
      let source = index * sources / count
      if result.last?.source != source { line = 1 }
      line += 1 + Int(generator.next(below: 3))
      let label = generator.next(below: 4) == 0
        ? oddLabels[Int(generator.next(below: UInt64(oddLabels.count)))]
        : "Caller \(generator.next(below: UInt64(plainLabels)))"
      result.append(Entry(
        number: 12_125_550_000 + Int64(generator.next(below: UInt64(distinctNumbers))), label: label,
        priority: priorities[source], source: source, line: line))
    }
    return result
  }

  /// An entry as resolved: number, label, winning source.
  struct Resolved: Equatable, CustomStringConvertible {
    var number: Int64
    var label: String
    var source: Int32
    var description: String { "\(number)=\(label)@\(source)" }
  }

  /// What a resolution gives, in memory or spilled alike.
  struct Outcome: Equatable {
    var entries: [Resolved]
    var labelCount: Int
    var conflicts: Int
    var duplicates: Int
    var contributions: [Int: SourceContribution]
    var conflictLines: String
  }

  static func conflictLog(_ directory: String, sources: Int) throws -> ConflictLog {
    try ConflictLog(directory: directory, paths: Dictionary(uniqueKeysWithValues: (0..<sources).map { ($0, "s\($0).csv") }))
  }

  static func text(of log: ConflictLog) throws -> String {
    try log.finish()
    defer { log.discard() }
    return try String(contentsOfFile: log.path, encoding: .utf8)
  }

  static func inMemory(_ entries: [Entry], sources: Int, directory: String) throws -> Outcome {
    var resolver = IdentificationResolver()
    for entry in entries {
      resolver.add(number: entry.number, label: entry.label, priority: entry.priority, source: entry.source, line: entry.line)
    }
    let log = try conflictLog(directory, sources: sources)
    let resolution = try resolver.resolve(conflicts: log, keepingWinningSources: true)
    return Outcome(
      entries: zip(resolution.entries, resolution.winningSources).map {
        Resolved(number: $0.number, label: resolution.labels[Int($0.labelID)], source: $1)
      },
      labelCount: resolution.labels.count, conflicts: resolution.conflicts, duplicates: resolution.duplicates,
      contributions: resolution.contributions, conflictLines: try text(of: log))
  }

  /// Spills every `every` entries (and what is left at the end), and
  /// merges with `bufferBytes` of records at a time.
  static func spilled(
    _ entries: [Entry], sources: Int, every: Int, bufferBytes: Int, directory: String
  ) throws -> (Outcome, SpilledIdentification, runs: Int) {
    let files = SpillFiles(directory: directory)
    var resolver = IdentificationResolver()
    for (index, entry) in entries.enumerated() {
      resolver.add(number: entry.number, label: entry.label, priority: entry.priority, source: entry.source, line: entry.line)
      if index % every == every - 1 { try resolver.spill(to: files) }
    }
    #expect(resolver.hasSpilled)
    let log = try conflictLog(directory, sources: sources)
    let resolution = try resolver.resolveSpilled(conflicts: log, files: files, bufferBytes: bufferBytes)
    // The dictionary of the labels that won, as the blob writers stream it.
    var dictionary: [String] = []
    try resolution.entries.allLabels.forEachLabel { dictionary.append(String(decoding: $0, as: UTF8.self)) }
    #expect(dictionary.count == resolution.entries.labelCount)
    var resolved: [Resolved] = []
    let cursor = try resolution.entries.cursor()
    while let number = cursor.number {
      let label = String(decoding: cursor.label, as: UTF8.self)
      // The label id a blob gives the entry names the same label.
      #expect(dictionary[Int(resolution.entries.used.place(of: cursor.rank))] == label)
      resolved.append(Resolved(number: number, label: label, source: cursor.source))
      try cursor.advance()
    }
    #expect(resolved.count == resolution.entries.count)
    let outcome = Outcome(
      entries: resolved, labelCount: resolution.entries.labelCount, conflicts: resolution.conflicts,
      duplicates: resolution.duplicates, contributions: resolution.contributions, conflictLines: try text(of: log))
    return (outcome, resolution.entries, resolution.runsWritten)
  }

  @Test(arguments: [1, 2, 3, 4])
  func spilledResolutionIsTheInMemoryOne(seed: UInt64) throws {
    let workspace = try Workspace()
    var generator = SplitMix64(seed: 100 + seed)
    let sources = 1 + Int(generator.next(below: 5))
    let entries = Self.entries(
      seed: seed, count: 4_000 + Int(generator.next(below: 4_000)), sources: sources,
      distinctNumbers: 1_000 + Int(generator.next(below: 3_000)), plainLabels: 1 + Int(generator.next(below: 600)))
    let expected = try Self.inMemory(entries, sources: sources, directory: workspace.url.path)
    #expect(expected.conflicts > 50 && expected.duplicates > 500)
    // From a spill every few entries (past the fan-in of label runs) to a
    // few large runs; buffers from a few dozen records (past the fan-in of
    // sorted runs) to all of them.
    for (every, bufferBytes) in [(23, 1 << 12), (500, 1 << 13), (1_999, 1 << 22)] {
      let (outcome, _, runs) = try Self.spilled(
        entries, sources: sources, every: every, bufferBytes: bufferBytes, directory: workspace.url.path)
      #expect(outcome.entries.count == expected.entries.count)
      #expect(outcome.entries == expected.entries, "every \(every)")
      #expect(outcome.labelCount == expected.labelCount)
      #expect(outcome.conflicts == expected.conflicts)
      #expect(outcome.duplicates == expected.duplicates)
      #expect(outcome.contributions == expected.contributions)
      #expect(outcome.conflictLines == expected.conflictLines)
      #expect(runs >= entries.count / every)
    }
    // Every run file went with the resolution.
    #expect(try SpillTests.runFiles(workspace).isEmpty)
  }

  @Test func aSingleSpilledLabelAndTheEmptyLabelResolveAsInMemory() throws {
    let workspace = try Workspace()
    // One number, listed by every source with the empty label or another.
    var entries: [Entry] = []
    for source in 0..<3 {
      for line in 2...4 {
        entries.append(Entry(number: 12_125_550_100, label: line == 3 ? "" : "x", priority: source == 2 ? 1 : 0, source: source, line: line))
      }
    }
    entries.append(Entry(number: 12_125_550_099, label: "", priority: 0, source: 2, line: 9))
    let expected = try Self.inMemory(entries, sources: 3, directory: workspace.url.path)
    #expect(expected.entries.map(\.description) == ["12125550099=@2", "12125550100=x@2"])
    let (outcome, spilled, _) = try Self.spilled(entries, sources: 3, every: 1, bufferBytes: 1, directory: workspace.url.path)
    #expect(outcome == expected)
    #expect(spilled.labelCount == 2)
  }

  /// The dictionary's order is the labels' UTF-8 byte order, also where
  /// labels share their first 16 bytes, hold NUL bytes, or end where
  /// another goes on.
  @Test func labelsAreOrderedByTheirBytes() {
    var generator = SplitMix64(seed: 71)
    let pieces = ["", "\u{0}", "a", "b", "Caller 1234567890", "Caller 12345678901", "é", "\u{FF61}", "😀", "z\u{0}"]
    var labels = Set(Self.oddLabels)
    while labels.count < 3_000 {
      labels.insert((0..<Int(1 + generator.next(below: 4))).map { _ in pieces[Int(generator.next(below: UInt64(pieces.count)))] }.joined())
    }
    let list = Array(labels)
    let expected = list.indices.sorted { list[$0].utf8.lexicographicallyPrecedes(list[$1].utf8) }
    #expect(IdentificationResolver.byteOrder(of: list, list.indices) == expected)
    let some = list.indices.filter { $0 % 3 == 0 }
    #expect(IdentificationResolver.byteOrder(of: list, some) == expected.filter { $0 % 3 == 0 })
  }

  @Test func aDamagedLabelRunIsASpillErrorNotACrash() throws {
    let workspace = try Workspace()
    let files = SpillFiles(directory: workspace.url.path)
    var resolver = IdentificationResolver()
    for index in 0..<200 {
      resolver.add(number: 12_125_550_000 + Int64(index), label: "Caller \(index % 7)", priority: 0, source: 0, line: index + 2)
    }
    try resolver.spill(to: files)
    let run = try #require(resolver.runs.first)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: run))
    try bytes.dropLast(5).write(to: URL(fileURLWithPath: run))
    #expect {
      _ = try resolver.resolveSpilled(conflicts: nil, files: files, bufferBytes: 1 << 12)
    } throws: { error in
      guard case CompileError.spill(let failure) = error else { return false }
      return failure.path == run
    }
  }

  /// Through the compiler: identify sources past a tiny limit give the
  /// snapshot, counts and contributions of an in-memory compile.
  @Test func aCompilePastTheLimitGivesTheInMemorySnapshot() throws {
    let workspace = try Workspace()
    var generator = SplitMix64(seed: 61)
    var specs: [String] = []
    for (index, priority) in [0, 3, 0].enumerated() {
      var text = "phone,name\n"
      for _ in 0..<6_000 {
        let label = generator.next(below: 5) == 0
          ? Self.oddLabels[Int(generator.next(below: UInt64(Self.oddLabels.count - 1))) + 1]
          : "Caller \(generator.next(below: 900))"
        text += "+1212555\(1000 + generator.next(below: 6000)),\(label)\n"
      }
      try workspace.write("names-\(index).csv", text)
      specs.append(
        #"{"path": "names-\#(index).csv", "format": "csv", "list": "identify", "number": "phone", "label": "name", "priority": \#(priority)}"#)
    }
    try workspace.write("block.txt", (0..<3_000).map { _ in "+1646555\(1000 + generator.next(below: 9000))\n" }.joined())
    specs.append(#"{"path": "block.txt", "format": "lines", "list": "block"}"#)
    try workspace.config(specs)
    let (inMemory, _) = try workspace.compile()
    #expect(inMemory.spilledIdentification == nil)
    let (spilled, _) = try workspace.compile(memoryLimit: 1)
    let entries = try #require(spilled.spilledIdentification)
    #expect(spilled.identification.isEmpty && spilled.labels.isEmpty)
    #expect(spilled.identificationPairs == inMemory.identificationPairs)
    #expect(spilled.identificationPairs.count == inMemory.identification.count)
    #expect(entries.labelCount == inMemory.labels.count)
    #expect(spilled.blockingNumbers == inMemory.blockingNumbers)
    var expected = inMemory.statistics
    expected.spilledRuns = spilled.statistics.spilledRuns
    #expect(spilled.statistics == expected)
    #expect(spilled.statistics.spilledRuns >= 4)
    #expect(inMemory.statistics.conflicts > 100)
    #expect(spilled.sources.map(\.contribution) == inMemory.sources.map(\.contribution))
  }
}
