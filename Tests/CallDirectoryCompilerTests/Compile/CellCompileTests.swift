import Foundation
import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectorySources
@testable import CallDirectoryStore

/// Cells of several numbers, wildcard blocks and ranges through the
/// compiler: read with the keys, refused without them; patterns of no
/// possible number; the region key a config error names.
@Suite struct CellCompileTests {
  /// A Bundesnetzagentur-style measures list; the numbers each row gives
  /// were read with Python's `phonenumbers` in DE.
  static let measures = """
    Bescheid vom,Rufnummer,Kategorie,Maßnahme
    14.03.2024,0137 9876544|0137 9876545,Gewinnspiel,Abschaltung
    08.03.2024,0621 123XXX,Ping-Anrufe,Abschaltung
    20.02.2024,01521 2345600 bis 01521 2345699,Spam-SMS,Rechnungslegungs- und Inkassierungsverbot
    15.02.2024,0049 30 1234567,Fax-Spam,Abschaltung
    15.02.2024,"+49 (0)30 1234569 | 089 4567XX",Fax-Spam,Abschaltung
    05.02.2024,Rufnummern gemäß Anlage,Spam,Abschaltung

    """
  static let expected: [ClosedRange<Int64>] = [
    491_379_876_544...491_379_876_545, 49_621_123_000...49_621_123_999, 4_915_212_345_600...4_915_212_345_699,
    49_301_234_567...49_301_234_567, 49_301_234_569...49_301_234_569, 4_989_456_700...4_989_456_799,
  ]
  static let keys = #""numberSeparator": "|", "wildcard": "X", "rangeSeparator": " bis ""#

