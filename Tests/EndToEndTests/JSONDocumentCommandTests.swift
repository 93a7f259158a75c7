import CallDirectoryFormat
import Foundation
import Testing

/// `"format": "json"` through the binary: a pretty-printed operator list
/// with `#` patterns, an object-wrapped array found by `records`, arrays of
/// numbers in records, `explain` naming the line of the value that holds a
/// number, the errors that stop a build (exit 65), and a `jsonl` source
/// that is one document.
@Suite struct JSONDocumentCommandTests {
  struct Build {
    let directory: TemporaryDirectory
    var store: String { directory.path("store") }
    var config: String { directory.path("calldir.json") }

    init(file: String, _ text: String, source: String, region: String = "FR") throws {
      directory = try TemporaryDirectory()
      try directory.write(file, text)
      try directory.write("calldir.json", #"{"defaultRegion": "\#(region)", "sources": [\#(source)]}"#)
    }

    func build(_ arguments: [String] = [], store: String? = nil) throws -> CalldirProcess.Result {
      try CalldirProcess.run(["build", "--config", config, "--store", store ?? self.store] + arguments)
    }

    func explain(_ number: String) throws -> CalldirProcess.Result {
      try CalldirProcess.run(["explain", "--store", store, number])
    }
  }

  /// The shape of the list a French blocker app ships: pretty-printed
  /// objects, one 10-digit block per record (`33162######`), and a few
  /// narrower ones.
  static func operatorList(blocks: Int) -> String {
    var records: [String] = []
    for index in 0..<blocks {
      let pattern = index == 0 ? "33162######" : "339480\(String(format: "%03d", index))##"
      records.append("""
          {
            "operator_name": "Opérateur \(index)",
            "pattern": "\(pattern)",
            "start": "2023-01-01T00:00:00+01:00",
            "end": null
          }
        """)
    }
    return "[\n" + records.joined(separator: ",\n") + "\n]\n"
  }

