import CallDirectoryFormat
import Foundation
import Testing

@Suite struct DiffCommandTests {
  /// Builds two versions: v2 drops one blocking number, adds one, relabels one.
  func twoVersions() throws -> SampleStore {
    let sample = try SampleStore()
    #expect(try sample.build().status == 0)
    try sample.directory.write("block.txt", "020 7946 0018\n07700 900123\n07700 900999\n")
    try sample.directory.write("names.csv", "phone,name\n+1 212 555 0100,City Clinic (new)\n+1 212 555 0101,Pizza Place\n")
    let second = try sample.build()
    #expect(second.status == 0, "\(second.standardError)")
    return sample
  }

  @Test func diffOfTwoVersionsListsRemovesBeforeAdds() throws {
    let sample = try twoVersions()
    let output = sample.directory.path("d.cdir")
    let result = try CalldirProcess.run(["diff", "--store", sample.store, "1", "2", "--output", output, "--json"])
    #expect(result.status == 0, "\(result.standardError)")
    let json = try jsonObject(result.standardOutput)
    #expect(json["blocking"] as? [String: Int] == ["added": 1, "removed": 1])
    #expect(json["identification"] as? [String: Int] == ["added": 1, "removed": 1, "relabeled": 1])
    #expect(try sample.entries(output) == [
      "-block\t442079460999", "+block\t447700900999",
      "-identify\t12125550100", "+identify\t12125550100\tCity Clinic (new)",
    ])
  }

  @Test func buildPublishesDeltasIdenticalToDiff() throws {
    // Enough scattered numbers that a small delta is smaller than the snapshot.
    let numbers = (0..<3000).map { "020 7946 \(String(format: "%04d", ($0 * 7919) % 10000))" }
    let sample = try SampleStore(blockLines: numbers)
    #expect(try sample.build().status == 0)
    try sample.directory.write("block.txt", (numbers.dropFirst(3) + ["07700 900999"]).joined(separator: "\n"))
    #expect(try sample.build().status == 0)
    let latest = try #require(try sample.versions().last)
    let deltas = try #require(latest["deltas"] as? [[String: Any]])
    #expect(deltas.count == 1)
    #expect(deltas.first?["from"] as? Int == 1)
    let published = try #require(deltas.first?["path"] as? String)
    let output = sample.directory.path("d.cdir")
    #expect(try CalldirProcess.run(["diff", "--store", sample.store, "1", "2", "-o", output]).status == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: published)) == Data(contentsOf: URL(fileURLWithPath: output)))
  }

  @Test func identicalSnapshotsGiveAnEmptyDelta() throws {
    let sample = try SampleStore()
    let snapshot = try #require(try jsonObject(try sample.build().standardOutput)["snapshot"] as? String)
    let output = sample.directory.path("empty.cdir")
    let result = try CalldirProcess.run(["diff", snapshot, snapshot, "-o", output, "--json"])
    #expect(result.status == 0)
    #expect(try jsonObject(result.standardOutput)["blocking"] as? [String: Int] == ["added": 0, "removed": 0])
    #expect(try sample.entries(output).isEmpty)
  }

  @Test func badInputsAreRefused() throws {
    let sample = try twoVersions()
    let output = sample.directory.path("d.cdir")
    #expect(try CalldirProcess.run(["diff", "--store", sample.store, "1", "2", "-o", output]).status == 0)
    let deltaAsInput = try CalldirProcess.run(["diff", output, output, "-o", sample.directory.path("x.cdir")])
    #expect(deltaAsInput.status == 65)
    let missing = try CalldirProcess.run(["diff", sample.directory.path("nope.cdir"), output, "-o", sample.directory.path("x.cdir")])
    #expect(missing.status == 66)
    let unknownVersion = try CalldirProcess.run(["diff", "--store", sample.store, "1", "7", "-o", sample.directory.path("x.cdir")])
    #expect(unknownVersion.status == 66)
    let notAVersion = try CalldirProcess.run(["diff", "--store", sample.store, "one", "2", "-o", sample.directory.path("x.cdir")])
    #expect(notAVersion.status == 64)
    // An output that would replace an input or a file of the store.
    let first = sample.store + "/snapshots/snapshot-000001.cdir"
    let bytes = try Data(contentsOf: URL(fileURLWithPath: first))
    for arguments in [
      ["diff", "--store", sample.store, "1", "2", "-o", sample.store + "/deltas/delta-000001-000002.cdir"],
      ["diff", "--store", sample.store, "1", "2", "-o", sample.store + "/d.cdir"],
      ["diff", first, sample.store + "/snapshots/snapshot-000002.cdir", "-o", first],
    ] {
      let refused = try CalldirProcess.run(arguments)
      #expect(refused.status == 73, "\(arguments): \(refused.standardError)")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: first)) == bytes)
    let folder = sample.directory.path("folder")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for target in [folder, "/dev/null", sample.directory.path("no-such-directory/d.cdir")] {
      let refused = try CalldirProcess.run(["diff", "--store", sample.store, "1", "2", "-o", target])
      #expect(refused.status == 73, "\(target): \(refused.standardError)")
    }
  }

  /// A version's file replaced by another version's is never diffed; a
  /// blob whose entries do not hash to its digest is never printed.
  @Test func aReplacedOrForgedSnapshotIsRefused() throws {
    let sample = try twoVersions()
    let second = sample.store + "/snapshots/snapshot-000002.cdir"
    let original = try Data(contentsOf: URL(fileURLWithPath: second))
    try FileManager.default.removeItem(atPath: second)
    try FileManager.default.copyItem(atPath: sample.store + "/snapshots/snapshot-000001.cdir", toPath: second)
    let replaced = try CalldirProcess.run(["diff", "--store", sample.store, "1", "2", "-o", sample.directory.path("d.cdir")])
    #expect(replaced.status == 65 && replaced.standardError.contains("does not match the catalog"), "\(replaced.standardError)")
    #expect(!FileManager.default.fileExists(atPath: sample.directory.path("d.cdir")))

    // Another digest in a header whose checksum is made to match.
    var forged = [UInt8](original)
    forged[40] ^= 0xFF
    let headerLength = Int(forged[8]) | Int(forged[9]) << 8 | Int(forged[10]) << 16 | Int(forged[11]) << 24
    var crc = CRC32C()
    forged.withUnsafeBytes { crc.update(UnsafeRawBufferPointer(rebasing: $0[0..<(headerLength - 4)])) }
    for index in 0..<4 { forged[headerLength - 4 + index] = UInt8(truncatingIfNeeded: crc.value >> (8 * UInt32(index))) }
    let path = sample.directory.path("forged.cdir")
    try Data(forged).write(to: URL(fileURLWithPath: path))
    let entries = try CalldirProcess.run(["inspect", "--entries", path])
    #expect(entries.status == 65 && entries.standardOutput.isEmpty, "\(entries.standardError)")
    #expect(entries.standardError.contains("digest"), "\(entries.standardError)")
  }
}
