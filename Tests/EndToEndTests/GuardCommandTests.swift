import Foundation
import Testing

/// A store fed by a blocking list and a larger caller-ID list, as nightly
/// builds have them, in a workspace with the sources under `feeds/`.
struct GuardedStore {
  let directory: TemporaryDirectory
  var config: String { directory.path("calldir.json") }
  var store: String { directory.path("store") }

  init(block: Int = 100, names: Int = 400, extraSources: String = "") throws {
    directory = try TemporaryDirectory()
    try writeBlock(block)
    try writeNames(names)
    try writeConfig(extraSources: extraSources)
  }

  func writeBlock(_ count: Int, from first: Int = 0) throws {
    try directory.write("feeds/swiss.txt", (first..<(first + count)).map { "+4121213\(String(format: "%04d", $0))\n" }.joined())
  }

  func writeNames(_ count: Int) throws {
    try directory.write(
      "feeds/names.csv", "phone,name\n" + (0..<count).map { "+4122213\(String(format: "%04d", $0)),Caller \($0 % 9)\n" }.joined())
  }

  func writeConfig(blockRatio: Double? = nil, extraSources: String = "", maxEntriesPerExtension: Int? = nil) throws {
    let ratio = blockRatio.map { #", "maxRemovalRatio": \#($0)"# } ?? ""
    let sharding = maxEntriesPerExtension.map { #""maxEntriesPerExtension": \#($0), "# } ?? ""
    try directory.write("calldir.json", """
      {"defaultRegion": "CH", \(sharding)"sources": [
        {"path": "feeds/swiss.txt", "format": "lines", "list": "block"\(ratio)},
        {"path": "feeds/names.csv", "format": "csv", "list": "identify", "number": "phone", "label": "name"}\(extraSources)
      ]}
      """)
  }

  func build(_ extra: [String] = [], in workingDirectory: URL? = nil) throws -> CalldirProcess.Result {
    try CalldirProcess.run(["build", "--config", config, "--store", store] + extra, in: workingDirectory)
  }

  var publishedVersions: Int {
    get throws {
      let result = try CalldirProcess.run(["history", "--store", store, "--json"])
      let document = try parseJSON(result.standardOutput)
      return (document["versions"] as? [Any])?.count ?? -1
    }
  }
}

@Suite struct GuardCommandTests {
  @Test func anEmptiedBlockListIsRefusedWhateverTheCallerIDListHolds() throws {
    let store = try GuardedStore(block: 100, names: 4000)
    #expect(try store.build().status == 0)
    try store.directory.write("feeds/swiss.txt", "")
    let refused = try store.build()
    #expect(refused.status == 65)
    #expect(refused.standardError.contains(
      "error: source feeds/swiss.txt: no numbers, down from 100 in version 1 (an empty or truncated file?); "
        + "nothing published; use --force to publish anyway"))
    // The blocking list is measured on its own: 100 of 100 entries, not 100 of 4100.
    #expect(refused.standardError.contains(
      "error: blocking list: the new snapshot drops 100 of the 100 blocking entries of version 1 (100.0%"))
    #expect(refused.standardError.contains("rejected lines of the refused build: \(store.store)/refused/rejects-000002.txt"))
    #expect(FileManager.default.fileExists(atPath: store.store + "/refused/rejects-000002.txt"))
    #expect(!FileManager.default.fileExists(atPath: store.store + "/snapshots/snapshot-000002.cdir"))
    #expect(try store.publishedVersions == 1)

    let json = try store.build(["--json"])
    #expect(json.status == 65)
    #expect(json.lines.count == 1)
    let object = try parseJSON(json.standardOutput)
    let error = try #require(object["error"] as? [String: Any])
    #expect(error["kind"] as? String == "sourceEmpty")
    #expect(error["source"] as? String == "feeds/swiss.txt")
    #expect((error["message"] as? String)?.hasPrefix("source feeds/swiss.txt: no numbers") == true)
    #expect((object["refusals"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["sourceEmpty", "listRemoval"])

    let forced = try store.build(["--force", "--json"])
    #expect(forced.status == 0, "\(forced.standardError)")
    #expect(try parseJSON(forced.standardOutput)["version"] as? Int == 2)
  }

  @Test func aVanishedSourceIsRefusedAndForcePublishesWithoutIt() throws {
    let store = try GuardedStore(block: 50, names: 10)
    #expect(try store.build().status == 0)
    try FileManager.default.removeItem(atPath: store.directory.path("feeds/swiss.txt"))
    let refused = try store.build(["--json"])
    #expect(refused.status == 65)
    let error = try #require(try parseJSON(refused.standardOutput)["error"] as? [String: Any])
    #expect(error["kind"] as? String == "sourceVanished")
    #expect(error["message"] as? String
      == "source feeds/swiss.txt: file not found (it gave 50 numbers in version 1); nothing published; "
      + "use --force to publish without it")
    let forced = try store.build(["--force", "--json"])
    #expect(forced.status == 0, "\(forced.standardError)")
    let sources = try #require(try parseJSON(forced.standardOutput)["sources"] as? [[String: Any]])
    #expect(sources.first?["missing"] as? Bool == true)
    // A source file that never gave numbers and is missing is still a missing file.
    let next = try store.build()
    #expect(next.status == 66)
  }

  @Test func aSourceThatDropsPastItsRatioIsRefusedByName() throws {
    let store = try GuardedStore(block: 6035, names: 20)
    #expect(try store.build().status == 0)
    try store.writeBlock(3399)
    let refused = try store.build()
    #expect(refused.status == 65)
    #expect(refused.standardError.contains(
      "error: source feeds/swiss.txt: 3399 numbers, down from 6035 in version 1 (43.7%, above maxRemovalRatio 0.25); "
        + "nothing published; use --force to publish anyway"))
    // The source's own ratio lets the drop through, and the list guard
    // (the config's 0.25) still measures the list.
    try store.writeConfig(blockRatio: 0.5)
    let stillRefused = try store.build()
    #expect(stillRefused.status == 65)
    #expect(!stillRefused.standardError.contains("source feeds/swiss.txt"))
    #expect(stillRefused.standardError.contains("blocking list: the new snapshot drops 2636 of the 6035"))
    try store.directory.write("calldir.json", """
      {"defaultRegion": "CH", "maxRemovalRatio": 0.5, "sources": [
        {"path": "feeds/swiss.txt", "format": "lines", "list": "block"},
        {"path": "feeds/names.csv", "format": "csv", "list": "identify", "number": "phone", "label": "name"}
      ]}
      """)
    #expect(try store.build().status == 0)
  }

  @Test func aSourceAddedOrRemovedIsNoDrop() throws {
    let store = try GuardedStore(block: 100, names: 20)
    try store.directory.write("feeds/extra.txt", "+41212139999\n")
    try store.writeConfig(extraSources: #", {"path": "feeds/extra.txt", "format": "lines", "list": "block"}"#)
    #expect(try store.build().status == 0)
    try store.writeConfig()
    let removed = try store.build()
    #expect(removed.status == 0, "\(removed.standardError)")
    try store.directory.write("feeds/other.txt", "+41212138888\n")
    try store.writeConfig(extraSources: #", {"path": "feeds/other.txt", "format": "lines", "list": "block"}"#)
    #expect(try store.build().status == 0)
    #expect(try store.publishedVersions == 3)
  }

  @Test func theIdentificationListIsGuardedOnItsOwn() throws {
    let store = try GuardedStore(block: 1000, names: 100)
    #expect(try store.build().status == 0)
    try store.writeNames(60)
    let refused = try store.build(["--json"])
    #expect(refused.status == 65)
    let refusals = try #require(try parseJSON(refused.standardOutput)["refusals"] as? [[String: Any]])
    #expect(refusals.contains { ($0["message"] as? String)?.hasPrefix(
      "identification list: the new snapshot drops 40 of the 100 identification entries of version 1 (40.0%") == true })
    #expect(refusals.contains { $0["source"] as? String == "feeds/names.csv" })
  }

  @Test func aRefusedRejectRatioKeepsItsReport() throws {
    let store = try GuardedStore(block: 10, names: 10)
    try store.directory.write("feeds/swiss.txt", "+41212130001\nnonsense\nmore nonsense\n")
    let refused = try store.build(["--json"])
    #expect(refused.status == 65)
    let object = try parseJSON(refused.standardOutput)
    #expect((object["error"] as? [String: Any])?["kind"] as? String == "rejectRatio")
    let report = try #require(object["rejects"] as? String)
    #expect(report == store.store + "/refused/rejects-000001.txt")
    let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").map(String.init)
    #expect(lines == [
      "feeds/swiss.txt:2: not a phone number\tnonsense", "feeds/swiss.txt:3: not a phone number\tmore nonsense",
    ])
    #expect(!FileManager.default.fileExists(atPath: store.store + "/rejects/rejects-000001.txt"))
    // Refused with --as-of: dated as a version of that day would be.
    #expect(try store.build(["--as-of", "2024-03-31"]).status == 65)
    let facts = try parseJSON(try CalldirProcess.run(["report", "--store", store.store, "--json"]).standardOutput)
    let refusals = try #require(facts["refusals"] as? [[String: Any]])
    #expect(refusals.last?["attemptedAt"] as? String == "2024-03-31T00:00:00Z", "\(refusals)")
  }
}

