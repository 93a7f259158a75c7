import CallDirectoryFormat
import Foundation
import Testing

/// A path, label or input holding an ESC sequence or a bidirectional
/// override is shown escaped everywhere: terminal output and messages of
/// every command, JSON (as `\u001b`, `\u202e`), the rejects and conflicts
/// reports and the HTML report; a label in a blob loses it.
@Suite struct EscapingCommandTests {
  /// Clears the screen, homes the cursor, then reverses what follows.
  static let hostile = "evil\u{1B}[2J\u{1B}[H\u{202E}txt"
  static let hostileShown = "evil\\x1B[2J\\x1B[H\\u202Etxt"

  /// Fails when `text` holds a raw ESC, another control character than
  /// tab and line feed, or a bidirectional override.
  static func expectNothingRaw(
    _ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let raw = text.unicodeScalars.filter {
      ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || $0.value == 0x7F || (0x202A...0x202E).contains($0.value)
        || (0x2066...0x2069).contains($0.value)
    }
    #expect(raw.isEmpty, "\(what): raw \(raw.map { String($0.value, radix: 16) })", sourceLocation: sourceLocation)
  }

  struct Store {
    let directory = try! TemporaryDirectory()
    var store: String { directory.path("store") }
    var config: String { directory.path("calldir.json") }
    /// The hostile source's path as the config writes it.
    let source = "lists/\(EscapingCommandTests.hostile).txt"

    init() throws {
      try directory.write(source, "+41 21 213 09 11\nnot a number\u{1B}[31m\n+41 21 213 09 12\n")
      try directory.write(
        "names.csv", "phone,name\n+41212130911,Bank\u{202E}knaB\n+41 21 213 09 12,\u{1B}[2JSpam\n")
      try directory.write("other.csv", "phone,name\n+41212130911,Scam\n")
      let path = JSONSerialization.escapedString(source)
      try directory.write("calldir.json", """
        {"defaultRegion": "CH", "sources": [
          {"path": \(path), "format": "lines", "list": "block"},
          {"path": "names.csv", "format": "csv", "list": "identify", "number": "phone", "label": "name", "priority": 2},
          {"path": "other.csv", "format": "csv", "list": "identify", "number": "phone", "label": "name"}
        ]}
        """)
    }

    func build(_ extra: [String] = []) throws -> CalldirProcess.Result {
      try CalldirProcess.run(["build", "--config", config, "--store", store, "--as-of", "2026-01-05"] + extra)
    }
  }

  @Test func buildShowsAHostileSourcePathEscapedInTextJSONAndReports() throws {
    let store = try Store()
    let text = try store.build(["--verbose"])
    #expect(text.status == 0, "\(text.standardError)")
    Self.expectNothingRaw(text.standardOutput + text.standardError, "build --verbose")
    #expect(text.standardOutput.contains("lists/\(Self.hostileShown).txt"), "\(text.standardOutput)")

    // The rejects report: one line per reject, the path and the line escaped.
    let rejects = try String(contentsOfFile: store.directory.path("store/rejects/rejects-000001.txt"), encoding: .utf8)
    Self.expectNothingRaw(rejects, "rejects")
    #expect(rejects == "lists/\(Self.hostileShown).txt:2: not a phone number\tnot a number\\x1B[31m\n", "\(rejects)")
    let conflicts = try String(
      contentsOfFile: store.directory.path("store/rejects/conflicts-000001.txt"), encoding: .utf8)
    Self.expectNothingRaw(conflicts, "conflicts")

    // Labels in the blob have lost their controls and overrides.
    let entries = try CalldirProcess.run(["inspect", "--entries", store.directory.path("store/snapshots/snapshot-000001.cdir")])
    #expect(entries.status == 0)
    #expect(entries.standardOutput.contains("identify\t41212130911\tBankknaB\n"), "\(entries.standardOutput)")
    #expect(entries.standardOutput.contains("identify\t41212130912\t[2JSpam\n"), "\(entries.standardOutput)")

    // JSON: the hidden characters as \u escapes, the value itself intact.
    try store.directory.write("lists/\(Self.hostile).txt", "+41 21 213 09 11\n+41 21 213 09 12\n+41 21 213 09 13\n")
    let json = try store.build(["--json"])
    #expect(json.status == 0, "\(json.standardError)")
    Self.expectNothingRaw(json.standardOutput, "build --json")
    #expect(json.standardOutput.contains(#"lists/evil\u001b[2J\u001b[H\u202etxt.txt"#), "\(json.standardOutput)")
    let sources = try #require(try parseJSON(json.standardOutput)["sources"] as? [[String: Any]])
    #expect(sources.first?["path"] as? String == store.source)
  }

