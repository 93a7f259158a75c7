import CallDirectoryFormat
import FormatFixtures
import Foundation
import Testing

@testable import CallDirectoryCompiler

@Suite struct SnapshotDifferTests {
  func randomSnapshot(version: UInt64, from base: Snapshot?, generator: inout SplitMix64) -> Snapshot {
    func below(_ bound: Int) -> Int { Int(generator.next(below: UInt64(bound))) }
    var blocking = Set(base?.blocking ?? [])
    var labels = Dictionary(uniqueKeysWithValues: (base?.identification ?? []).map { ($0.number, $0.label) })
    let names = ["Spam", "Bank", "🚫 scam", "Clinic", "e\u{301}cole", "\u{E9}cole"]
    for _ in 0..<below(400) { blocking.insert(12_125_550_000 + Int64(below(5000))) }
    for _ in 0..<below(blocking.count / 3 + 1) {
      if let any = blocking.randomElement(using: &generator) { blocking.remove(any) }
    }
    for _ in 0..<below(60) { labels[44_207_946_0000 + Int64(below(300))] = names[below(names.count)] }
    for key in Array(labels.keys) where below(5) == 0 {
      labels[key] = below(2) == 0 ? nil : names[below(names.count)]
    }
    return Snapshot(
      version: version, blocking: blocking.sorted(),
      identification: labels.sorted { $0.key < $1.key }.map { IdentificationEntry(number: $0.key, label: $0.value) })
  }

  @Test func deltasReproduceTheTargetExactly() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("differ-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var generator = SplitMix64(seed: 7)
    for round in 0..<25 {
      let old = randomSnapshot(version: 1, from: nil, generator: &generator)
      let new = round == 0 ? Snapshot(version: 2, blocking: old.blocking, identification: old.identification)
        : randomSnapshot(version: 2, from: old, generator: &generator)
      let path = directory.appendingPathComponent("delta-\(round).cdir").path
      let summary = try SnapshotDiffer.writeDelta(
        from: try BlobReader(bytes: try old.encoded()), to: try BlobReader(bytes: try new.encoded()), path: path)
      let delta = try SnapshotDelta(contentsOf: path)
      let expected = try SnapshotDelta(from: old, to: new)
      #expect(delta.blockingRemoves == expected.blockingRemoves)
      #expect(delta.blockingAdds == expected.blockingAdds)
      #expect(delta.identificationRemoves == expected.identificationRemoves)
      #expect(delta.identificationAdds == expected.identificationAdds)
      #expect(try old.applying(delta).blocking == new.blocking)
      #expect(try old.applying(delta).identification == new.identification)
      #expect(summary.blockingAdded == expected.blockingAdds.count)
      #expect(summary.identificationRemoved == expected.identificationRemoves.count)
      if round == 0 { #expect(summary.isEmpty) }
    }
  }

  /// A delta with more blocking adds than it keeps while it writes the
  /// removes merges the blobs twice: the same delta.
  @Test func aDeltaWithMoreAddsThanItHoldsIsTheSame() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("delta-\(UUID().uuidString).cdir").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let pairs = Int64(SnapshotDiffer.maximumHeldAdds) + 1000
    let oldNumbers = (0..<pairs).flatMap { [33_600_000_000 + 4 * $0, 33_600_000_001 + 4 * $0] }
    let old = Snapshot(version: 1, blocking: oldNumbers)
    let new = Snapshot(version: 2, blocking: oldNumbers.map { $0 + 1 } + [33_700_000_000])
    let summary = try SnapshotDiffer.writeDelta(
      from: try BlobReader(bytes: try old.encoded()), to: try BlobReader(bytes: try new.encoded()), path: path)
    let delta = try SnapshotDelta(contentsOf: path)
    let expected = try SnapshotDelta(from: old, to: new)
    #expect(delta.blockingRemoves == expected.blockingRemoves)
    #expect(delta.blockingAdds == expected.blockingAdds)
    #expect(expected.blockingAdds.count > SnapshotDiffer.maximumHeldAdds)
    #expect(summary.blockingAdded == expected.blockingAdds.count)
    #expect(summary.blockingRemoved == expected.blockingRemoves.count)
    #expect(try old.applying(delta).blocking == new.blocking)
  }

  @Test func aDeltaNamesItsBaseAndTarget() throws {
    let old = Snapshot(version: 4, blocking: [1, 2, 3])
    let new = Snapshot(version: 9, blocking: [2, 3, 4], identification: [IdentificationEntry(number: 5, label: "x")])
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("delta-\(UUID().uuidString).cdir").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let summary = try SnapshotDiffer.writeDelta(
      from: try BlobReader(bytes: try old.encoded()), to: try BlobReader(bytes: try new.encoded()), path: path)
    let header = try #require(summary.header)
    #expect(header.kind == .delta)
    #expect(header.baseVersion == 4)
    #expect(header.version == 9)
    #expect(header.baseDigest == (try old.contentDigest()))
    #expect(header.contentDigest == (try new.contentDigest()))
  }

  @Test func refusesDeltasAsInput() throws {
    let old = Snapshot(version: 1, blocking: [1])
    let new = Snapshot(version: 2, blocking: [2])
    let delta = try SnapshotDelta(from: old, to: new)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("delta-\(UUID().uuidString).cdir").path
    #expect(throws: BlobError.self) {
      try SnapshotDiffer.writeDelta(from: try BlobReader(bytes: try delta.encoded()), to: try BlobReader(bytes: try new.encoded()), path: path)
    }
  }
}

