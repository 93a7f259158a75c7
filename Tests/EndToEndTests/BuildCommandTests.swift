import CallDirectoryFormat
import Foundation
import Glibc
import Testing

/// A small multi-source config for end-to-end builds.
struct SampleStore {
  let directory: TemporaryDirectory
  var config: String { directory.path("calldir.json") }
  var store: String { directory.path("store") }

  init(blockLines: [String] = ["020 7946 0018", "+44 20 7946 0999", "07700 900123"]) throws {
    directory = try TemporaryDirectory()
    try directory.write("block.txt", blockLines.joined(separator: "\n") + "\n")
    try directory.write("names.csv", "phone,name\n+1 212 555 0100,City Clinic\n+1 212 555 0101,  Pizza\u{200E}  Place \n")
    try directory.write("ranges.txt", "1800555010#\n")
    try directory.write("allow.txt", "+1 800 555 0105\n")
    try directory.write("calldir.json", """
      {"defaultRegion": "US", "sources": [
        {"path": "block.txt", "format": "lines", "list": "block", "region": "GB"},
        {"path": "names.csv", "format": "csv", "list": "identify", "number": "phone", "label": "name"},
        {"path": "ranges.txt", "format": "patterns", "list": "block"},
        {"path": "allow.txt", "format": "lines", "list": "allow"}
      ]}
      """)
  }

  func build(_ extra: [String] = []) throws -> CalldirProcess.Result {
    try CalldirProcess.run(["build", "--config", config, "--store", store, "--json"] + extra)
  }

  func entries(_ path: String) throws -> [String] {
    try CalldirProcess.run(["inspect", "--entries", path]).lines
  }

