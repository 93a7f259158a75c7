import CallDirectoryFormat
import Foundation
import SQLiteDatabase
import Testing

/// A regulator's file whose cells hold several numbers, wildcard blocks and
/// ranges (a Bundesnetzagentur-style measures list, UTF-8 with a byte-order
/// mark and CRLF lines), built with and without the keys that read them;
/// `explain` on what such cells give; the region `explain` reads inputs in.
@Suite struct CellCommandTests {
  static func fixture(_ name: String, _ ext: String) throws -> String {
    let url = try #require(Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Fixtures"))
    return try String(contentsOf: url, encoding: .utf8)
  }

  /// The fixture's rows as Python's `phonenumbers` reads them: each range
  /// given, and the lines that give none.
  static func expected() throws -> (numbers: Set<Int64>, rejectedLines: [Int]) {
    var numbers = Set<Int64>()
    var rejected: [Int] = []
    for line in try fixture("bnetza-massnahmen.expected", "tsv").split(separator: "\n") where !line.hasPrefix("#") {
      let fields = line.split(separator: "\t")
      if fields[0] == "rejected" {
        rejected.append(Int(fields[1]) ?? 0)
      } else if let first = Int64(fields[1]), let last = Int64(fields[2]) {
        numbers.formUnion(first...last)
      }
    }
    return (numbers, rejected)
  }

  struct Measures {
    let directory: TemporaryDirectory
    var store: String { directory.path("store") }
    var config: String { directory.path("calldir.json") }

    init(keys: String?, region: String = "DE") throws {
      directory = try TemporaryDirectory()
      try directory.write("massnahmen.csv", try CellCommandTests.fixture("bnetza-massnahmen", "csv"))
      try directory.write("calldir.json", """
        {"defaultRegion": "\(region)", "sources": [
          {"path": "massnahmen.csv", "format": "csv", "list": "block", "number": "Rufnummer"\(keys.map { ", " + $0 } ?? "")}
        ]}
        """)
    }

    func build(_ arguments: [String] = []) throws -> CalldirProcess.Result {
      try CalldirProcess.run(["build", "--config", config, "--store", store] + arguments)
    }
  }

  static let keys = #""numberSeparator": "|", "wildcard": "X", "rangeSeparator": " bis ""#

