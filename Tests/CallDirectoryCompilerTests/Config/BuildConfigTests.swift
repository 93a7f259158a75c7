import CalldirSystem
import Foundation
import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectorySources

/// A config that must be rejected, with its exact message.
struct ConfigErrorCase: CustomTestStringConvertible, Sendable {
  var name: String
  var json: String
  var message: String

  var testDescription: String { name }
}

/// `{"sources": [<entry>]}`.
private func withSource(_ entry: String) -> String {
  #"{"sources": ["# + entry + "]}"
}

@Suite struct BuildConfigTests {
  static let example = """
    {
      "$schema": "./schemas/config.schema.json",
      "defaultRegion": "US",
      "maxRejectRatio": 0.5,
      "maxRemovalRatio": 0.25,
      "deltaHistory": 7,
      "maxEntriesPerExtension": 1999999,
      "sources": [
        {"path": "block.txt",  "format": "lines",    "list": "block", "region": "GB"},
        {"path": "ftc.csv",    "format": "csv",      "list": "block", "number": "Company_Phone_Number"},
        {"path": "names.csv",  "format": "csv",      "list": "identify", "number": "phone", "label": "name", "priority": 10},
        {"path": "ranges.txt", "format": "patterns", "list": "block"},
        {"path": "../shared/allow.txt",  "format": "lines",    "list": "allow"}
      ]
    }
    """

  @Test func parsesTheExample() throws {
    let config = try BuildConfig.parse(
      Array(Self.example.utf8), baseDirectory: "/data/build/")
    #expect(config.defaultRegion == "US")
    #expect(config.maxRejectRatio == 0.5)
    #expect(config.maxRemovalRatio == 0.25)
    #expect(config.deltaHistory == 7)
    #expect(config.maxEntriesPerExtension == 1_999_999)
    #expect(config.baseDirectory == "/data/build")
    // Every source but the first takes the config's defaultRegion.
    var expected = [
      SourceSpec(
        index: 0, path: "/data/build/block.txt", format: "lines",
        list: .block, region: "GB", writtenPath: "block.txt"),
      SourceSpec(
        index: 1, path: "/data/build/ftc.csv", format: "csv", list: .block,
        region: "US", options: ["number": "Company_Phone_Number"], writtenPath: "ftc.csv"),
      SourceSpec(
        index: 2, path: "/data/build/names.csv", format: "csv",
        list: .identify, region: "US", priority: 10,
        options: ["number": "phone", "label": "name"], writtenPath: "names.csv"),
      SourceSpec(
        index: 3, path: "/data/build/ranges.txt", format: "patterns",
        list: .block, region: "US", writtenPath: "ranges.txt"),
      SourceSpec(
        index: 4, path: "/data/shared/allow.txt", format: "lines",
        list: .allow, region: "US", writtenPath: "../shared/allow.txt"),
    ]
    for index in 1..<expected.count { expected[index].regionIsDefault = true }
    #expect(config.sources == expected)
    #expect(config.sources[2].label == "name")
    #expect(config.sources[2].keyPath == "sources[2]")
  }

  @Test func defaults() throws {
    let config = try BuildConfig.parse(
      Array(
        "\u{FEFF}{\"sources\": [{\"path\": \"/abs/./x.txt\", \"format\": \"vcard\", \"list\": \"identify\"}]}"
          .utf8),
      baseDirectory: "/ignored")
    #expect(config.defaultRegion == "ZZ")
    #expect(config.maxRejectRatio == 0.5)
    #expect(config.maxRemovalRatio == 0.25)
    #expect(config.deltaHistory == 7)
    #expect(config.maxEntriesPerExtension == 1_800_000)
    #expect(config.maxExtensions == 20)
    #expect(config.fullEvery == 30)
    #expect(config.manifestLifetimeDays == nil)
    #expect(config.sources.first?.path == "/abs/x.txt")
    #expect(config.sources.first?.region == "ZZ")
    #expect(config.sources.first?.priority == 0)
  }

