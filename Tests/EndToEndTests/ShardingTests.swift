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
