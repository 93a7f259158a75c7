import Foundation
import Testing

/// What a new user's first hour ran into: messages that say which list,
/// which folder and which dataset, through the built binary.
@Suite struct NewcomerMessagesTests {
  /// One file feeding two lists: each reject line and each guard message
  /// names the list it is about.
  @Test func aFileFeedingTwoListsNamesTheListOfEachMessage() throws {
    let directory = try TemporaryDirectory()
    try directory.write("both.txt", "+33612345678\nbad\n+33612345679\nfoo\n")
    try directory.write("only.txt", "+33612345670\nnope\n")
    let sources = """
      {"path": "both.txt", "format": "lines", "list": "block"},
      {"path": "both.txt", "format": "lines", "list": "allow"},
      {"path": "only.txt", "format": "lines", "list": "block"}
      """
    try directory.write("calldir.json", "{\"sources\": [\(sources)]}")
    let store = directory.path("store")
    let built = try CalldirProcess.run([
      "build", "--config", directory.path("calldir.json"), "--store", store, "--as-of", "2026-12-01",
    ])
    #expect(built.status == 0, "\(built.standardError)")
    let rejects = try String(contentsOfFile: store + "/rejects/rejects-000001.txt", encoding: .utf8)
    #expect(rejects.split(separator: "\n").sorted() == [
      "both.txt:2: not a phone number (allow list)\tbad",
      "both.txt:2: not a phone number (block list)\tbad",
      "both.txt:4: not a phone number (allow list)\tfoo",
      "both.txt:4: not a phone number (block list)\tfoo",
      "only.txt:2: not a phone number\tnope",
    ])

    try directory.write("strict.json", "{\"maxRejectRatio\": 0.1, \"sources\": [\(sources)]}")
    let refused = try CalldirProcess.run([
      "build", "--config", directory.path("strict.json"), "--store", directory.path("strict"), "--as-of", "2026-12-01",
    ])
    #expect(refused.status == 65)
    let errors = refused.standardError.split(separator: "\n").map(String.init).filter { $0.hasPrefix("error: source ") }
    let tail = " data lines rejected, above maxRejectRatio 0.1 (check the source's region and format); nothing published"
    let expected: [String] = [
      "error: source both.txt (block list): 2 of 4" + tail,
      "error: source both.txt (allow list): 2 of 4" + tail,
      "error: source only.txt: 1 of 2" + tail,
    ]
    #expect(errors == expected)
  }

  @Test func keygenSaysWhichFolderIsMissing() throws {
    let directory = try TemporaryDirectory()
    let result = try CalldirProcess.run(["keygen", "--output", directory.path("keys/tr")])
    #expect(result.status == 73)
    #expect(result.standardError.contains("the folder '\(directory.path("keys"))' does not exist"), "\(result.standardError)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("")).isEmpty)
  }

  /// A single extension holds every number: the plan says `all`, not
  /// `1…9223372036854775806`; shards leave the ends of the space open.
  @Test func theExtensionPlanLeavesTheEndsOfTheNumberSpaceOpen() throws {
    let directory = try TemporaryDirectory()
    try directory.write("block.txt", (0..<30).map { "+3361234\(5600 + $0)" }.joined(separator: "\n") + "\n")
    try directory.write("one.json", #"{"sources": [{"path": "block.txt", "format": "lines", "list": "block"}]}"#)
    try directory.write("three.json", #"""
      {"maxEntriesPerExtension": 10, "sources": [{"path": "block.txt", "format": "lines", "list": "block"}]}
      """#)
    let one = try CalldirProcess.run([
      "build", "--config", directory.path("one.json"), "--store", directory.path("one"), "--dry-run", "--verbose",
    ])
    #expect(one.status == 0, "\(one.standardError)")
    #expect(one.standardOutput.contains("\n  1          all      30       0.0 s\n"), "\(one.standardOutput)")
    #expect(!one.standardOutput.contains("9223372036854775806"))
    let three = try CalldirProcess.run([
      "build", "--config", directory.path("three.json"), "--store", directory.path("three"), "--dry-run", "--verbose",
    ])
    #expect(three.status == 0, "\(three.standardError)")
    let rows = three.standardOutput.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("  extension") }
    let ranges = rows.map { $0.split(separator: " ")[1] }
    #expect(ranges.count >= 3, "\(three.standardOutput)")
    #expect(ranges.first?.hasPrefix("…") == true && ranges.last?.hasSuffix("…") == true, "\(ranges)")
    #expect(!three.standardOutput.contains("9223372036854775806"))
  }

  /// The report is titled by the dataset, with the store beneath.
  @Test func theReportIsTitledByItsDataset() throws {
    let directory = try TemporaryDirectory()
    try directory.write("block.txt", "+33612345678\n")
    try directory.write("calldir.json", #"""
      {"dataset": "com.example.tr-spam", "sources": [{"path": "block.txt", "format": "lines", "list": "block"}]}
      """#)
    let store = directory.path("store")
    #expect(try CalldirProcess.run(["build", "--config", directory.path("calldir.json"), "--store", store]).status == 0)
    let report = try CalldirProcess.run(["report", "--store", store, "--output", directory.path("r.html"), "--json"])
    #expect(report.status == 0, "\(report.standardError)")
    #expect(try jsonObject(report.standardOutput)["dataset"] as? String == "com.example.tr-spam")
    let page = try String(contentsOfFile: directory.path("r.html"), encoding: .utf8)
    #expect(page.contains("<title>calldir report: com.example.tr-spam</title>"))
    #expect(page.contains(store))
  }
}
