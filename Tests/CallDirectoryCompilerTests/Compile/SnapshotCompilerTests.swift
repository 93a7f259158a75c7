import FormatFixtures
import Foundation
import PhoneNumbers
import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectorySources
@testable import CallDirectoryStore

@Suite struct SnapshotCompilerTests {
  @Test func normalizesSortsAndDeduplicatesPerRegion() throws {
    let workspace = try Workspace()
    try workspace.write("gb.txt", "020 7946 0018\n+44 20 7946 0018 # same\n07700 900123\n")
    try workspace.write("us.txt", "(212) 555-0100\n212-555-0100\n")
    try workspace.config([
      #"{"path": "gb.txt", "format": "lines", "list": "block", "region": "GB"}"#,
      #"{"path": "us.txt", "format": "lines", "list": "block"}"#,
    ])
    let (snapshot, rejects) = try workspace.compile()
    #expect(snapshot.blockingNumbers == [12_125_550_100, 442_079_460_018, 447_700_900_123])
    #expect(rejects.isEmpty)
    #expect(snapshot.statistics.duplicates == 2)
  }

  @Test func rejectsAreReportedWithFileAndLine() throws {
    let workspace = try Workspace()
    try workspace.write("block.txt", "# header\n2125550100\nnonsense\n\n+999 123\n2125550101\n2125550102\n")
    try workspace.config([#"{"path": "block.txt", "format": "lines", "list": "block"}"#])
    let (snapshot, rejects) = try workspace.compile()
    #expect(rejects == ["block.txt:3: not a phone number\tnonsense", "block.txt:5: invalid country calling code\t+999 123"])
    #expect(snapshot.statistics.rejected == 2)
    #expect(snapshot.sources[0].summary.dataLines == 5)
    #expect(snapshot.sources[0].accepted == 3)
  }

  @Test func aSourceWithTooManyRejectsIsReadWholeAndRefusedByItsGuard() throws {
    let workspace = try Workspace()
    // A source in the wrong format: most lines are no numbers at all.
    try workspace.write("block.txt", "Name;Number\nACME;;\nnone\n+44 20 7946 0999\n")
    try workspace.config([#"{"path": "block.txt", "format": "lines", "list": "block", "region": "DE"}"#], extra: #""maxRejectRatio": 0.5,"#)
    let (snapshot, rejects) = try workspace.compile()
    #expect(rejects.count == 3)
    let config = try BuildConfig.load(contentsOf: workspace.path("calldir.json"))
    let checks = BuildGuards(config: config, previous: nil).sourceChecks(snapshot.sources)
    let refusal = try #require(checks.first?.refusal)
    #expect(refusal.kind == .rejectRatio)
    #expect(refusal.source == "block.txt")
    #expect(refusal.message.hasPrefix("source block.txt: 3 of 4 data lines rejected, above maxRejectRatio 0.5"))
  }

  @Test func labelConflictsFollowPriorityThenSourceThenLine() throws {
    let workspace = try Workspace()
    try workspace.write("a.csv", "phone,name\n2125550100,First A\n2125550101,A only\n2125550102,Same\n2125550103,Line one\n2125550103,Line two\n")
    try workspace.write("b.csv", "phone,name\n2125550100,Second B\n2125550102,Same\n")
    try workspace.write("c.csv", "phone,name\n2125550101,Priority C\n")
    try workspace.config([
      #"{"path": "a.csv", "format": "csv", "list": "identify", "number": "phone", "label": "name"}"#,
      #"{"path": "b.csv", "format": "csv", "list": "identify", "number": "phone", "label": "name"}"#,
      #"{"path": "c.csv", "format": "csv", "list": "identify", "number": "phone", "label": "name", "priority": 5}"#,
    ])
    let (snapshot, _) = try workspace.compile()
    #expect(snapshot.identificationPairs == [
      "12125550100=First A", "12125550101=Priority C", "12125550102=Same", "12125550103=Line one",
    ])
    // 100 (A vs B), 101 (A vs C), 103 (two lines); 102 has one label twice.
    #expect(snapshot.statistics.conflicts == 3)
    #expect(snapshot.labels == ["First A", "Line one", "Priority C", "Same"])
  }

  @Test func labelsAreCleanedAndEmptyOnesRejected() throws {
    let workspace = try Workspace()
    let text = "phone,name\n2125550100,\"  Bank\u{202E}kciN  \t Fraud \"\n2125550101,\"\u{200E}\u{200F}\"\n2125550102,🚫 scam\n2125550103,e\u{301}cole\n"
    try workspace.write("names.csv", text)
    try workspace.config([#"{"path": "names.csv", "format": "csv", "list": "identify", "number": "phone", "label": "name"}"#])
    let (snapshot, rejects) = try workspace.compile()
    #expect(snapshot.identificationPairs == ["12125550100=BankkciN Fraud", "12125550102=🚫 scam", "12125550103=\u{E9}cole"])
    #expect(rejects.count == 1)
    #expect(rejects.first == "names.csv:3: label is empty after cleanup\t2125550101,\"\\u200E\\u200F\"")
  }

  @Test func allowlistsRemoveBlockingOnlyAndCutRanges() throws {
    let workspace = try Workspace()
    try workspace.write("ranges.txt", "1212555010#\n12125550200-12125550299\n")
    try workspace.write("block.txt", "2125550300\n")
    try workspace.write("names.csv", "phone,name\n2125550105,Kept\n")
    try workspace.write("allow.txt", "2125550105\n2125550300\n")
    try workspace.write("allow-ranges.txt", "12125550250-12125550298\n")
    try workspace.config([
      #"{"path": "ranges.txt", "format": "patterns", "list": "block"}"#,
      #"{"path": "block.txt", "format": "lines", "list": "block"}"#,
      #"{"path": "names.csv", "format": "csv", "list": "identify", "number": "phone", "label": "name"}"#,
      #"{"path": "allow.txt", "format": "lines", "list": "allow"}"#,
      #"{"path": "allow-ranges.txt", "format": "patterns", "list": "allow"}"#,
    ])
    let (snapshot, _) = try workspace.compile()
    let expected = (Int64(12_125_550_100)...12_125_550_109).filter { $0 != 12_125_550_105 }
      + Array(Int64(12_125_550_200)...12_125_550_249) + [12_125_550_299]
    #expect(snapshot.blockingNumbers == expected)
    #expect(snapshot.statistics.allowed == 2 + 49)
    #expect(snapshot.identificationPairs == ["12125550105=Kept"])
  }

  @Test func anUnknownRegionIsAConfigError() throws {
    let workspace = try Workspace()
    try workspace.write("block.txt", "2125550100\n")
    try workspace.config([#"{"path": "block.txt", "format": "lines", "list": "block", "region": "QQ"}"#])
    #expect(throws: CompileError.self) { try workspace.compile() }
  }
}

@Suite struct NumberSetTests {
  @Test func mergesRangesAndDropsCoveredSingles() {
    let set = NumberSet(singles: [5, 1, 12, 5, 20], ranges: [10...15, 14...18, 19...19])
    #expect(set.singles == [1, 5, 20])
    #expect(set.ranges == [10...19])
    #expect(set.count == 13)
    var all: [Int64] = []
    set.forEach { all.append($0) }
    #expect(all == [1, 5] + Array(10...20))
  }

  @Test func subtractingCutsRangesExactly() {
    let set = NumberSet(singles: [3, 50], ranges: [10...20, 30...40])
    let allow = NumberSet(singles: [3, 10, 15, 40], ranges: [18...32])
    let (result, removed) = set.subtracting(allow)
    var all: [Int64] = []
    result.forEach { all.append($0) }
    #expect(all == Array(11...14) + Array(16...17) + Array(33...39) + [50])
    #expect(removed == 1 + 1 + 1 + 3 + 3 + 1)
  }

  @Test func radixSortMatchesSort() {
    var generator = SystemRandomNumberGenerator()
    var values = (0..<5000).map { _ in Int64.random(in: 1...999_999_999_999_999, using: &generator) }
    values += values.prefix(100)
    var sorted = values
    RadixSort.sortAndDeduplicate(&sorted)
    #expect(sorted == Array(Set(values)).sorted())
  }

  @Test func presortedReversedAndAlmostSortedInputsSortAndDeduplicate() {
    let ascending = (0..<3000).map { Int64(41_210_000_000 + $0 / 3) }  // with repeats
    let shapes: [[Int64]] = [
      ascending,
      ascending.reversed(),
      ascending + [41_200_000_000],  // sorted but for the last value
      [41_200_000_000] + ascending.reversed(),  // reversed but for the first
      Array(repeating: 33_100_000_000, count: 500),
    ]
    for values in shapes {
      var sorted = values
      let removed = RadixSort.sortAndDeduplicate(&sorted)
      #expect(sorted == Array(Set(values)).sorted())
      #expect(removed == values.count - Set(values).count)
    }
  }

  /// Lists sorted as text (by each number's digits), either way round,
  /// with repeats and numbers of many lengths, sort exactly; one out of
  /// place still sorts (by the radix passes).
  @Test func listsSortedAsTextSortAndDeduplicate() {
    var generator = SplitMix64(seed: 9)
    var values = (0..<20_000).map { _ in
      Int64(generator.next(below: 1 << UInt64(10 + generator.next(below: 40))))
    }
    values += values.prefix(2000)
    let asText = values.sorted { String($0).utf8.lexicographicallyPrecedes(String($1).utf8) }
    #expect(asText != values.sorted())
    var outOfPlace = asText
    outOfPlace.swapAt(100, 15_000)
    for shape in [asText, Array(asText.reversed()), outOfPlace] {
      var sorted = shape
      let removed = RadixSort.sortAndDeduplicate(&sorted)
      #expect(sorted == Array(Set(values)).sorted())
      #expect(removed == values.count - Set(values).count)
    }
    // Cut into stretches on several cores: each length ordered within
    // every stretch but one turned round in the second half is no text order.
    let unique = Array(Set(values)).sorted()
    for parts in [2, 3, 7] {
      for shape in [asText, Array(asText.reversed())] {
        var sorted = shape
        #expect(TextOrder.sortIfOrderedByLength(&sorted, parts: parts))
        #expect(sorted == values.sorted())
      }
      var halves = Array(asText[..<(asText.count / 2)]) + asText[(asText.count / 2)...].reversed()
      #expect(!TextOrder.sortIfOrderedByLength(&halves, parts: parts))
      // A number too long for a text key: sorted by the radix passes.
      var tooLong = asText + [1_000_000_000_000_000_000]
      #expect(!TextOrder.sortIfOrderedByLength(&tooLong, parts: parts))
      var sorted = asText
      RadixSort.sort(&sorted, parts: parts)
      #expect(Array(Set(sorted)).sorted() == unique)
    }
    for value: Int64 in [0, 1, 9, 10, 99, 100, 999_999, 1_000_000, 999_999_999_999_999_999, Int64.max] {
      #expect(TextOrder.digitCount(value) == (value == 0 ? 0 : String(value).count))
    }
  }

  /// Large inputs go through the buckets of the top bits: uniform, skewed
  /// into one cell, few distinct values, with bytes alike below the top,
  /// and at both ends of the range.
  @Test func bucketedRadixSortMatchesSort() {
    var generator = SplitMix64(seed: 8)
    let count = RadixSort.bucketThreshold * 3
    let shapes: [[Int64]] = [
      (0..<count).map { _ in Int64(1 + generator.next(below: 1 << 40)) },
      (0..<count).map { index in index % 100 == 0 ? Int64(1 + generator.next(below: 1 << 45)) : 44_000_000_000 + Int64(generator.next(below: 5000)) },
      (0..<count).map { _ in Int64(generator.next(below: 3)) * 1_000_000_007 },
      (0..<count).map { _ in Int64(generator.next(below: 1 << 12)) << 30 | 0x1234 },
      (0..<count).map { _ in 7 + Int64(generator.next(below: 2000)) },
      (0..<count).map { index in index % 2 == 0 ? Int64.max - Int64(generator.next(below: 1 << 20)) : Int64(index) },
    ]
    for values in shapes {
      for parts in [1, 2, 3] {
        var sorted = values
        RadixSort.sort(&sorted, parts: parts)
        #expect(sorted == values.sorted(), "\(parts) parts")
        // In order already, either way round (an odd count keeps a middle).
        for ordered in [values.sorted(), values.sorted(by: >), Array(values.sorted(by: >).dropFirst())] {
          var again = ordered
          RadixSort.sort(&again, parts: parts)
          #expect(again == ordered.sorted(), "\(parts) parts, \(ordered.count) in order")
        }
      }
    }
  }

  /// Large inputs are compacted a stretch per core: repeats across the
  /// stretch boundaries (and a stretch that is all one value) still go.
  @Test func parallelDeduplicationJoinsStretches() {
    let count = RadixSort.parallelThreshold + 4097
    for middle in [count / 2 - 2, count / 2 - 1, count / 2, count / 2 + 1] {
      var values = (0..<count).map { Int64(1_000 + $0 / 3) }
      for index in (middle - 5)...(middle + 5) { values[index] = values[middle - 5] }
      var deduplicated = values
      let removed = RadixSort.sortAndDeduplicate(&deduplicated)
      #expect(deduplicated == Array(Set(values)).sorted(), "middle \(middle)")
      #expect(removed == values.count - Set(values).count)
    }
    var constant = [Int64](repeating: 42, count: count)
    #expect(RadixSort.sortAndDeduplicate(&constant) == count - 1)
    #expect(constant == [42])
  }

  @Test func parallelRadixSortMatchesSortOnSkewedInputs() {
    var generator = SplitMix64(seed: 5)
    let count = 30_000
    let shapes: [[Int64]] = [
      (0..<count).map { _ in Int64(1 + generator.next(below: 1 << 50)) },
      (0..<count).map { _ in 12_125_550_000 },
      (0..<count).map { index in index % 10 == 0 ? Int64(1 + generator.next(below: 1 << 40)) : 44_000_000_000 + Int64(index % 7) },
      (0..<count).map { index in Int64(count - index) },
    ]
    for values in shapes {
      for parts in [2, 3, 8] {
        var sorted = values
        RadixSort.sort(&sorted, parts: parts)
        #expect(sorted == values.sorted(), "\(parts) parts")
      }
    }
  }
}

/// Large line-by-line sources are cut into pieces read on several cores;
/// the result must be what one sequential pass gives.
@Suite struct ParallelReadingTests {
  @Test func piecesGiveTheSameNumbersRejectsAndCountsAsOnePass() throws {
    var generator = SplitMix64(seed: 7)
    var text = "\u{FEFF}# a list big enough for many pieces\n"
    for index in 0..<200_000 {
      switch Int.random(in: 0..<50, using: &generator) {
      case 0: text += "nonsense \(index)\n"
      case 1: text += "\n"
      case 2: text += "+999 \(index)\r\n"
      case 3: text += "212-555-\(1000 + index % 9000) # comment\n"
      default: text += "+1 212 \(200 + index % 700) \(1000 + index % 9000)\n"
      }
    }
    text += "2125550199"  // no final line feed
    #expect(try checkAgainstOnePass(text) > 1000)
  }

  /// Runs of `+` and digits lines, read four at a time where the CPU can
  /// and one at a time otherwise, ended by line feeds, by carriage returns
  /// and line feeds, or by both in turn, broken by lines of another
  /// length or country, with a stray carriage return or a letter.
  @Test(arguments: [["\n"], ["\r\n"], ["\r\n", "\n", "\n"]])
  func runsOfBareNumbersGiveWhatOnePassGives(endings: [String]) throws {
    var generator = SplitMix64(seed: 11)
    var text = ""
    var index = 0
    for _ in 0..<12_000 {
      let stem = ["+1212555", "+1646555", "+4420794", "+3314253", "+49301234"][Int(generator.next(below: 5))]
      for _ in 0..<(1 + Int(generator.next(below: 40))) {
        text += stem + String(generator.next(below: 10_000) + 10_000).dropFirst() + endings[index % endings.count]
        index += 1
      }
      let spoilers = [stem + "12\r", stem + "1234\r", stem + "12345", stem + "1a34", "+1212555", "", "# note"]
      text += spoilers[Int(generator.next(below: UInt64(spoilers.count)))] + endings[index % endings.count]
      index += 1
    }
    #expect(try checkAgainstOnePass(text) > 1000)
  }

  /// Builds `text` as a `lines` source of region US, read in pieces on
  /// every core, and checks its numbers, rejects and counts against one
  /// sequential pass through the reader and the normalizer; returns how
  /// many lines were rejected.
  private func checkAgainstOnePass(_ text: String) throws -> Int {
    let workspace = try Workspace()
    try workspace.write("block.txt", text)
    // Most 212-555-XXXX numbers are not valid; the wrong-region guard is not
    // what this test is about.
    try workspace.config([#"{"path": "block.txt", "format": "lines", "list": "block", "maxInvalidRatio": 1}"#])
    let (snapshot, rejects) = try workspace.compile()

    // One sequential pass through the reader and the normalizer.
    let path = "block.txt"
    let normalizer = PhoneNumberNormalizer()
    let region = normalizer.plan.region("US")
    var expectedNumbers: Set<Int64> = []
    var expectedRejects: [String] = []
    let summary = try LinesSourceReader(input: .file(path: workspace.path("block.txt"))).read { event in
      switch event {
      case .record(let record):
        switch normalizer.normalize(utf8: record.numberBytes, region: region) {
        case .success(let number): expectedNumbers.insert(number)
        case .failure(let rejection):
          expectedRejects.append("\(path):\(record.line): \(rejection.description)\t\(record.reportedText)")
        }
      case .issue(let issue): expectedRejects.append("\(path):\(issue.line): \(issue.reason)\t\(issue.text ?? "")")
      case .range: Issue.record("no ranges in a lines source")
      }
    }
    #expect(rejects == expectedRejects)
    #expect(snapshot.blockingNumbers == expectedNumbers.sorted())
    #expect(snapshot.sources[0].summary == summary)
    #expect(snapshot.sources[0].accepted + snapshot.sources[0].rejected == summary.dataLines)
    try expectTheSameAsEvents(workspace, snapshot, rejects)
    return rejects.count
  }

  /// Checks that `workspace` read as events (``EventBatches``) gives the
  /// `snapshot` and `rejects` its line-by-line sources gave read in
  /// pieces of lines (``LinePieces``): numbers, ranges, rejects in order,
  /// every count of every source.
  private func expectTheSameAsEvents(
    _ workspace: Workspace, _ snapshot: CompiledSnapshot, _ rejects: [String], memoryLimit: Int? = nil
  ) throws {
    let (events, eventRejects) = try workspace.compile(memoryLimit: memoryLimit, readingLinesInPieces: false)
    #expect(eventRejects == rejects)
    #expect(events.blockingNumbers == snapshot.blockingNumbers)
    #expect(events.blocking.inMemory?.ranges == snapshot.blocking.inMemory?.ranges)
    // Runs spill where the numbers come in: pieces and batches differ.
    var statistics = events.statistics
    statistics.spilledRuns = snapshot.statistics.spilledRuns
    #expect(statistics == snapshot.statistics)
    #expect(events.sources == snapshot.sources)
  }

  /// Every kind of line a line-by-line source may hold, in `lines` and
  /// `patterns` sources, with cell rules and number rules: read in pieces
  /// (regular files in stretches, a file with CR line ends streamed) and
  /// read as events, the same snapshot and rejects.
  @Test func linePiecesAndEventsGiveTheSameSnapshotAndRejects() throws {
    var generator = SplitMix64(seed: 23)
    var lines = "\u{FEFF}# measures\n"
    var patterns = "# patterns\n"
    for index in 0..<40_000 {
      let tail = String(10_000 + index % 9000).dropFirst()
      switch Int(generator.next(below: 24)) {
      case 0: lines += "Rufnummern gemäß Anlage \(index)\n"
      case 1: lines += "0137 987\(tail)|0137 9876545\n"
      case 2: lines += "0621 12\(tail.prefix(1))XXX # a block\n"
      case 3: lines += "01521 23\(tail.prefix(2))00 bis 01521 23\(tail.prefix(2))99\n"
      case 4: lines += "01521 2345600 bis 01521 2345599\n"
      case 5: lines += "+1 800 275 \(tail)\r\n"
      case 6: lines += String(repeating: "9", count: 300) + "\n"
      case 7: lines += "+49 (0)30 12\(tail) | 089 45\(tail.prefix(2))XX\n"
      default: lines += "+4930\(tail)\(index % 97)\n"
      }
      switch Int(generator.next(below: 12)) {
      case 0: patterns += "3950\n"
      case 1: patterns += "+4930\(tail)##\n"
      case 2: patterns += "+4930\(tail)00-+4930\(tail)99\n"
      case 3: patterns += "+4930######\n"
      case 4: patterns += "nonsense\n"
      default: patterns += "+4930\(tail)\(index % 89)\n"
      }
    }
    let workspace = try Workspace()
    try workspace.write("measures.txt", lines)
    try workspace.write("patterns.txt", patterns)
    try workspace.write("cr.txt", lines.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r"))
    try workspace.config([
      #"{"path": "measures.txt", "format": "lines", "list": "block", "region": "DE", "maxInvalidRatio": 1, "#
        + #""numberSeparator": "|", "wildcard": "X", "rangeSeparator": " bis ", "types": ["fixedLine", "mobile", "fixedLineOrMobile"]}"#,
      #"{"path": "patterns.txt", "format": "patterns", "list": "allow"}"#,
      #"{"path": "cr.txt", "format": "lines", "list": "block", "region": "DE", "maxInvalidRatio": 1}"#,
    ], extra: #""maxRangeSize": 1000,"#)
    let (snapshot, rejects) = try workspace.compile()
    #expect(rejects.count > 1000)
    #expect(snapshot.sources[0].typeFiltered > 0)
    try expectTheSameAsEvents(workspace, snapshot, rejects)
    // Spilling past a memory limit too.
    let (spilled, spilledRejects) = try workspace.compile(memoryLimit: 1 << 20)
    #expect(spilledRejects == rejects)
    try expectTheSameAsEvents(workspace, spilled, spilledRejects, memoryLimit: 1 << 20)
  }

  /// A regular file in UTF-16, or with lines that end in CR alone, is read
  /// as it streams rather than cut into stretches: the same numbers and
  /// rejects as its UTF-8 twin with LFs.
  @Test func aUTF16OrCarriageReturnFileCompilesAsItsUTF8Twin() throws {
    let text = "+44 20 7946 0018\r\n020 7946 0019\r\nnonsense\r\n"
    var results: [([Int64], [String])] = []
    let twins = [
      Array(text.utf8), UnicodeEncodingForm.utf16LE.encode("\u{FEFF}" + text),
      Array(text.replacingOccurrences(of: "\r\n", with: "\r").utf8),
    ]
    for bytes in twins {
      let workspace = try Workspace()
      try Data(bytes).write(to: workspace.url.appendingPathComponent("list.txt"))
      try workspace.config([#"{"path": "list.txt", "format": "lines", "list": "block", "region": "GB"}"#])
      let (snapshot, rejects) = try workspace.compile()
      #expect(snapshot.sources[0].summary.bytes == bytes.count)
      results.append((snapshot.blockingNumbers, rejects))
    }
    #expect(results[0].0 == [442_079_460_018, 442_079_460_019])
    #expect(results[0].1 == ["list.txt:3: not a phone number\tnonsense"])
    for result in results.dropFirst() { #expect(result.0 == results[0].0 && result.1 == results[0].1) }
  }
}
