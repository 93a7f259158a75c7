import Foundation
import Testing

/// `calldir explain` on a store whose sources give numbers as lines, CSV
/// rows, patterns and ranges, with an allowlist and competing labels.
@Suite struct ExplainCommandTests {
  struct Store {
    let directory: TemporaryDirectory
    var store: String { directory.path("store") }

    init(sharded: Bool = false) throws {
      directory = try TemporaryDirectory()
      try directory.write("lists/block.txt", "# scam callers\n+33 1 62 00 00 01\n+41 21 213 09 11\n")
      try directory.write("lists/ranges.txt", "33162######\n41212130900-41212130999\n")
      try directory.write("lists/allow.txt", "+33 1 62 00 00 02 # our own office\n")
      try directory.write("names.csv", "phone,name\n+41212130911,Bank\n+41 21 213 09 12,Spam\n")
      try directory.write("community.csv", "number,label\n+41212130911,Scam\n")
      let shards = sharded ? #""maxEntriesPerExtension": 600000,"# : ""
      try directory.write("calldir.json", """
        {\(shards) "defaultRegion": "FR", "sources": [
          {"path": "lists/block.txt", "format": "lines", "list": "block"},
          {"path": "lists/ranges.txt", "format": "patterns", "list": "block"},
          {"path": "lists/allow.txt", "format": "lines", "list": "allow"},
          {"path": "names.csv", "format": "csv", "list": "identify", "number": "phone", "label": "name", "priority": 2},
          {"path": "community.csv", "format": "csv", "list": "identify", "number": "number", "label": "label"}
        ]}
        """)
      let built = try CalldirProcess.run(["build", "--config", directory.path("calldir.json"), "--store", store])
      #expect(built.status == 0, "\(built.standardError)")
    }

    func explain(_ arguments: [String]) throws -> CalldirProcess.Result {
      try CalldirProcess.run(["explain", "--store", store, "--json"] + arguments)
    }
  }

  @Test func everyLineBehindANumberIsFound() throws {
    let store = try Store()
    let result = try store.explain(["+41 21 213 09 11", "0162000001", "--region", "FR"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.lines.count == 2)
    let swiss = try parseJSON(result.lines[0])
    #expect(swiss["input"] as? String == "+41 21 213 09 11")
    #expect(swiss["number"] as? Int == 41_212_130_911)
    #expect(swiss["version"] as? Int == 1)
    #expect(swiss["blocked"] as? Bool == true)
    #expect(swiss["valid"] as? Bool == true && swiss["type"] as? String == "fixedLine")
    #expect(swiss["label"] as? String == "Bank")
    let sources = try #require(swiss["sources"] as? [[String: Any]])
    #expect(sources.map { "\($0["path"] ?? ""):\($0["line"] ?? ""):\($0["kind"] ?? "")" } == [
      "lists/block.txt:3:number", "lists/ranges.txt:2:range", "names.csv:2:number", "community.csv:2:number",
    ])
    #expect(sources[2]["priority"] as? Int == 2 && sources[2]["label"] as? String == "Bank")
    #expect((swiss["lostLabels"] as? [[String: Any]])?.map { $0["label"] as? String } == ["Scam"])
    #expect((swiss["allowedBy"] as? [Any])?.isEmpty == true)