  @Test func explainHistoryAndTheReportShowItEscaped() throws {
    let store = try Store()
    #expect(try store.build().status == 0)
    let explain = try CalldirProcess.run(["explain", "--store", store.store, "+41 21 213 09 11"])
    #expect(explain.status == 0, "\(explain.standardError)")
    Self.expectNothingRaw(explain.standardOutput + explain.standardError, "explain")
    #expect(explain.standardOutput.contains("block lists/\(Self.hostileShown).txt:1 (number)"), "\(explain.standardOutput)")
    let explainJSON = try CalldirProcess.run(["explain", "--store", store.store, "--json", "+41 21 213 09 11"])
    Self.expectNothingRaw(explainJSON.standardOutput, "explain --json")
    #expect(explainJSON.standardOutput.contains(#"\u202e"#))

    for arguments in [["history"], ["history", "--json"]] {
      let history = try CalldirProcess.run(arguments + ["--store", store.store])
      #expect(history.status == 0, "\(arguments): \(history.standardError)")
      Self.expectNothingRaw(history.standardOutput + history.standardError, "\(arguments)")
    }

    let page = store.directory.path("report.html")
    let report = try CalldirProcess.run(["report", "--store", store.store, "--output", page])
    #expect(report.status == 0, "\(report.standardError)")
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: page)))
    #expect(!bytes.contains(0x1B))
    // U+202E is E2 80 AE in UTF-8: never in the page's bytes.
    #expect(!zip(bytes, zip(bytes.dropFirst(), bytes.dropFirst(2))).contains { $0 == 0xE2 && $1.0 == 0x80 && $1.1 == 0xAE })
    let html = String(decoding: bytes, as: UTF8.self)
    #expect(html.contains("lists/\(Self.hostileShown).txt"), "the path is shown, escaped")
    _ = try XHTMLPage(data: Data(bytes))
  }

  @Test func anErrorThatNamesAHostileFileIsEscaped() throws {
    let directory = try TemporaryDirectory()
    let missing = directory.path("gone\(Self.hostile).cdir")
    for arguments in [
      ["validate", missing], ["inspect", missing], ["validate", "--json", missing],
      ["diff", missing, missing, "--output", directory.path("out\(Self.hostile).cdir")],
      ["device", "load", "--device", directory.path("device"), missing],
      ["device", "status", "--device", directory.path("device\(Self.hostile)")],
      ["build", "--config", directory.path("config\(Self.hostile).json"), "--store", directory.path("store")],
      ["explain", "--store", directory.path("store\(Self.hostile)"), "+41212130911"],
    ] {
      let result = try CalldirProcess.run(arguments)
      #expect(result.status != 0, "\(arguments)")
      Self.expectNothingRaw(result.standardOutput + result.standardError, "\(arguments)")
      #expect((result.standardOutput + result.standardError).contains("\\x1B[2J"), "\(arguments): \(result.standardError)")
    }
  }

  @Test func validateAndTheDeviceShowHostileLabelsAndPathsEscaped() throws {
    let directory = try TemporaryDirectory()
    // A text list whose label holds an ESC sequence and an override.
    let list = try directory.write("list\(Self.hostile).txt", "41212130911\tBank\u{1B}[2J\u{202E}\n41212130910\tx\n")
    let validate = try CalldirProcess.run(["validate", list.path])
    #expect(validate.status == 1, "\(validate.standardError)")
    Self.expectNothingRaw(validate.standardOutput + validate.standardError, "validate")
    #expect(validate.standardOutput.contains("list\(Self.hostileShown).txt:2: error:"), "\(validate.standardOutput)")

    // A blob made by someone else, with a hostile label, loaded onto a device.
    let blob = directory.path("blob\(Self.hostile).cdir")
    try Snapshot(
      version: 1, blocking: [41_212_130_900],
      identification: [IdentificationEntry(number: 41_212_130_911, label: "Bank\u{1B}[2J\u{202E}")]
    ).write(to: blob)
    let device = directory.path("device\(Self.hostile)")
    for arguments in [
      ["validate", blob], ["inspect", blob], ["inspect", "--entries", blob],
      ["device", "load", "--device", device, blob], ["device", "status", "--device", device],
      ["device", "dump", "--device", device], ["device", "load", "--device", device, blob, "--json"],
    ] {
      let result = try CalldirProcess.run(arguments)
      #expect(result.status == 0, "\(arguments): \(result.standardError)")
      Self.expectNothingRaw(result.standardOutput + result.standardError, "\(arguments)")
    }
  }
}

extension JSONSerialization {
  /// `text` as a JSON string literal.
  static func escapedString(_ text: String) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed])) ?? Data("[\"\"]".utf8)
    return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
  }
}
