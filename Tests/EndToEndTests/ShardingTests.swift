import Foundation
import Testing

@Suite struct ShardingTests {
  @Test func largeSnapshotsArePublishedAsShardsThatAddUpToTheWhole() throws {
    let directory = try TemporaryDirectory()
    let numbers = (0..<2500).map { "+1 212 \(String(format: "%07d", $0 * 37))" }
    try directory.write("block.txt", numbers.joined(separator: "\n"))
    try directory.write("names.csv", "phone,name\n" + (0..<300).map { "+44 20 7946 \(String(format: "%04d", $0)),Name \($0 % 7)" }.joined(separator: "\n"))
    try directory.write("calldir.json", """
      {"maxEntriesPerExtension": 1000, "sources": [
        {"path": "block.txt", "format": "lines", "list": "block"},
        {"path": "names.csv", "format": "csv", "list": "identify", "number": "phone", "label": "name"}]}
      """)
    let result = try CalldirProcess.run(["build", "--config", directory.path("calldir.json"), "--store", directory.path("store"), "--json"])
    #expect(result.status == 0, "\(result.standardError)")
    let json = try jsonObject(result.standardOutput)
    let shards = try #require(json["shards"] as? [[String: Any]])
    #expect(shards.count >= 3)
    var blocking: [String] = []
    var identification: [String] = []
    for shard in shards {
      let path = try #require(shard["path"] as? String)
      let lines = try CalldirProcess.run(["inspect", "--entries", path]).lines
      #expect(lines.count <= 1000)
      blocking += lines.filter { $0.hasPrefix("block") }
      identification += lines.filter { $0.hasPrefix("identify") }
    }
    let whole = try CalldirProcess.run(["inspect", "--entries", try #require(json["snapshot"] as? String)]).lines
    #expect(blocking + identification == whole)
  }
}

/// `--memory-limit`: a build past its limit spills sorted runs into the
/// store, and publishes exactly what an in-memory build publishes.
@Suite struct MemoryLimitTests {
  @Test func aSpilledBuildPublishesTheSameBlobsAndShards() throws {
    let directory = try TemporaryDirectory()
    // Above what 64M holds in memory (about 1.05M numbers), with repeats.
    var text = ""
    text.reserveCapacity(14_000_000)
    var state: UInt64 = 1
    for _ in 0..<1_150_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      text += "+1\(200 + (state >> 33) % 50)\(1_000_000 + (state >> 17) % 9_000_000)\n"
    }
    try directory.write("block.txt", text)
    try directory.write("allow.txt", "+12005550100-12005559999\n")
    try directory.write("calldir.json", """
      {"maxEntriesPerExtension": 500000, "sources": [
        {"path": "block.txt", "format": "patterns", "list": "block"},
        {"path": "allow.txt", "format": "patterns", "list": "allow"}]}
      """)
    var published: [[String: Any]] = []
    for extra in [[], ["--memory-limit", "64M"]] {
      let store = directory.path(extra.isEmpty ? "memory" : "spilled")
      let result = try CalldirProcess.run(
        ["build", "--config", directory.path("calldir.json"), "--store", store, "--json"] + extra)
      #expect(result.status == 0, "\(result.standardError)")
      published.append(try jsonObject(result.standardOutput))
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: store + "/snapshots").filter { $0.hasPrefix(".") }
      #expect(leftovers.isEmpty)
    }
    #expect(published[0]["spilledRuns"] as? Int == 0)
    #expect((published[1]["spilledRuns"] as? Int ?? 0) > 0)
    #expect(published[0]["counts"] as? [String: Int] == published[1]["counts"] as? [String: Int])
    func blobs(_ json: [String: Any]) throws -> [Data] {
      let shards = (json["shards"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
      return try ([json["snapshot"] as? String ?? ""] + shards).map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
    }
    let memory = try blobs(published[0])
    #expect(memory.count >= 4)
    #expect(try blobs(published[1]) == memory)
  }

  @Test func aLimitBelowTheMinimumIsAUsageError() throws {
    let sample = try SampleStore()
    let result = try sample.build(["--memory-limit", "10M"])
    #expect(result.status == 64)
    #expect(result.standardError.contains("--memory-limit"))
  }
}
