import Foundation
import Testing

/// No input makes a command work longer than its output justifies.
@Suite struct BoundedWorkTests {
  @Test func aRangeLargerThanMaxRangeSizeIsARejectWithItsReason() throws {
    let directory = try TemporaryDirectory()
    try directory.write("ranges.txt", "1##############\n33162000###\n41212130000-41212139999\n")
    try directory.write("calldir.json", """
      {"maxRangeSize": 5000, "maxRejectRatio": 1, "sources": [{"path": "ranges.txt", "format": "patterns", "list": "block"}]}
      """)
    let store = directory.path("store")
    let result = try CalldirProcess.run(["build", "--config", directory.path("calldir.json"), "--store", store, "--json"])
    #expect(result.status == 0, "\(result.standardError)")
    let object = try parseJSON(result.standardOutput)
    let report = try #require(object["rejects"] as? String)
    let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").map(String.init)
    #expect(lines == [
      "ranges.txt:1: range of 100000000000000 numbers is larger than maxRangeSize 5000 (split it, or raise maxRangeSize)\t1##############",
      "ranges.txt:3: range of 10000 numbers is larger than maxRangeSize 5000 (split it, or raise maxRangeSize)\t41212130000-41212139999",
    ])
    #expect((object["counts"] as? [String: Int])?["blocking"] == 1000)
    // explain does not name a line the build rejected.
    let explained = try CalldirProcess.run(["explain", "--store", store, "--json", "+41212130001"])
    let sources = try #require(try parseJSON(explained.lines[0])["sources"] as? [Any])
    #expect(sources.isEmpty)
  }

  /// One acceptance policy whichever way a source is read: a `lines`
  /// source (read in pieces of lines) and a CSV source (read as events)
  /// reject the range past maxRangeSize alike and keep the other, and
  /// explain names exactly the lines the build kept.
  @Test func aLinesAndACSVSourceJudgeTheirRangesAlike() throws {
    let directory = try TemporaryDirectory()
    try directory.write("ranges.txt", "+41212130000 bis +41212139999\n+41212140000 bis +41212140099\nnonsense\n")
    try directory.write("ranges.csv", "from,to\n+41212130000,+41212139999\n+41212140000,+41212140099\nnonsense,x\n")
    try directory.write("calldir.json", """
      {"maxRangeSize": 5000, "maxRejectRatio": 1, "sources": [
        {"path": "ranges.txt", "format": "lines", "list": "block", "rangeSeparator": " bis "},
        {"path": "ranges.csv", "format": "csv", "list": "block", "rangeStart": "from", "rangeEnd": "to"}]}
      """)
    let store = directory.path("store")
    let result = try CalldirProcess.run(["build", "--config", directory.path("calldir.json"), "--store", store, "--json"])
    #expect(result.status == 0, "\(result.standardError)")
    let object = try parseJSON(result.standardOutput)
    let report = try #require(object["rejects"] as? String)
    let tooLarge = "range of 10000 numbers is larger than maxRangeSize 5000 (split it, or raise maxRangeSize)"
    #expect(try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").map(String.init) == [
      "ranges.txt:1: \(tooLarge)\t+41212130000 bis +41212139999",
      "ranges.txt:3: not a phone number\tnonsense",
      "ranges.csv:2: \(tooLarge)\t+41212130000,+41212139999",
      "ranges.csv:4: range start: not a phone number\tnonsense,x",
    ])
    #expect((object["counts"] as? [String: Int])?["blocking"] == 100)
    let rejected = try CalldirProcess.run(["explain", "--store", store, "--json", "+41212130001"])
    #expect(try #require(try parseJSON(rejected.lines[0])["sources"] as? [Any]).isEmpty)
    let kept = try CalldirProcess.run(["explain", "--store", store, "--json", "+41212140001"])
    let sources = try #require(try parseJSON(kept.lines[0])["sources"] as? [[String: Any]])
    #expect(sources.map { "\($0["path"] ?? ""):\($0["line"] ?? ""):\($0["kind"] ?? "")" } == [
      "ranges.txt:2:range", "ranges.csv:3:range",
    ])
  }

  @Test func theDefaultLimitIsOneBillion() throws {
    let directory = try TemporaryDirectory()
    try directory.write("ranges.txt", "1##############\n41#########\n")
    try directory.write("calldir.json", """
      {"maxRejectRatio": 1, "maxExtensions": 1000,
       "sources": [{"path": "ranges.txt", "format": "patterns", "list": "block"}]}
      """)
    let result = try CalldirProcess.run([
      "build", "--config", directory.path("calldir.json"), "--store", directory.path("store"), "--json",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let object = try parseJSON(result.standardOutput)
    #expect((object["counts"] as? [String: Int])?["blocking"] == 1_000_000_000)
    #expect((object["counts"] as? [String: Int])?["rejected"] == 1)
  }

  /// A line with no end in sight (here 400 MB of NUL bytes) is answered and
  /// read past in bounded memory: under a 256 MiB address-space limit,
  /// where holding it would fail.
  @Test func normalizeReadsPastAnEndlessLineInBoundedMemory() throws {
    let binary = CalldirProcess.binary.path
    let result = try CalldirProcess.run(
      ["-c", #"ulimit -v 262144 && { head -c 400000000 /dev/zero; printf '\n+12125550100\n'; } | "$0" normalize --region US"#, binary],
      executable: "/bin/sh")
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.lines == ["INVALID\ttoo long", "12125550100"])
  }
}
