import Foundation
import Testing

/// One failure envelope: every command run with `--json` that fails prints
/// one document, `{"error": {"kind", "message", …}, …}`, whose `kind` is in
/// `schemas/error.schema.json`'s one vocabulary and whose `message` is what
/// `error:` prints, with the exit status the kind names.
@Suite struct FailureEnvelopeTests {
  /// The exit status each exit-status kind names.
  static let statusKinds: [String: Int32] = [
    "failure": 1, "usage": 64, "data": 65, "noInput": 66, "internal": 70, "cantCreate": 73, "io": 74, "tryAgain": 75,
  ]

  /// The kinds `schemas/error.schema.json` lists.
  static func schemaKinds() throws -> [String] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let data = try Data(contentsOf: root.appendingPathComponent("schemas/error.schema.json"))
    let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let definitions = try #require(schema["$defs"] as? [String: Any])
    let kind = try #require(definitions["kind"] as? [String: Any])
    return try #require(kind["enum"] as? [String])
  }

  /// The run's one JSON document and its `error` object; checks the kind
  /// against the schema, the message against standard error, and an
  /// exit-status kind against the status.
  func envelope(_ result: CalldirProcess.Result, kind: String, status: Int32) throws -> [String: Any] {
    #expect(result.status == status, "\(result.standardError)")
    #expect(result.lines.count == 1, "one document, not: \(result.standardOutput)")
    let document = try parseJSON(result.standardOutput)
    let error = try #require(document["error"] as? [String: Any])
    #expect(error["kind"] as? String == kind)
    #expect(try Self.schemaKinds().contains(kind))
    if let statusOfKind = Self.statusKinds[kind] { #expect(statusOfKind == status) }
    let message = try #require(error["message"] as? String)
    #expect(result.standardError.split(separator: "\n").contains { $0 == "error: " + message }, "\(result.standardError)")
    return document
  }

  @Test func theVocabularyHasEachKindOnce() throws {
    let kinds = try Self.schemaKinds()
    #expect(Set(kinds).count == kinds.count)
    #expect(Set(Self.statusKinds.keys).isSubset(of: kinds))
  }

  @Test func storeAndFileCommandsNameTheExitStatus() throws {
    let directory = try TemporaryDirectory()
    let missing = directory.path("missing")
    _ = try envelope(try CalldirProcess.run(["history", "--store", missing, "--json"]), kind: "noInput", status: 66)
    try directory.write("garbage.cdir", "not a blob at all, just text\n")
    _ = try envelope(
      try CalldirProcess.run(["inspect", directory.path("garbage.cdir"), "--json"]), kind: "data", status: 65)
    _ = try envelope(
      try CalldirProcess.run(["keygen", "--output", directory.path("no/such/key"), "--json"]), kind: "cantCreate",
      status: 73)
    _ = try envelope(
      try CalldirProcess.run(["validate", directory.path("absent.cdir"), "--json"]), kind: "noInput", status: 66)
    _ = try envelope(
      try CalldirProcess.run(["device", "status", "--device", missing, "--json"]), kind: "noInput", status: 66)
    _ = try envelope(try CalldirProcess.run(["prune", "--store", missing, "--keep", "many", "--json"]), kind: "usage", status: 64)
  }

  @Test func buildNamesWhatStoppedIt() throws {
    let directory = try TemporaryDirectory()
    let absent = try envelope(
      try CalldirProcess.run([
        "build", "--config", directory.path("absent.json"), "--store", directory.path("store"), "--json",
      ]), kind: "config", status: 66)
    #expect(absent.count == 1)

    try directory.write("list.txt", "+33612345678\nbad\nworse\n")
    try directory.write(
      "calldir.json", #"{"maxRejectRatio": 0.1, "sources": [{"path": "list.txt", "format": "lines", "list": "block"}]}"#)
    let refused = try envelope(
      try CalldirProcess.run([
        "build", "--config", directory.path("calldir.json"), "--store", directory.path("store"), "--json",
        "--as-of", "2026-12-01",
      ]), kind: "rejectRatio", status: 65)
    let error = try #require(refused["error"] as? [String: Any])
    #expect(error["source"] as? String == "list.txt")
    let refusals = try #require(refused["refusals"] as? [[String: Any]])
    #expect(refusals.map { $0["kind"] as? String } == ["rejectRatio"])
    #expect(refused["rejects"] is String)
  }

  @Test func syncNamesTheStepThatFailed() throws {
    let directory = try TemporaryDirectory()
    try directory.write("list.txt", "+33612345678\n")
    try directory.write("calldir.json", #"{"sources": [{"path": "list.txt", "format": "lines", "list": "block"}]}"#)
    let keys = try CalldirProcess.run(["keygen", "--output", directory.path("store-key")])
    let other = try CalldirProcess.run(["keygen", "--output", directory.path("other-key")])
    #expect(keys.status == 0 && other.status == 0)
    let built = try CalldirProcess.run([
      "build", "--config", directory.path("calldir.json"), "--store", directory.path("store"),
      "--signing-key", directory.path("store-key.key"), "--as-of", "2026-12-01",
    ])
    #expect(built.status == 0, "\(built.standardError)")
    func sync(_ publicKey: String) throws -> CalldirProcess.Result {
      try CalldirProcess.run([
        "device", "sync", "--device", directory.path("phone"), "--from", directory.path("store"),
        "--public-key", publicKey, "--json",
      ])
    }
    _ = try envelope(try sync(directory.path("other-key.pub")), kind: "signature", status: 65)
    _ = try envelope(try sync(directory.path("absent.pub")), kind: "noInput", status: 66)
  }
}

extension FailureEnvelopeTests {
  /// The exit-codes page lists every kind of the schema, and no other.
  @Test func theExitCodesPageListsTheVocabulary() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let page = try String(contentsOf: root.appendingPathComponent("docs/reference/exit-codes.md"), encoding: .utf8)
    let section = try #require(page.range(of: "## One vocabulary of `kind`")).upperBound
    let rows = page[section...].split(separator: "\n").filter { $0.hasPrefix("| `") }
    let listed = rows.flatMap { row in
      row.split(separator: "|")[0].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`")) }
    }
    let kinds = try Self.schemaKinds()
    #expect(listed.sorted() == kinds.sorted())
  }
}