  @Test func theKeysReadTheRegulatorsFileAsLibphonenumberDoes() throws {
    let measures = try Measures(keys: Self.keys)
    let dryRun = try measures.build(["--dry-run", "--verbose"])
    #expect(dryRun.status == 0, "\(dryRun.standardError)")
    #expect(dryRun.standardOutput.contains(
      #"cells: massnahmen.csv (numberSeparator "|", wildcard "X", rangeSeparator " bis "): 13 cells held several "#
        + "numbers, 15 wildcard blocks, 8 ranges\n"), "\(dryRun.standardOutput)")
    let result = try measures.build(["--json"])
    #expect(result.status == 0, "\(result.standardError)")
    let object = try parseJSON(result.standardOutput)
    let source = try #require((object["sources"] as? [[String: Any]])?.first)
    let cells = try #require(source["cells"] as? [String: Any])
    #expect(cells["numberSeparator"] as? String == "|" && cells["wildcard"] as? String == "X")
    #expect(cells["rangeSeparator"] as? String == " bis ")
    #expect((cells["splitCells"] as? Int, cells["wildcardBlocks"] as? Int, cells["ranges"] as? Int) == (13, 15, 8))

    let (expected, rejectedLines) = try Self.expected()
    let snapshot = try Snapshot(contentsOf: measures.store + "/snapshots/snapshot-000001.cdir")
    #expect(snapshot.blocking.count == expected.count)
    #expect(Set(snapshot.blocking) == expected)
    let rejects = try String(contentsOfFile: measures.store + "/rejects/rejects-000001.txt", encoding: .utf8)
    let lines = rejects.split(separator: "\n").compactMap { Int($0.split(separator: ":")[1]) }
    #expect(lines == rejectedLines)
    #expect(!rejects.contains("regular expression"))
  }

  @Test func withoutTheKeysTheBuildIsRefusedAndTheReasonsNameThem() throws {
    let measures = try Measures(keys: nil)
    let result = try measures.build(["--json"])
    #expect(result.status == 65)
    let error = try #require(try parseJSON(result.standardOutput)["error"] as? [String: Any])
    #expect(error["kind"] as? String == "rejectRatio")
    #expect((error["message"] as? String)?.contains(
      #"set "numberSeparator", "wildcard" and "rangeSeparator" to read the cells that hold them"#) == true)
    let report = try #require(try parseJSON(result.standardOutput)["rejects"] as? String)
    let rejects = try String(contentsOfFile: report, encoding: .utf8)
    #expect(rejects.contains(
      "massnahmen.csv:3: several numbers in one cell ('|'); set \"numberSeparator\"\t14.03.2024,0137 9876544|"))
    #expect(rejects.contains("massnahmen.csv:5: a wildcard block in one cell ('XXX'); set \"wildcard\"\t"))
    #expect(rejects.contains("massnahmen.csv:10: a range in one cell (' bis '); set \"rangeSeparator\"\t"))
    #expect(!rejects.contains("regular expression"))
    #expect(!FileManager.default.fileExists(atPath: measures.store + "/snapshots/snapshot-000001.cdir"))
  }

  /// Most rows are numbers, most numbers are in blocks: refused by numbers,
  /// and `--json`'s guard counts numbers.
  @Test func aSourceThatLosesMostOfItsNumbersIsRefusedWhateverItsRows() throws {
    let directory = try TemporaryDirectory()
    let rows = (0..<40).map { "2024-01-01,030 12345\(String(format: "%02d", $0))" } + ["2024-01-02,0621 123XXX"]
    try directory.write("list.csv", "date,number\n" + rows.joined(separator: "\n") + "\n")
    try directory.write("calldir.json", """
      {"defaultRegion": "DE", "sources": [{"path": "list.csv", "format": "csv", "list": "block", "number": "number"}]}
      """)
    let result = try CalldirProcess.run([
      "build", "--config", directory.path("calldir.json"), "--store", directory.path("store"), "--dry-run", "--json",
    ])
    #expect(result.status == 65)
    #expect(result.standardError.contains(
      "error: dry run: the build would be refused: source list.csv: 1000 of the 1040 numbers its data lines hold "
        + "rejected (1 of 41 data lines), above maxRejectRatio 0.5: its cells hold several numbers, wildcard blocks "
        + #"or ranges; set "wildcard" to read the cells that hold them; nothing published"#), "\(result.standardError)")
    let guards = try #require(try parseJSON(result.standardOutput)["guards"] as? [[String: Any]])
    let check = try #require(guards.first { $0["kind"] as? String == "rejectRatio" })
    #expect((check["previous"] as? Int, check["current"] as? Int, check["passed"] as? Bool) == (1040, 1000, false))
  }

  @Test func explainShowsEachNumberOfACellAtItsLine() throws {
    let measures = try Measures(keys: Self.keys)
    #expect(try measures.build().status == 0)
    // National inputs are read in the store's defaultRegion, DE.
    let result = try CalldirProcess.run([
      "explain", "--store", measures.store, "--json", "0137 9876545", "0621 123456", "+49 1521 2345650", "0900 5123400",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let found = try result.lines.map { line in
      let object = try parseJSON(line)
      let sources = (object["sources"] as? [[String: Any]]) ?? []
      return "\(object["number"] ?? "") \(object["region"] ?? ""): "
        + sources.map { "\($0["path"] ?? ""):\($0["line"] ?? ""):\($0["kind"] ?? "")" }.joined(separator: " ")
    }
    #expect(found == [
      "491379876545 DE: massnahmen.csv:3:number", "49621123456 DE: massnahmen.csv:5:pattern",
      "4915212345650 DE: massnahmen.csv:10:range", "499005123400 DE: massnahmen.csv:12:range",
    ])
    let text = try CalldirProcess.run(["explain", "--store", measures.store, "0621 124 500"])
    #expect(text.standardOutput.contains("0621 124 500: 49621124500: version 1: blocked, no label\n"
      + "  block massnahmen.csv:6 (pattern)\n"), "\(text.standardOutput)")
  }

  /// A `lines` source is read in pieces on every core by the build and in
  /// one pass by `explain`: both find the same lines.
  @Test func aLinesSourceIsExplainedAsTheBuildReadIt() throws {
    let directory = try TemporaryDirectory()
    try directory.write("de.txt", "0621 123456 ::: 0621 654321\n0621 123XXX # a block\n0621 200000 bis 0621 200099\n")
    try directory.write("calldir.json", """
      {"defaultRegion": "DE", "sources": [{"path": "de.txt", "format": "lines", "list": "block",
        "numberSeparator": ":::", "wildcard": "X", "rangeSeparator": " bis "}]}
      """)
    let store = directory.path("store")
    let built = try CalldirProcess.run(["build", "--config", directory.path("calldir.json"), "--store", store, "--json"])
    #expect(built.status == 0, "\(built.standardError)")
    #expect((try parseJSON(built.standardOutput)["counts"] as? [String: Any])?["blocking"] as? Int == 2 + 1000 + 100 - 1)
    let result = try CalldirProcess.run(["explain", "--store", store, "0621 654321", "0621 123456", "0621 200050"])
    #expect(result.standardOutput == """
      0621 654321: 49621654321: version 1: blocked, no label
        block de.txt:1 (number)
      0621 123456: 49621123456: version 1: blocked, no label
        block de.txt:1 (number)
        block de.txt:2 (pattern)
      0621 200050: 49621200050: version 1: blocked, no label
        block de.txt:3 (range)

      """)
  }

  @Test func explainReadsNationalNumbersAsTheBuildDid() throws {
    let directory = try TemporaryDirectory()
    try directory.write("us.txt", "212-555-0142\n")
    try directory.write("gb.txt", "020 7946 0018\n")
    try directory.write("calldir.json", """
      {"defaultRegion": "US", "sources": [
        {"path": "us.txt", "format": "lines", "list": "block"},
        {"path": "gb.txt", "format": "lines", "list": "block", "region": "GB"}
      ]}
      """)
    let store = directory.path("store")
    #expect(try CalldirProcess.run(["build", "--config", directory.path("calldir.json"), "--store", store]).status == 0)
    let asBuilt = try CalldirProcess.run(["explain", "--store", store, "212-555-0142"])
    #expect(asBuilt.status == 0, "\(asBuilt.standardError)")
    #expect(asBuilt.standardOutput == "212-555-0142: 12125550142: version 1: blocked, no label\n  block us.txt:1 (number)\n")
    // --region overrides: in GB the same text is another number, or none.
    let british = try CalldirProcess.run(["explain", "--store", store, "--json", "020 7946 0018", "--region", "GB"])
    #expect(try parseJSON(british.lines[0])["blocked"] as? Bool == true)
    #expect(try parseJSON(british.lines[0])["region"] as? String == "GB")
    let none = try CalldirProcess.run(["explain", "--store", store, "212-555-0142", "--region", "ZZ"])
    #expect(none.status == 65)

    // A version recorded before the catalog kept it: its sources have two
    // regions, so inputs are read in none, and a note says so.
    let database = try Database(path: store + "/catalog.sqlite", mode: .readWrite)
    try database.execute(sql: "UPDATE snapshots SET default_region = NULL")
    let old = try CalldirProcess.run(["explain", "--store", store, "+1 212 555 0142"])
    #expect(old.status == 0)
    #expect(old.standardOutput.hasSuffix(
      "note: version 1 did not record the defaultRegion it was built with (built before catalog schema 5, or rebuilt "
        + "by calldir repair); national numbers are read in no region (ZZ), as its sources have several (GB, US) "
        + "(--region to choose)\n"), "\(old.standardOutput)")
    // One region among its sources: that one.
    try database.execute(sql: "UPDATE snapshot_sources SET region = 'US'")
    let shared = try CalldirProcess.run(["explain", "--store", store, "--json", "212-555-0142"])
    let object = try parseJSON(shared.lines[0])
    #expect(object["number"] as? Int == 12_125_550_142 && object["region"] as? String == "US")
    #expect((object["regionNote"] as? String)?.hasSuffix(
      "national numbers are read in US, the region of all its sources (--region to choose)") == true)
  }

  @Test func aPatternOfNoPossibleNumberIsRejectedAsLinesRejectsIt() throws {
    let directory = try TemporaryDirectory()
    try directory.write("short.txt", "3950\n33162######\n")
    try directory.write("short-lines.txt", "+3950\n+33 1 62 00 00 01\n")
    try directory.write("calldir.json", """
      {"maxRejectRatio": 1, "sources": [
        {"path": "short.txt", "format": "patterns", "list": "block"},
        {"path": "short-lines.txt", "format": "lines", "list": "block"}
      ]}
      """)
    let result = try CalldirProcess.run([
      "build", "--config", directory.path("calldir.json"), "--store", directory.path("store"), "--json",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let report = try #require(try parseJSON(result.standardOutput)["rejects"] as? String)
    #expect(try String(contentsOfFile: report, encoding: .utf8) == "short.txt:1: too short\t3950\nshort-lines.txt:1: too short\t+3950\n")
  }

  @Test func anUnknownDefaultRegionIsReportedAtDefaultRegion() throws {
    let directory = try TemporaryDirectory()
    try directory.write("block.txt", "020 7946 0018\n")
    try directory.write(
      "calldir.json", #"{"defaultRegion": "UK", "sources": [{"path": "block.txt", "format": "lines", "list": "block"}]}"#)
    let result = try CalldirProcess.run([
      "build", "--config", directory.path("calldir.json"), "--store", directory.path("store"),
    ])
    #expect(result.status == 65)
    #expect(result.standardError == "error: defaultRegion: unknown region 'UK' "
      + "(expected an ISO 3166 code such as US, or ZZ); did you mean 'GB'?\n")
  }
}