  @Test func operatorListWithPatternsBuildsAndExplainsItsLines() throws {
    let list = Self.operatorList(blocks: 40)
    let build = try Build(
      file: "operators.json", list,
      source: ##"{"path": "operators.json", "format": "json", "list": "block", "number": "pattern", "wildcard": "#"}"##)
    let result = try build.build(["--json"])
    #expect(result.status == 0, "\(result.standardError)")
    let source = try #require((try parseJSON(result.standardOutput)["sources"] as? [[String: Any]])?.first)
    #expect(source["rejected"] as? Int == 0, "\(source)")
    let snapshot = try Snapshot(contentsOf: build.store + "/snapshots/snapshot-000001.cdir")
    #expect(snapshot.blocking.count == 1_000_000 + 39 * 100)
    #expect(snapshot.blocking.first == 33_162_000_000 && snapshot.blocking.last == 33_948_003_999)
    // The record's line is the line of its "pattern" member.
    let first = try build.explain("+33162123456")
    #expect(first.status == 0, "\(first.standardError)")
    #expect(first.standardOutput.contains("block operators.json:4 (pattern)"), "\(first.standardOutput)")
    let fifth = try build.explain("+33948000417")
    #expect(fifth.standardOutput.contains("block operators.json:\(4 + 4 * 6) (pattern)"), "\(fifth.standardOutput)")
  }

  @Test func theSameFileGivesTheSameStore() throws {
    let build = try Build(
      file: "operators.json", Self.operatorList(blocks: 12),
      source: ##"{"path": "operators.json", "format": "json", "list": "block", "number": "pattern", "wildcard": "#"}"##)
    #expect(try build.build(["--as-of", "2026-01-01"]).status == 0)
    let other = build.directory.path("other")
    #expect(try build.build(["--as-of", "2026-01-01"], store: other).status == 0)
    let one = try Data(contentsOf: URL(fileURLWithPath: build.store + "/snapshots/snapshot-000001.cdir"))
    let two = try Data(contentsOf: URL(fileURLWithPath: other + "/snapshots/snapshot-000001.cdir"))
    #expect(one == two)
  }

  @Test func wrappedArrayOfRecordsWithArraysOfNumbers() throws {
    let text = """
      {
        "version": 3,
        "data": {
          "callers": [
            {
              "name": "Démarchage Énergie",
              "contact": {
                "phones": [
                  "01 62 00 00 01",
                  162000002
                ]
              }
            },
            {
              "name": "Sondages",
              "contact": {"phones": "+33 1 62 00 00 03"}
            },
            {
              "name": "Broken",
              "contact": {"phones": [true]}
            }
          ]
        }
      }
      """
    let build = try Build(
      file: "callers.json", text,
      source: #"{"path": "callers.json", "format": "json", "list": "identify", "records": "/data/callers", "#
        + #""number": "/contact/phones", "label": "name"}"#)
    let result = try build.build()
    #expect(result.status == 0, "\(result.standardError)")
    let second = try build.explain("+33162000002")
    #expect(second.standardOutput.contains("identify callers.json:10"), "\(second.standardOutput)")
    #expect(second.standardOutput.contains("Démarchage Énergie"), "\(second.standardOutput)")
    let third = try build.explain("0162000003")
    #expect(third.standardOutput.contains("callers.json:16"), "\(third.standardOutput)")
    let rejects = try String(contentsOfFile: build.store + "/rejects/rejects-000001.txt", encoding: .utf8)
    #expect(rejects.hasPrefix("callers.json:20: '/contact/phones' holds a boolean, expected strings or integers"), "\(rejects)")
  }

  @Test func anArrayOfNumbers() throws {
    let build = try Build(
      file: "numbers.json", "[\"0162000001\", 33162000002, \"+33 1 62 00 00 03\"]",
      source: #"{"path": "numbers.json", "format": "json", "list": "block"}"#)
    let result = try build.build()
    #expect(result.status == 0, "\(result.standardError)")
    let snapshot = try Snapshot(contentsOf: build.store + "/snapshots/snapshot-000001.cdir")
    #expect(snapshot.blocking == [33_162_000_001, 33_162_000_002, 33_162_000_003])
  }

  @Test func aPointerThatLeadsNowhereStopsTheBuild() throws {
    let text = #"{"meta": {"count": 1}, "operators": [{"pattern": "0162000001"}]}"#
    let missing = try Build(
      file: "list.json", text,
      source: #"{"path": "list.json", "format": "json", "list": "block", "records": "/data", "number": "pattern"}"#)
    let result = try missing.build()
    #expect(result.status == 65)
    #expect(result.standardError.contains("list.json: records '/data' does not lead to an array of records"))
    #expect(result.standardError.contains("without a member 'data' (its members: 'meta', 'operators')"))
    let root = try Build(
      file: "list.json", text, source: #"{"path": "list.json", "format": "json", "list": "block", "number": "pattern"}"#)
    let rootResult = try root.build()
    #expect(rootResult.status == 65)
    #expect(rootResult.standardError.contains("set records to the member holding the array: '/operators'"), "\(rootResult.standardError)")
    #expect(!FileManager.default.fileExists(atPath: root.store + "/snapshots/snapshot-000001.cdir"))
    let refused = try Build(
      file: "list.json", text, source: #"{"path": "list.json", "format": "json", "list": "block", "records": "operators"}"#)
    let refusedResult = try refused.build()
    #expect(refusedResult.status == 65)
    #expect(refusedResult.standardError.contains("sources[0].records"), "\(refusedResult.standardError)")
  }

  @Test func malformedDocumentsStopTheBuild() throws {
    for (text, expected) in [
      ("[\n  {\"pattern\": \"0162000001\"},\n  {\"pattern\": \"0162000002\",}\n]", "list.json:3:28: invalid json: expected a string key"),
      ("[\n  {\"pattern\": \"0162000001\"}\n] trailing", "list.json:3:3: invalid json: unexpected characters after the json value"),
      ("[\n  {\"pattern\": \"0162000001\"\n", "list.json:3:1: invalid json: unexpected end of input, expected ',' or '}'"),
      (String(repeating: "[", count: 100_000), "list.json:1:513: invalid json: nesting deeper than 512 levels"),
    ] {
      let build = try Build(
        file: "list.json", text, source: #"{"path": "list.json", "format": "json", "list": "block", "number": "pattern"}"#)
      let result = try build.build()
      #expect(result.status == 65, "\(text.prefix(40))")
      #expect(result.standardError.contains(expected), "\(result.standardError)")
    }
  }

  @Test func jsonLinesThatAreOneDocumentPointToJSON() throws {
    for text in ["[\n  {\"number\": \"0162000001\"},\n  {\"number\": \"0162000002\"}\n]\n", "{\n  \"number\": \"0162000001\"\n}\n"] {
      let build = try Build(
        file: "list.jsonl", text,
        source: #"{"path": "other.txt", "format": "lines", "list": "block"}, "#
          + #"{"path": "list.jsonl", "format": "jsonl", "list": "block", "number": "number"}"#)
      try build.directory.write("other.txt", "0162000009\n")
      let result = try build.build()
      #expect(result.status == 65)
      #expect(
        result.standardError.contains(
          #"list.jsonl:1: this looks like one JSON document, not JSON lines (one object per line): set "format": "json" at sources[1].format"#),
        "\(result.standardError)")
    }
  }

  @Test func aRecordPastTheBoundStopsTheBuild() throws {
    let huge = String(repeating: "x", count: 17 << 20)
    let build = try Build(
      file: "list.json", "[\n  {\"pattern\": \"0162000001\"},\n  {\"pattern\": \"0162000002\", \"note\": \"\(huge)\"}\n]\n",
      source: #"{"path": "list.json", "format": "json", "list": "block", "number": "pattern"}"#)
    let result = try build.build()
    #expect(result.status == 65)
    #expect(result.standardError.contains("list.json:3:"), "\(result.standardError)")
    #expect(result.standardError.contains("longer than 16777216 bytes"), "\(result.standardError)")
  }

  /// A read that fails part way through the document fails the build
  /// (74) and publishes nothing; a short read changes nothing.
  @Test func aFailedReadPublishesNothing() throws {
    let numbers = (0..<300_000).map { "  \"0162\(String(format: "%06d", $0))\"" }.joined(separator: ",\n")
    let build = try Build(
      file: "numbers.json", "[\n\(numbers)\n]\n", source: #"{"path": "numbers.json", "format": "json", "list": "block"}"#)
    // Reads 1–6 are the config and the catalog; the document is read in
    // 1 MiB chunks from the 7th.
    let failed = try CalldirProcess.run(
      ["build", "--config", build.config, "--store", build.store], environment: ["CALLDIR_FAULTS": "read:9:EIO"])
    #expect(failed.status == 74, "\(failed.standardError)")
    #expect(failed.standardError.contains("numbers.json: input/output error"), "\(failed.standardError)")
    #expect(!FileManager.default.fileExists(atPath: build.store + "/snapshots/snapshot-000001.cdir"))
    let short = try CalldirProcess.run(
      ["build", "--config", build.config, "--store", build.store], environment: ["CALLDIR_FAULTS": "read:9:short"])
    #expect(short.status == 0, "\(short.standardError)")
    let snapshot = try Snapshot(contentsOf: build.store + "/snapshots/snapshot-000001.cdir")
    #expect(snapshot.blocking.count == 300_000)
  }

  /// A 62 MB document of 24 records, each holding 2.5 MB the keys do not
  /// name, builds within 1.5 times --memory-limit 64M (about 35 MiB): the
  /// reader holds one record, not the document (held whole, as bytes and
  /// decoded strings, past 120 MiB).
  @Test func aLargeDocumentStaysWithinTheMemoryLimit() throws {
    let directory = try TemporaryDirectory()
    let filler = String(repeating: "abcdefghij", count: 250_000)
    var text = "{\"meta\": {\"note\": \"\(filler)\"},\n \"records\": [\n"
    for index in 0..<24 {
      text += "  {\n    \"note\": \"\(filler)\",\n    \"pattern\": \"01620000\(String(format: "%02d", index))\"\n  }"
      text += index == 23 ? "\n" : ",\n"
    }
    text += "]}\n"
    try directory.write("big.json", text)
    try directory.write(
      "calldir.json",
      #"{"defaultRegion": "FR", "sources": [{"path": "big.json", "format": "json", "list": "block", "records": "/records", "number": "pattern"}]}"#)
    let config = directory.path("calldir.json")
    let measured = try MemoryBoundTests.measure(
      "exec \"$0\" build --json --config '\(config)' --store '\(directory.path("store"))' --memory-limit 64M")
    #expect(measured.status == 0, "\(measured.standardError)")
    #expect((try parseJSON(measured.standardOutput)["counts"] as? [String: Any])?["blocking"] as? Int == 24)
    #expect(measured.peakBytes <= (64 << 20) * 3 / 2, "peak \(measured.peakBytes >> 20) MiB")
  }
}