    let french = try parseJSON(result.lines[1])
    #expect(french["number"] as? Int == 33_162_000_001)
    let frenchSources = try #require(french["sources"] as? [[String: Any]])
    #expect(frenchSources.map { "\($0["path"] ?? ""):\($0["line"] ?? ""):\($0["kind"] ?? "")" } == [
      "lists/block.txt:2:number", "lists/ranges.txt:1:pattern",
    ])
    #expect(french["label"] is NSNull)
  }

  @Test func anAllowlistCutIsNamed() throws {
    let store = try Store()
    let result = try store.explain(["+33162000002"])
    let object = try parseJSON(result.lines[0])
    #expect(object["blocked"] as? Bool == false)
    #expect((object["sources"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["pattern"])
    let allowed = try #require(object["allowedBy"] as? [[String: Any]])
    #expect(allowed.map { "\($0["path"] ?? ""):\($0["line"] ?? "")" } == ["lists/allow.txt:1"])
  }

  @Test func aSourceChangedSinceIsNamedAndItsLinesAreNotUsed() throws {
    let store = try Store()
    try store.directory.write("community.csv", "number,label\n+41212130911,Scam\n+41212130913,New\n")
    let result = try store.explain(["+41212130911"])
    let object = try parseJSON(result.lines[0])
    #expect((object["sources"] as? [[String: Any]])?.contains { $0["path"] as? String == "community.csv" } == false)
    #expect((object["unreadSources"] as? [[String: Any]])?.map { $0["path"] as? String } == ["community.csv"])
    let text = try CalldirProcess.run(["explain", "--store", store.store, "+41212130911"])
    #expect(text.lines.last == "note: source community.csv changed since version 1 was built; its lines are not shown")
  }

  @Test func versionsShardsAndLookupsOnly() throws {
    let store = try Store(sharded: true)
    try store.directory.write("lists/block.txt", "+41 21 213 09 11\n")
    #expect(try CalldirProcess.run([
      "build", "--config", store.directory.path("calldir.json"), "--store", store.store, "--force",
    ]).status == 0)
    let old = try parseJSON(try store.explain(["+33162000001", "--version", "1"]).lines[0])
    #expect(old["version"] as? Int == 1 && old["blocked"] as? Bool == true)
    let latest = try parseJSON(try store.explain(["+33162000001", "--no-provenance"]).lines[0])
    #expect(latest["version"] as? Int == 2)
    #expect(latest["blocked"] as? Bool == true)
    #expect(latest["shard"] as? Int == 1)
    #expect((latest["sources"] as? [Any])?.isEmpty == true)
  }

  @Test func badInputsGetTheirCodes() throws {
    let store = try Store()
    let invalid = try store.explain(["+41212130911", "not a number"])
    #expect(invalid.status == 65)
    #expect(invalid.lines.count == 2)
    #expect(try parseJSON(invalid.lines[1])["reason"] as? String == "not a phone number")
    let unknown = try store.explain(["+41212130911", "--version", "9"])
    #expect(unknown.status == 65)
    #expect(unknown.standardError.contains("version 9 is not published"))
    let region = try store.explain(["0162000001", "--region", "fr"])
    #expect(region.status == 64)
    #expect(region.standardError.contains("did you mean 'FR'?"))
    let missing = try CalldirProcess.run(["explain", "--store", store.directory.path("nowhere"), "+41212130911"])
    #expect(missing.status == 66)
    #expect(missing.standardError.hasPrefix("error: no catalog in"))
    // A control character in an input never reaches the terminal.
    let escaped = try CalldirProcess.run(["explain", "--store", store.store, "41\u{1B}[31m212"])
    #expect(escaped.status == 65 && !escaped.standardOutput.contains("\u{1B}") && !escaped.standardError.contains("\u{1B}"))
    #expect(escaped.standardOutput.hasPrefix("41\\x1B[31m212: not a phone number"), "\(escaped.standardOutput)")
    // A pruned version is named as such.
    try store.directory.write("lists/block.txt", "+41 21 213 09 11\n")
    #expect(try CalldirProcess.run([
      "build", "--config", store.directory.path("calldir.json"), "--store", store.store, "--force",
    ]).status == 0)
    #expect(try CalldirProcess.run(["prune", "--store", store.store, "--keep", "1"]).status == 0)
    let pruned = try store.explain(["+41212130911", "--version", "1"])
    #expect(pruned.status == 65)
    #expect(pruned.standardError.contains("version 1 was pruned at"), "\(pruned.standardError)")
  }
}
