import CalldirSystem
import Foundation
import Testing

/// Every command's `--json` document on fixed inputs (fixed `--as-of`):
/// valid against its schema in `schemas/output/` and equal to its golden
/// file, volatile members (times, durations, memory, fresh keys) and the
/// scratch directory aside (``JSONGoldens``).
@Suite struct JSONOutputGoldenTests {
  let directory: TemporaryDirectory

  init() throws {
    directory = try TemporaryDirectory()
  }

  var store: String { directory.path("store") }

  /// Runs `calldir arguments…`, expecting `status`; returns standard output.
  func run(_ arguments: [String], input: String? = nil, status: Int32 = 0) throws -> String {
    let result = try CalldirProcess.run(arguments, input: input)
    try #require(result.status == status, "\(arguments): \(result.status) \(result.standardError)")
    return result.standardOutput
  }

  /// Version `version`'s sources: blocking numbers (some leave and come
  /// with each version), a range, caller-ID labels and an allowlist.
  func writeSources(version: Int) throws {
    var block = (0..<24).filter { ($0 + version) % 5 != 0 }.map { "+1 408 555 \(2000 + $0 * 7)" }
    block += ["+44 20 7946 0018", "not a number", "+1 646 555 \(1000 + version)"]
    try directory.write("block.txt", block.joined(separator: "\n") + "\n")
    try directory.write("ranges.txt", "+336123456##\n")
    try directory.write(
      "names.csv", "phone,name\n+12125550142,Corner Shop\n+14085551212,Spam Co \(version)\n+4930123456,Erika\n")
    try directory.write("allow.txt", "+14085552007\n")
    try directory.write(
      "calldir.json",
      #"{"dataset": "com.example.golden", "signingKey": "key.key", "maxEntriesPerExtension": 60, "maxRemovalRatio": 0.9, "#
        + #""liveCallerID": {"useCase": "com.example.lookup", "block": {"shardCount": 2}, "identity": {"shardCount": 2}}, "#
        + #""sources": [{"path": "block.txt", "format": "lines", "list": "block", "region": "US"}, "#
        + #"{"path": "ranges.txt", "format": "patterns", "list": "block"}, "#
        + #"{"path": "names.csv", "format": "csv", "list": "identify", "number": "phone", "label": "name"}, "#
        + #"{"path": "allow.txt", "format": "lines", "list": "allow"}]}"#)
  }

  /// Builds `version` (`--as-of 2026-03-0V`) and returns `build --json`.
  @discardableResult
  func build(_ version: Int) throws -> String {
    try writeSources(version: version)
    return try run([
      "build", "--config", directory.path("calldir.json"), "--store", store, "--as-of", "2026-03-0\(version)", "--json",
    ])
  }

  @Test func storeCommands() throws {
    let keygen = try run(["keygen", "--output", directory.path("key"), "--json"])
    try JSONGoldens.check(keygen, schema: "keygen", golden: "keygen", scratch: directory)
    let builds = try build(1) + build(2)
    try JSONGoldens.check(builds, schema: "build", golden: "build", scratch: directory)

    let history = try run(["history", "--store", store, "--json"])
    try JSONGoldens.check(history, schema: "history", golden: "history", scratch: directory)
    let snapshot = directory.path("store/snapshots/snapshot-000002.cdir")
    let delta = try #require(
      try FileManager.default.contentsOfDirectory(atPath: directory.path("store/deltas")).sorted().first)
    let inspect = try run(["inspect", "--json", snapshot]) + run(["inspect", "--json", directory.path("store/deltas/" + delta)])
    try JSONGoldens.check(inspect, schema: "inspect", golden: "inspect", scratch: directory)
    let diff = try run(["diff", "--store", store, "--output", directory.path("1-2.cdir"), "--json", "1", "2"])
    try JSONGoldens.check(diff, schema: "diff", golden: "diff", scratch: directory)
    let explain = try run(["explain", "--store", store, "--json", "+14085552014", "+14085551212", "+33612345605", "+14085552007"])
    try JSONGoldens.check(explain, schema: "explain", golden: "explain", scratch: directory)
    let report = try run(["report", "--store", store, "--json"])
    try JSONGoldens.check(report, schema: "report", golden: "report", scratch: directory)
    let validate = try run(["validate", "--json", snapshot])
    try JSONGoldens.check(validate, schema: "validate", golden: "validate", scratch: directory)
    let export = try run(["export", "live-caller-id", "--store", store, "--output", directory.path("lcid"), "--json"])
    try JSONGoldens.check(export, schema: "export.schema.json", golden: "export-live-caller-id", scratch: directory)
    let prune = try run(["prune", "--store", store, "--keep", "1", "--json"])
    try JSONGoldens.check(prune, schema: "prune", golden: "prune", scratch: directory)
    let repair = try run(["repair", "--store", store, "--json"])
    try JSONGoldens.check(repair, schema: "repair", golden: "repair", scratch: directory)
  }

  @Test func deviceCommands() throws {
    _ = try run(["keygen", "--output", directory.path("key")])
    try build(1)
    try build(2)
    let load = try run(["device", "load", "--device", directory.path("loaded"), "--json", directory.path("store/snapshots/snapshot-000001.cdir")])
    try JSONGoldens.check(load, schema: "device-load", golden: "device-load", scratch: directory)
    let phone = directory.path("phone")
    let sync = try run(["device", "sync", "--device", phone, "--from", store, "--public-key", directory.path("key.pub"), "--json"])
    try JSONGoldens.check(sync, schema: "device-sync", golden: "device-sync", scratch: directory)
    let status = try run(["device", "status", "--device", phone, "--json"])
    try JSONGoldens.check(status, schema: "device-status", golden: "device-status", scratch: directory)
    let reset = try run(["device", "reset", "--device", phone, "--json"])
    try JSONGoldens.check(reset, schema: "device-reset", golden: "device-reset", scratch: directory)
  }

  @Test func normalizeGivenAndRead() throws {
    let given = try run(
      ["normalize", "--region", "US", "--json", "--national", "(212) 555-0142", "+44 20 7946 0018", "12", "+1 999 555 0100"])
    let read = try run(["normalize", "--region", "FR", "--json", "--valid"], input: "06 12 34 56 78\n+33 1 99 00 00 00\nabc\n")
    try JSONGoldens.check(given + read, schema: "normalize", golden: "normalize", scratch: directory)
  }

  /// A golden comparison fails when a document changes: a member's value,
  /// the key order, or a number's form.
  @Test func aChangedDocumentIsNotItsGolden() throws {
    let document = try JSONParser.parse(#"{"a": 1, "b": [0.5, "x"], "createdAt": "2026-03-01T10:00:00Z"}"#)
    let normalized = JSONGoldens.normalize(document, scratch: directory.url.path).serialized()
    #expect(normalized == #"{"a":1,"b":[0.5,"x"],"createdAt":"<volatile>"}"#)
    for changed in [#"{"a": 2, "b": [0.5, "x"]}"#, #"{"b": [0.5, "x"], "a": 1}"#, #"{"a": 1.0, "b": [0.5, "x"]}"#] {
      let other = JSONGoldens.normalize(try JSONParser.parse(changed), scratch: directory.url.path).serialized()
      #expect(other != normalized)
    }
    let path = JSONGoldens.normalize(.string(directory.path("store")), scratch: directory.url.path)
    #expect(path == "$SCRATCH/store")
  }
}