  @Test func theManifestLifetimeIsDays() throws {
    let config = try BuildConfig.parse(
      Array(#"{"manifestLifetimeDays": 7, "sources": [{"path": "a", "format": "lines", "list": "block"}]}"#.utf8),
      baseDirectory: "/data")
    #expect(config.manifestLifetimeDays == 7)
  }

  @Test func integersAreAcceptedAsRatios() throws {
    let config = try BuildConfig.parse(
      Array(
        #"{"maxRejectRatio": 1, "maxRemovalRatio": 0, "sources": [{"path": "a", "format": "lines", "list": "block"}]}"#
          .utf8),
      baseDirectory: "/")
    #expect(config.maxRejectRatio == 1)
    #expect(config.maxRemovalRatio == 0)
  }

  static let errorCases: [ConfigErrorCase] = [
    .init(
      name: "not json", json: "{",
      message: "invalid json: line 1, column 2: unexpected end of input"),
    .init(
      name: "bad value", json: "{\n  \"sources\": x\n}",
      message: "invalid json: line 2, column 14: unexpected character 'x'"),
    .init(
      name: "empty", json: "",
      message: "invalid json: line 1, column 1: unexpected end of input"),
    .init(
      name: "duplicate key", json: "{\"sources\": [],\n \"sources\": []}",
      message: "invalid json: line 2, column 2: duplicate key 'sources'"),
    .init(
      name: "duplicate source key",
      json: #"{"sources": [{"path": "a", "format": "lines", "list": "block", "list": "allow"}]}"#,
      message: "invalid json: line 1, column 64: duplicate key 'list'"),
    .init(
      name: "too deep", json: String(repeating: "[", count: 70) + String(repeating: "]", count: 70),
      message: "invalid json: line 1, column 65: nesting deeper than 64 levels"),
    .init(
      name: "root array", json: "[]",
      message: "(root): expected an object, found array"),
    .init(
      name: "unknown root key",
      json: #"{"maxRejectRatios": 0.5, "sources": []}"#,
      message: "maxRejectRatios: unknown key (did you mean 'maxRejectRatio'?)"),
    .init(
      name: "unknown root key without hint",
      json: #"{"zzz": 1, "sources": []}"#,
      message: "zzz: unknown key"),
    .init(
      name: "no sources", json: "{}", message: "missing required key 'sources'"),
    .init(
      name: "sources not array", json: #"{"sources": {}}"#,
      message: "sources: expected an array, found object"),
    .init(
      name: "sources empty", json: #"{"sources": []}"#,
      message: "sources: must list at least one source"),
    .init(
      name: "source not object", json: #"{"sources": ["a.txt"]}"#,
      message: "sources[0]: expected an object, found string"),
    .init(
      name: "unknown source key",
      json: withSource(
        #"{"path": "a", "format": "csv", "list": "identify", "number": "n", "lable": "x"}"#
      ),
      message: "sources[0].lable: unknown key (did you mean 'label'?)"),
    .init(
      name: "missing format",
      json: withSource(#"{"path": "a", "list": "block"}"#),
      message: "sources[0]: missing required key 'format'"),
    .init(
      name: "format not string",
      json: withSource(#"{"path": "a", "format": 3, "list": "block"}"#),
      message: "sources[0].format: expected a string, found integer"),
    .init(
      name: "unknown format",
      json:
        #"{"sources": [{"path": "a", "format": "lines", "list": "block"}, {"path": "b", "format": "lines", "list": "block"}, {"path": "c", "format": "xls", "list": "block"}]}"#,
      message:
        "sources[2].format: unknown format 'xls' (expected one of: arcep-majnum, csv, fcc-complaints, fritzbox-phonebook, ftc-dnc, json, jsonl, lines, patterns, tsv, vcard, xml)"
    ),
    .init(
      name: "unknown format with hint",
      json: withSource(#"{"path": "a", "format": "cvs", "list": "block"}"#),
      message:
        "sources[0].format: unknown format 'cvs' (expected one of: arcep-majnum, csv, fcc-complaints, fritzbox-phonebook, ftc-dnc, json, jsonl, lines, patterns, tsv, vcard, xml); did you mean 'csv'?"
    ),
    .init(
      name: "option of another format",
      json: withSource(
        #"{"path": "a", "format": "lines", "list": "block", "number": "n"}"#),
      message: "sources[0].number: not used by format 'lines'"),
    .init(
      name: "delimiter on tsv",
      json: withSource(
        #"{"path": "a", "format": "tsv", "list": "block", "number": "n", "delimiter": ";"}"#
      ),
      message: "sources[0].delimiter: not used by format 'tsv'"),
    .init(
      name: "missing path",
      json: withSource(#"{"format": "lines", "list": "block"}"#),
      message: "sources[0]: missing required key 'path'"),
    .init(
      name: "path not string",
      json: withSource(#"{"path": null, "format": "lines", "list": "block"}"#),
      message: "sources[0].path: expected a string, found null"),
    .init(
      name: "empty path",
      json: withSource(#"{"path": "", "format": "lines", "list": "block"}"#),
      message: "sources[0].path: must not be empty"),
    .init(
      name: "missing list",
      json: withSource(#"{"path": "a", "format": "lines"}"#),
      message: "sources[0]: missing required key 'list'"),
    .init(
      name: "unknown list",
      json: withSource(#"{"path": "a", "format": "lines", "list": "blok"}"#),
      message:
        "sources[0].list: unknown list 'blok' (expected one of: allow, block, identify); did you mean 'block'?"
    ),
    .init(
      name: "lowercase region",
      json: withSource(
        #"{"path": "a", "format": "lines", "list": "block", "region": "gb"}"#),
      message:
        "sources[0].region: invalid region 'gb' (expected two uppercase letters such as 'US', or 'ZZ' for none); did you mean 'GB'?"
    ),
    .init(
      name: "three letter default region",
      json:
        #"{"defaultRegion": "USA", "sources": [{"path": "a", "format": "lines", "list": "block"}]}"#,
      message:
        "defaultRegion: invalid region 'USA' (expected two uppercase letters such as 'US', or 'ZZ' for none)"
    ),
    .init(
      name: "fractional priority",
      json: withSource(
        #"{"path": "a", "format": "lines", "list": "block", "priority": 1.5}"#),
      message: "sources[0].priority: expected an integer, found number"),
    .init(
      name: "string priority",
      json: withSource(
        #"{"path": "a", "format": "lines", "list": "block", "priority": "high"}"#
      ),
      message: "sources[0].priority: expected an integer, found string"),
    .init(
      name: "ratio too big",
      json: #"{"maxRejectRatio": 1.5, "sources": []}"#,
      message: "maxRejectRatio: must be between 0 and 1, got 1.5"),
    .init(
      name: "ratio as string",
      json: #"{"maxRemovalRatio": "0.5", "sources": []}"#,
      message: "maxRemovalRatio: expected a number, found string"),
    .init(
      name: "ratio as boolean",
      json: #"{"maxRejectRatio": true, "sources": []}"#,
      message: "maxRejectRatio: expected a number, found boolean"),
    .init(
      name: "negative history",
      json: #"{"deltaHistory": -1, "sources": []}"#,
      message: "deltaHistory: must be between 0 and 1000, got -1"),
    .init(
      name: "zero entries",
      json: #"{"maxEntriesPerExtension": 0, "sources": []}"#,
      message: "maxEntriesPerExtension: must be between 1 and 1999999, got 0"
    ),
    .init(
      name: "manifest that never lives",
      json: #"{"manifestLifetimeDays": 0, "sources": []}"#,
      message: "manifestLifetimeDays: must be between 1 and 3650, got 0"),
    .init(
      name: "manifest lifetime as text",
      json: #"{"manifestLifetimeDays": "7d", "sources": []}"#,
      message: "manifestLifetimeDays: expected an integer, found string"),
    .init(
      name: "entries as array",
      json: #"{"maxEntriesPerExtension": [1], "sources": []}"#,
      message: "maxEntriesPerExtension: expected an integer, found array"),
    .init(
      name: "csv without number",
      json: withSource(#"{"path": "a", "format": "csv", "list": "block"}"#),
      message:
        "sources[0]: missing required key 'number' (required by format 'csv')"),
    .init(
      name: "identify without label",
      json: withSource(
        #"{"path": "a", "format": "jsonl", "list": "identify", "number": "n"}"#),
      message:
        "sources[0]: missing required key 'label' (the 'identify' list needs labels)"
    ),
    .init(
      name: "identify from lines",
      json: withSource(
        #"{"path": "a", "format": "lines", "list": "identify"}"#),
      message:
        "sources[0].list: format 'lines' has no labels, so it cannot feed the 'identify' list"
    ),
    .init(
      name: "bad delimiter",
      json: withSource(
        #"{"path": "a", "format": "csv", "list": "block", "number": "n", "delimiter": "ab"}"#
      ),
      message:
        "sources[0].delimiter: must be one ascii character other than a digit, quote, space or line break"
    ),
    .init(
      name: "empty column",
      json: withSource(
        #"{"path": "a", "format": "csv", "list": "block", "number": ""}"#),
      message: "sources[0].number: must not be empty"),
    .init(
      name: "column not string",
      json: withSource(
        #"{"path": "a", "format": "csv", "list": "block", "number": 2}"#),
      message: "sources[0].number: expected a string, found integer"),
  ]

  @Test(arguments: errorCases)
  func rejects(_ testCase: ConfigErrorCase) throws {
    do {
      let config = try BuildConfig.parse(
        Array(testCase.json.utf8), baseDirectory: "/data")
      Issue.record("parsed \(config)")
    } catch {
      #expect(error.description == testCase.message)
    }
  }

  @Test func loadResolvesAgainstTheConfigDirectoryAndChecksFiles() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try FileManager.default.createDirectory(
      atPath: directory + "/conf", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: directory + "/lists", withIntermediateDirectories: true)
    try Array("+41215030004\n".utf8).write(to: directory + "/lists/a.txt")
    let json =
      #"{"sources": [{"path": "../lists/a.txt", "format": "lines", "list": "block"}, {"path": "missing.txt", "format": "lines", "list": "allow"}]}"#
    try Array(json.utf8).write(to: directory + "/conf/calldir.json")

    #expect(
      throws: ConfigError.fileNotFound(
        keyPath: "sources[1].path", path: directory + "/conf/missing.txt")
    ) {
      try BuildConfig.load(contentsOf: directory + "/conf/calldir.json")
    }
    let config = try BuildConfig.load(
      contentsOf: directory + "/conf/calldir.json", checkFiles: false)
    #expect(config.baseDirectory == directory + "/conf")
    #expect(config.sources[0].path == directory + "/lists/a.txt")
    let reader = try SourceFormatRegistry.standard.makeReader(
      for: config.sources[0])
    #expect(try reader.readAll().records.map(\.number) == ["+41215030004"])

    let asDirectory =
      #"{"sources": [{"path": "../lists", "format": "lines", "list": "block"}]}"#
    try Array(asDirectory.utf8).write(to: directory + "/conf/dir.json")
    #expect(
      throws: ConfigError.notAFile(
        keyPath: "sources[0].path", path: "\(directory)/lists", kind: "directory")
    ) {
      try BuildConfig.load(contentsOf: directory + "/conf/dir.json")
    }
  }

  @Test func unreadableConfig() {
    #expect(
      throws: ConfigError.unreadable(
        FileError(operation: "open", path: "/nonexistent/calldir.json", errno: .noSuchFileOrDirectory))
    ) {
      try BuildConfig.load(contentsOf: "/nonexistent/calldir.json")
    }
    #expect(
      ConfigError.unreadable(FileError(operation: "open", path: "/x", errno: .noSuchFileOrDirectory))
        .description == "cannot read config '/x': no such file or directory")
  }

  @Test func schemaListsEveryKey() throws {
    let schemaPath = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("schemas/config.schema.json")
    let data = try Data(contentsOf: schemaPath)
    let schema = try #require(
      try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let properties = try #require(schema["properties"] as? [String: Any])
    #expect(
      Set(properties.keys)
        == Set([
          "$schema", "dataset", "defaultRegion", "maxRejectRatio",
          "maxRemovalRatio", "maxInvalidRatio", "deltaHistory", "maxEntriesPerExtension",
          "maxExtensions", "maxRangeSize", "fullEvery", "manifestLifetimeDays", "signingKey", "sources",
          "liveCallerID",
        ]))
    let text = String(decoding: data, as: UTF8.self)
    for format in SourceFormatRegistry.standard.names {
      #expect(text.contains("\"\(format)\""))
    }
    for key in [
      "path", "format", "list", "region", "priority", "number", "require", "types", "maxInvalidRatio",
      "label", "delimiter", "category", "icon", "useCase", "keywordForms", "cacheExpiryMinutes", "rlweParameters",
      "trialsPerShard", "maxEntries", "shardCount", "records",
    ] {
      #expect(text.contains("\"\(key)\""))
    }
  }
}