  /// The `versions` of `calldir history --json`, which prints one document.
  func versions() throws -> [[String: Any]] {
    let result = try CalldirProcess.run(["history", "--store", store, "--json"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.lines.count == 1)
    let document = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect(document["store"] as? String == store)
    return try #require(document["versions"] as? [[String: Any]])
  }
}

/// Reads a JSON line.
func jsonObject(_ text: String) throws -> [String: Any] {
  let line = text.split(separator: "\n").first.map(String.init) ?? ""
  return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
}

@Suite struct BuildCommandTests {
  @Test func buildsPublishesAndReportsJSON() throws {
    let sample = try SampleStore()
    let result = try sample.build()
    #expect(result.status == 0, "\(result.standardError)")
    let json = try jsonObject(result.standardOutput)
    #expect(json["version"] as? Int == 1)
    #expect(json["unchanged"] as? Bool == false)
    let counts = try #require(json["counts"] as? [String: Int])
    #expect(counts["blocking"] == 12)
    #expect(counts["identification"] == 2)
    #expect(counts["labels"] == 2)
    #expect(counts["rejected"] == 0)
    #expect(counts["allowed"] == 1)
    let snapshot = try #require(json["snapshot"] as? String)
    #expect(FileManager.default.fileExists(atPath: snapshot))
    #expect(try sample.entries(snapshot) == [
      "block\t18005550100", "block\t18005550101", "block\t18005550102", "block\t18005550103",
      "block\t18005550104", "block\t18005550106", "block\t18005550107", "block\t18005550108",
      "block\t18005550109", "block\t442079460018", "block\t442079460999", "block\t447700900123",
      "identify\t12125550100\tCity Clinic", "identify\t12125550101\tPizza Place",
    ])
  }

  @Test func identicalContentPublishesNothing() throws {
    let sample = try SampleStore()
    #expect(try sample.build().status == 0)
    let second = try sample.build()
    #expect(second.status == 0)
    let json = try jsonObject(second.standardOutput)
    #expect(json["unchanged"] as? Bool == true)
    #expect(json["version"] as? Int == 1)
    #expect(try sample.versions().count == 1)
  }

  /// Two stores built from the same inputs with the same `--as-of`, a
  /// second apart: every published file the same, byte for byte (the
  /// manifest's `published` is the day's midnight, not the clock's time).
  @Test func theSameInputsAndAsOfPublishTheSameBytes() throws {
    let keys = try TemporaryDirectory()
    #expect(try CalldirProcess.run(["keygen", "--output", keys.path("store")]).status == 0)
    var trees: [[String: Data]] = []
    for _ in 0..<2 {
      let sample = try SampleStore()
      let options = ["--as-of", "2026-11-30", "--signing-key", keys.path("store.key")]
      #expect(try sample.build(options).status == 0)
      try sample.directory.write("block.txt", "020 7946 0018\n+44 20 7946 0999\n07700 900124\n")
      #expect(try sample.build(options).status == 0)
      let manifest = try jsonObject(String(decoding: try Data(contentsOf: URL(fileURLWithPath: sample.store + "/manifest.json")), as: UTF8.self))
      #expect(manifest["published"] as? String == "2026-11-30T00:00:00Z")
      trees.append(try publishedFiles(under: sample.store))
      usleep(1_100_000)
    }
    #expect(trees[0].keys.sorted() == trees[1].keys.sorted())
    #expect(trees[0].keys.contains("manifest.json.sig") && trees[0].keys.contains("snapshots/snapshot-000002.cdir"))
    for (name, bytes) in trees[0] { #expect(trees[1][name] == bytes, "\(name) differs") }
  }

  /// Every file of a store but its catalog and lock, by path within it.
  private func publishedFiles(under store: String) throws -> [String: Data] {
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: store)
    while let name = enumerator?.nextObject() as? String {
      guard !name.hasPrefix("catalog.sqlite"), name != "lock" else { continue }
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: store + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
      files[name] = try Data(contentsOf: URL(fileURLWithPath: store + "/" + name))
    }
    return files
  }

  @Test func changedContentPublishesTheNextVersion() throws {
    let sample = try SampleStore()
    #expect(try sample.build().status == 0)
    try sample.directory.write("block.txt", "020 7946 0018\n+44 20 7946 0999\n07700 900123\n07700 900124\n")
    let result = try sample.build()
    let json = try jsonObject(result.standardOutput)
    #expect(json["version"] as? Int == 2)
    let versions = try sample.versions()
    #expect(versions.count == 2)
    let latest = try #require(versions.last)
    #expect((latest["counts"] as? [String: Int])?["blocking"] == 13)
  }

  @Test func removalGuardRefusesATruncatedSourceUnlessForced() throws {
    let sample = try SampleStore()
    #expect(try sample.build().status == 0)
    try sample.directory.write("ranges.txt", "# truncated download\n")
    let refused = try sample.build()
    #expect(refused.status == 65)
    #expect(refused.standardError.contains("maxRemovalRatio"))
    #expect(try sample.versions().count == 1)
    let forced = try sample.build(["--force"])
    #expect(forced.status == 0)
    #expect(try jsonObject(forced.standardOutput)["version"] as? Int == 2)
    // The warning says what was published past, not that nothing was.
    #expect(forced.standardError.contains("warning: published with --force past a guard: "))
    #expect(!forced.standardError.contains("nothing published"))
  }

  @Test func sameInputsGiveByteIdenticalBlobs() throws {
    let first = try SampleStore()
    let second = try SampleStore()
    let a = try jsonObject(try first.build().standardOutput)["snapshot"] as? String
    let b = try jsonObject(try second.build().standardOutput)["snapshot"] as? String
    let bytesA = try Data(contentsOf: URL(fileURLWithPath: try #require(a)))
    let bytesB = try Data(contentsOf: URL(fileURLWithPath: try #require(b)))
    #expect(bytesA == bytesB)
  }

  @Test func aHeldLockMeansExit75WithNoWait() throws {
    let sample = try SampleStore()
    #expect(try sample.build().status == 0)
    let descriptor = open(sample.store + "/lock", O_RDWR | O_CREAT, 0o644)
    #expect(descriptor >= 0)
    defer { close(descriptor) }
    #expect(flock(descriptor, LOCK_EX) == 0)
    let result = try sample.build(["--no-wait"])
    #expect(result.status == 75)
    #expect(result.standardError.hasPrefix("error: store is locked"))
  }

  @Test func badInputsGetDistinctExitCodes() throws {
    let sample = try SampleStore()
    let missingConfig = try CalldirProcess.run(["build", "--config", sample.directory.path("nope.json"), "--store", sample.store])
    #expect(missingConfig.status == 66)
    try sample.directory.write("broken.json", "{\"sources\": [}")
    let broken = try CalldirProcess.run(["build", "--config", sample.directory.path("broken.json"), "--store", sample.store])
    #expect(broken.status == 65)
    #expect(broken.standardError.hasPrefix("error: "))
    try FileManager.default.removeItem(atPath: sample.directory.path("names.csv"))
    let missingSource = try sample.build()
    #expect(missingSource.status == 66)
    let usage = try CalldirProcess.run(["build", "--config", sample.config])
    #expect(usage.status == 64)
  }

  @Test func anUnknownSourceRegionSuggestsTheCodeMeant() throws {
    let sample = try SampleStore()
    try sample.directory.write("calldir.json", """
      {"sources": [{"path": "block.txt", "format": "lines", "list": "block", "region": "UK"}]}
      """)
    let result = try sample.build()
    #expect(result.status == 65)
    #expect(result.standardError == "error: sources[0].region: unknown region 'UK' "
      + "(expected an ISO 3166 code such as US, or ZZ); did you mean 'GB'?\n")
  }

  @Test func tooManyRejectsFailsWithNothingPublished() throws {
    let sample = try SampleStore(blockLines: ["nonsense", "more nonsense", "020 7946 0018"])
    let result = try sample.build()
    #expect(result.status == 65)
    #expect(result.standardError.contains("2 of 3 data lines rejected"))
    #expect(!FileManager.default.fileExists(atPath: sample.store + "/snapshots/snapshot-000001.cdir"))
  }

  @Test func killedBuildsLeaveThePreviousVersionIntact() throws {
    let sample = try SampleStore()
    #expect(try sample.build().status == 0)
    // A large source makes the next build take a while; kill it at several points.
    let lines = (0..<300_000).map { "+1 212 \(String(format: "%07d", $0 * 7))" }
    try sample.directory.write("block.txt", lines.joined(separator: "\n"))
    for delay in [20_000, 80_000, 150_000, 300_000] as [useconds_t] {
      let process = Process()
      process.executableURL = CalldirProcess.binary
      process.arguments = ["build", "--config", sample.config, "--store", sample.store, "--force"]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      usleep(delay)
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      for version in try sample.versions() {
        let snapshot = try #require(version["snapshot"] as? String)
        #expect(try CalldirProcess.run(["inspect", snapshot]).status == 0)
      }
    }
    // The store still builds afterwards.
    #expect(try sample.build(["--force"]).status == 0)
  }
}

@Suite struct InspectCommandTests {
  @Test func reportsHeaderAndChecksums() throws {
    let sample = try SampleStore()
    let snapshot = try #require(try jsonObject(try sample.build().standardOutput)["snapshot"] as? String)
    let result = try CalldirProcess.run(["inspect", "--json", snapshot])
    #expect(result.status == 0)
    let json = try jsonObject(result.standardOutput)
    #expect(json["kind"] as? String == "full")
    #expect(json["version"] as? Int == 1)
    #expect(json["checksums"] as? String == "ok")
    #expect((json["digest"] as? String)?.count == 64)
    #expect(json["formatVersion"] as? Int == 2)
    #expect(json["dataset"] as? String == "")
    let text = try CalldirProcess.run(["inspect", snapshot])
    #expect(text.lines.contains("format: calldir blob version 2"))
    #expect(!text.lines.contains { $0.hasPrefix("dataset:") })
  }

  @Test func reportsTheDataset() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("named.cdir")
    let writer = try FullSnapshotWriter(path: path, version: 3, dataset: "fr-arcep 🚫")
    try writer.appendBlocking(33_612_345_678)
    try writer.finish()
    let text = try CalldirProcess.run(["inspect", path])
    #expect(text.status == 0, "\(text.standardError)")
    #expect(text.lines.contains("dataset: fr-arcep 🚫"))
    let json = try jsonObject(try CalldirProcess.run(["inspect", "--json", path]).standardOutput)
    #expect(json["dataset"] as? String == "fr-arcep 🚫")
  }

  @Test func corruptAndMissingBlobsAreRefused() throws {
    let sample = try SampleStore()
    let snapshot = try #require(try jsonObject(try sample.build().standardOutput)["snapshot"] as? String)
    var bytes = try Data(contentsOf: URL(fileURLWithPath: snapshot))
    bytes[bytes.count - 3] ^= 0x5A
    let corrupt = sample.directory.path("corrupt.cdir")
    try bytes.write(to: URL(fileURLWithPath: corrupt))
    let result = try CalldirProcess.run(["inspect", corrupt])
    #expect(result.status == 65)
    #expect(result.standardError.hasPrefix("error: "))
    let truncated = sample.directory.path("truncated.cdir")
    try bytes.prefix(40).write(to: URL(fileURLWithPath: truncated))
    #expect(try CalldirProcess.run(["inspect", "--entries", truncated]).status == 65)
    #expect(try CalldirProcess.run(["inspect", sample.directory.path("missing.cdir")]).status == 66)
    try sample.directory.write("text.cdir", "block\t123\n")
    #expect(try CalldirProcess.run(["inspect", sample.directory.path("text.cdir")]).status == 65)
  }
}

@Suite struct DamagedStoreTests {
  @Test func aDamagedPreviousBlobStopsTheBuildUnlessForced() throws {
    let sample = try SampleStore()
    let snapshot = try #require(try jsonObject(try sample.build().standardOutput)["snapshot"] as? String)
    var bytes = try Data(contentsOf: URL(fileURLWithPath: snapshot))
    bytes[bytes.count - 5] ^= 0xFF
    try bytes.write(to: URL(fileURLWithPath: snapshot))
    try sample.directory.write("block.txt", "020 7946 0018\n07700 900124\n")
    let refused = try sample.build()
    #expect(refused.status == 65)
    #expect(refused.standardError.hasPrefix("error: "))
    let forced = try sample.build(["--force"])
    #expect(forced.status == 0, "\(forced.standardError)")
    #expect(forced.standardError.contains("warning: "))
    #expect(try jsonObject(forced.standardOutput)["version"] as? Int == 2)
  }
}