@Suite struct RejectsReportTests {
  @Test func rejectLinesCarryTheirTextAndTheConfigPathWhateverTheWorkingDirectory() throws {
    let store = try GuardedStore(block: 20, names: 0)
    try store.directory.write("feeds/names.csv", """
      phone,name
      +56908985137,Scotia
      +5695977.*,Claro
      +1 800 555 XXXX,Placeholder
      +01930120259,"Robo\tcaller"
      +56939338354,Autopista
      +56939338355,Autopista
      +56939338356,Autopista

      """)
    let first = try store.build(["--json"], in: store.directory.url)
    #expect(first.status == 0, "\(first.standardError)")
    let report = try #require(try parseJSON(first.standardOutput)["rejects"] as? String)
    let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").map(String.init)
    #expect(lines == [
      "feeds/names.csv:3: looks like a regular expression ('.*'); wildcards need format 'patterns' (one '#' per "
        + "digit, e.g. 33162######)\t+5695977.*,Claro",
      "feeds/names.csv:4: looks like a wildcard pattern ('XXXX'); wildcards need format 'patterns' (one '#' per "
        + "digit, e.g. 33162######)\t+1 800 555 XXXX,Placeholder",
      "feeds/names.csv:5: invalid country calling code\t+01930120259,\"Robo\\tcaller\"",
    ])
    // From another working directory the report names the sources the same way.
    try store.directory.write("feeds/swiss.txt", "+41212130001\n+41212130002\nnonsense\n")
    let second = try store.build(["--json", "--force"], in: URL(fileURLWithPath: "/"))
    let secondReport = try #require(try parseJSON(second.standardOutput)["rejects"] as? String)
    let secondLines = try String(contentsOfFile: secondReport, encoding: .utf8).split(separator: "\n")
    #expect(secondLines.first == "feeds/swiss.txt:3: not a phone number\tnonsense")
  }

  @Test func labelConflictsAreListedNextToTheRejects() throws {
    let store = try GuardedStore(block: 5, names: 0)
    try store.directory.write("feeds/names.csv", "phone,name\n+41222130001,Bank\n+41222130001,Scam\n")
    try store.directory.write("feeds/more.csv", "phone,name\n+41222130001,Fraud\n")
    try store.writeConfig(extraSources: #"""
      , {"path": "feeds/more.csv", "format": "csv", "list": "identify", "number": "phone", "label": "name", "priority": 5}
      """#)
    let result = try store.build(["--json"])
    #expect(result.status == 0, "\(result.standardError)")
    let path = try #require(try parseJSON(result.standardOutput)["conflicts"] as? String)
    #expect(path == store.store + "/rejects/conflicts-000001.txt")
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    #expect(lines == [
      "41222130001\tFraud\tfeeds/more.csv:2\tBank\tfeeds/names.csv:2",
      "41222130001\tFraud\tfeeds/more.csv:2\tScam\tfeeds/names.csv:3",
    ])
  }
}

@Suite struct DryRunTests {
  @Test func aDryRunComputesEverythingAndPublishesNothing() throws {
    let store = try GuardedStore(block: 100, names: 50)
    #expect(try store.build().status == 0)
    try store.writeBlock(90, from: 5)
    let snapshots = try FileManager.default.contentsOfDirectory(atPath: store.store + "/snapshots").sorted()
    let result = try store.build(["--dry-run", "--json"])
    #expect(result.status == 0, "\(result.standardError)")
    let object = try parseJSON(result.standardOutput)
    #expect(object["dryRun"] as? Bool == true)
    #expect(object["version"] as? Int == 2)
    let changes = try #require(object["changes"] as? [String: [String: Int]])
    #expect(changes["blocking"] == ["added": 0, "removed": 10])
    let sources = try #require(object["sources"] as? [[String: Any]])
    #expect(sources.map { $0["path"] as? String } == ["feeds/swiss.txt", "feeds/names.csv"])
    #expect(sources[0]["dataLines"] as? Int == 90)
    #expect(sources[0]["accepted"] as? Int == 90)
    #expect(sources[0]["rejected"] as? Int == 0)
    #expect(sources[0]["duplicates"] as? Int == 0)
    #expect(sources[0]["unique"] as? Int == 90)
    #expect(object["rejects"] as? String == store.store + "/dry-run/rejects.txt")
    #expect(FileManager.default.fileExists(atPath: store.store + "/dry-run/conflicts.txt"))
    // Nothing published: the same snapshots, one version.
    #expect(try FileManager.default.contentsOfDirectory(atPath: store.store + "/snapshots").sorted() == snapshots)
    #expect(try store.publishedVersions == 1)
    // Text summary, with a line per source.
    let text = try store.build(["--dry-run", "--verbose"])
    #expect(text.status == 0)
    #expect(text.standardOutput.hasPrefix("dry run: version 2 would be"))
    #expect(text.lines.contains { $0.hasPrefix("feeds/swiss.txt") && $0.hasSuffix("90") })
  }

  @Test func aDryRunTheGuardsWouldRefuseSaysSo() throws {
    let store = try GuardedStore(block: 100, names: 50)
    #expect(try store.build().status == 0)
    try store.writeBlock(10)
    let result = try store.build(["--dry-run", "--json"])
    #expect(result.status == 65)
    let object = try parseJSON(result.standardOutput)
    #expect((object["error"] as? [String: Any])?["kind"] as? String == "sourceRemoval")
    #expect(object["dryRun"] as? Bool == true)
    #expect((object["guards"] as? [[String: Any]])?.contains { $0["passed"] as? Bool == false } == true)
    #expect(try store.publishedVersions == 1)
    // A dry run on a store that does not exist yet creates no catalog.
    let fresh = try GuardedStore(block: 3, names: 3)
    #expect(try fresh.build(["--dry-run"]).status == 0)
    #expect(!FileManager.default.fileExists(atPath: fresh.store + "/catalog.sqlite"))
  }
}