  func compile(_ text: String, name: String = "measures.csv", source: String) throws -> (CompiledSnapshot, [String]) {
    let workspace = try Workspace()
    try workspace.write(name, text)
    try workspace.config([source], extra: #""maxRejectRatio": 1,"#)
    return try workspace.compile()
  }

  @Test func theKeysReadEveryNumberBlockAndRangeAsLibphonenumberDoes() throws {
    let (snapshot, rejects) = try compile(
      Self.measures,
      source: #"{"path": "measures.csv", "format": "csv", "list": "block", "region": "DE", "number": "Rufnummer", \#(Self.keys)}"#)
    #expect(snapshot.blockingNumbers == Self.expected.flatMap { Array($0) }.sorted())
    #expect(rejects == ["measures.csv:7: not a phone number\t05.02.2024,Rufnummern gemäß Anlage,Spam,Abschaltung"])
    let report = try #require(snapshot.sources.first)
    #expect(report.summary.cells == CellCounts(splitCells: 2, wildcardBlocks: 2, ranges: 1))
    #expect(report.accepted == 7)
    #expect(report.acceptedNumbers == 2 + 1000 + 100 + 1 + 1 + 100)
    #expect(report.rejectedNumbers == 1)
    // Blocks and ranges are kept whole, never expanded.
    #expect(snapshot.blocking.inMemory?.ranges.contains(49_621_123_000...49_621_123_999) == true)
  }

  @Test func aLinesSourceReadInPiecesGivesTheSameNumbers() throws {
    let lines = """
      0137 9876544|0137 9876545
      0621 123XXX # a block
      01521 2345600 bis 01521 2345699
      0049 30 1234567
      +49 (0)30 1234569 | 089 4567XX
      Rufnummern gemäß Anlage

      """
    let (snapshot, rejects) = try compile(
      lines, name: "measures.txt",
      source: #"{"path": "measures.txt", "format": "lines", "list": "block", "region": "DE", \#(Self.keys)}"#)
    #expect(snapshot.blockingNumbers == Self.expected.flatMap { Array($0) }.sorted())
    #expect(rejects == ["measures.txt:6: not a phone number\tRufnummern gemäß Anlage"])
    #expect(snapshot.sources.first?.summary.cells == CellCounts(splitCells: 2, wildcardBlocks: 2, ranges: 1))
    #expect(snapshot.sources.first?.acceptedNumbers == 1204)
  }

  @Test func withoutTheKeysEachCellIsRejectedAndCountedAsItsNumbers() throws {
    let (snapshot, rejects) = try compile(
      Self.measures,
      source: #"{"path": "measures.csv", "format": "csv", "list": "block", "region": "DE", "number": "Rufnummer"}"#)
    #expect(snapshot.blockingNumbers == [49_301_234_567])
    #expect(rejects.map { $0.prefix { $0 != "\t" } } == [
      #"measures.csv:2: several numbers in one cell ('|'); set "numberSeparator""#,
      #"measures.csv:3: a wildcard block in one cell ('XXX'); set "wildcard""#,
      #"measures.csv:4: a range in one cell (' bis '); set "rangeSeparator""#,
      #"measures.csv:6: several numbers in one cell ('|'); set "numberSeparator" (and "wildcard")"#,
      "measures.csv:7: not a phone number",
    ])
    let report = try #require(snapshot.sources.first)
    #expect(report.rejected == 5)
    #expect(report.rejectedNumbers == 2 + 1000 + 100 + 101 + 1)
    let check = BuildGuards(config: BuildConfig(), previous: nil).rejectCheck(report)
    #expect(check.refusal?.message == "source measures.csv: 5 of 6 data lines rejected, above maxRejectRatio 0.5 "
      + #"(check the source's region and format; set "numberSeparator", "wildcard" and "rangeSeparator" to read "#
      + "the cells that hold them); nothing published")
  }

  /// Most lines are numbers, but most numbers are in the cells lost: the
  /// guard counts numbers, and names the key.
  @Test func aSourceThatLosesMostOfItsNumbersIsRefusedWhateverItsLines() throws {
    let lines = (0..<20).map { "+49 30 12345\(String(format: "%02d", $0))" } + ["0621 123XXX"]
    let (snapshot, rejects) = try compile(
      lines.joined(separator: "\n") + "\n", name: "de.txt",
      source: #"{"path": "de.txt", "format": "lines", "list": "block", "region": "DE"}"#)
    #expect(rejects.count == 1)
    let report = try #require(snapshot.sources.first)
    #expect((report.summary.dataLines, report.rejected, report.acceptedNumbers, report.rejectedNumbers) == (21, 1, 20, 1000))
    let check = BuildGuards(config: BuildConfig(), previous: nil).rejectCheck(report)
    #expect((check.previous, check.current) == (1020, 1000))
    #expect(check.refusal?.message == "source de.txt: 1000 of the 1020 numbers its data lines hold rejected "
      + "(1 of 21 data lines), above maxRejectRatio 0.5: its cells hold several numbers, wildcard blocks or ranges; "
      + #"set "wildcard" to read the cells that hold them; nothing published"#)
    // With the key the source gives them all.
    let (kept, none) = try compile(
      lines.joined(separator: "\n") + "\n", name: "de.txt",
      source: #"{"path": "de.txt", "format": "lines", "list": "block", "region": "DE", "wildcard": "X"}"#)
    #expect(none.isEmpty)
    #expect(kept.statistics.blocking == 1020)
    #expect(BuildGuards(config: BuildConfig(), previous: nil).rejectCheck(try #require(kept.sources.first)).passed)
  }

  @Test func aPatternOfNoPossibleNumberIsRejectedWithLibphonenumbersReason() throws {
    let text = "3950\n+3950\n1#\n28#######\n33162######\n3#########\n41215030004\n"
    let (snapshot, rejects) = try compile(
      text, name: "ranges.txt", source: #"{"path": "ranges.txt", "format": "patterns", "list": "block"}"#)
    #expect(rejects == [
      "ranges.txt:1: too short\t3950", "ranges.txt:2: too short\t+3950",
      "ranges.txt:3: too short after international prefix\t1#",
      "ranges.txt:4: invalid country calling code\t28#######",
    ])
    // 3######### spans +30…+39: some of those codes have 9-digit numbers.
    #expect(snapshot.statistics.blocking == 1_000_000 + 1_000_000_000 + 1)
  }

  static func failure(_ workspace: Workspace) -> String? {
    do {
      _ = try workspace.compile()
      return nil
    } catch {
      return "\(error)"
    }
  }

  @Test func anUnknownDefaultRegionIsTheConfigsKey() throws {
    let workspace = try Workspace()
    try workspace.write("a.txt", "020 7946 0018\n")
    try workspace.write(
      "calldir.json", #"{"defaultRegion": "UK", "sources": [{"path": "a.txt", "format": "lines", "list": "block"}]}"#)
    #expect(Self.failure(workspace) == "defaultRegion: unknown region 'UK' (expected an ISO 3166 code such as US, or ZZ); "
      + "did you mean 'GB'?")
    try workspace.write(
      "calldir.json",
      #"{"defaultRegion": "GB", "sources": [{"path": "a.txt", "format": "lines", "list": "block", "region": "UK"}]}"#)
    #expect(Self.failure(workspace)?.hasPrefix("sources[0].region: unknown region 'UK'") == true)
    // A region the config sets but no source takes is not read.
    try workspace.write(
      "calldir.json",
      #"{"defaultRegion": "UK", "sources": [{"path": "a.txt", "format": "lines", "list": "block", "region": "GB"}]}"#)
    #expect(Self.failure(workspace) == nil)
  }
}
