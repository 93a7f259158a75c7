import Foundation
import Testing
@testable import CallDirectoryFormat

/// The worked example of `schemas/blob-format.md` §11 is the writers'
/// output, byte for byte.
@Suite struct SpecExampleTests {
  /// The hex dumps of §11, in order: version 2, then version 1.
  static func exampleDumps() throws -> [[UInt8]] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let spec = try String(contentsOf: root.appendingPathComponent("schemas/blob-format.md"), encoding: .utf8)
    let section = try #require(spec.range(of: "## 11. Example"))
    let end = try #require(spec.range(of: "## 12.", range: section.upperBound..<spec.endIndex))
    var dumps = [[UInt8]]()
    var current: [UInt8]?
    for line in spec[section.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") {
        if let dump = current {
          dumps.append(dump)
          current = nil
        } else {
          current = []
        }
        continue
      }
      guard current != nil else { continue }
      // "0010: 59 01 ...   comment": the offset, then up to 16 bytes.
      let offset = try #require(Int(line.prefix(4), radix: 16), "\(line)")
      #expect(offset == current?.count, "\(line)")
      let bytes = line.dropFirst(6).prefix(16 * 3).split(separator: " ")
      for byte in bytes { current?.append(try #require(UInt8(byte, radix: 16), "\(line)")) }
    }
    return dumps
  }

  static func example(dataset: String) throws -> [UInt8] {
    let sink = MemoryBlobSink()
    let writer = try FullSnapshotWriter(sink: sink, version: 1, labels: ["Spam"], dataset: dataset)
    try writer.appendBlocking(18_005_551_234)
    try writer.appendBlocking(18_005_551_235)
    try writer.appendBlocking(18_005_551_240)
    try writer.appendIdentification(33_612_345_678, labelID: 0)
    try writer.finish()
    return sink.bytes
  }

  @Test func exampleIsTheWritersOutput() throws {
    let dumps = try Self.exampleDumps()
    #expect(dumps.count == 2)
    let versionTwo = try Self.example(dataset: "demo")
    #expect(versionTwo.count == 345)
    #expect(dumps.first == versionTwo)
    let versionOne = try BlobSurgery.downgradeToVersion1(Self.example(dataset: ""))
    #expect(versionOne.count == 265)
    #expect(dumps.last == versionOne)
  }

  @Test func exampleReads() throws {
    for bytes in try Self.exampleDumps() {
      let reader = try BlobReader(bytes: bytes)
      #expect(try reader.verify().digestVerified)
      let snapshot = try reader.readSnapshot()
      #expect(snapshot.blocking == [18_005_551_234, 18_005_551_235, 18_005_551_240])
      #expect(snapshot.identification == [IdentificationEntry(number: 33_612_345_678, label: "Spam")])
      #expect(reader.header.dataset == (reader.header.formatVersion == 2 ? "demo" : ""))
    }
  }
}
