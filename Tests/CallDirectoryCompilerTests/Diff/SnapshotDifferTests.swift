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
    let directory = try TemporaryDirectory()
    var generator = SplitMix64(seed: 7)
    for round in 0..<25 {
      let old = randomSnapshot(version: 1, from: nil, generator: &generator)
      let new = round == 0 ? Snapshot(version: 2, blocking: old.blocking, identification: old.identification)
        : randomSnapshot(version: 2, from: old, generator: &generator)
      let path = directory.path("delta-\(round).cdir")
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
    let path = temporaryPath("delta", suffix: ".cdir")
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

  /// Writes `snapshot` with its dictionary in `order` (the one-shot
  /// writers' byte order, or reversed: a blob another writer made).
  func blob(_ snapshot: Snapshot, reversed: Bool) throws -> [UInt8] {
    var labels = Array(Set(snapshot.identification.map(\.label))).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    if reversed { labels.reverse() }
    let ids = Dictionary(uniqueKeysWithValues: labels.enumerated().map { (Array($1.utf8), UInt32($0)) })
    let sink = MemoryBlobSink()
    let writer = try FullSnapshotWriter(sink: sink, version: snapshot.version, labels: labels)
    for number in snapshot.blocking { try writer.appendBlocking(number) }
    for entry in snapshot.identification { try writer.appendIdentification(entry.number, labelID: ids[Array(entry.label.utf8)] ?? 0) }
    try writer.finish()
    return sink.bytes
  }

  /// Thousands of labels, some only in one version, many numbers
  /// relabelled: the delta's dictionary is streamed from a new blob in
  /// byte order and held from one in another order; the changes are the
  /// same either way, and apply to the target.
  @Test func deltasOfManyLabelsInAnyDictionaryOrder() throws {
    var generator = SplitMix64(seed: 17)
    var old: [Int64: String] = [:]
    for index in 0..<20_000 { old[44_207_946_0000 + Int64(generator.next(below: 40_000))] = "Caller \(index % 3_000) é" }
    var new = old
    for key in Array(new.keys) where generator.next(below: 4) == 0 {
      new[key] = generator.next(below: 3) == 0 ? nil : "Caller \(generator.next(below: 4_500)) é"
    }
    for _ in 0..<500 { new[44_207_946_0000 + Int64(40_000 + generator.next(below: 1000))] = "New \(generator.next(below: 50))" }
    func snapshot(_ version: UInt64, _ labels: [Int64: String]) -> Snapshot {
      Snapshot(
        version: version, blocking: [33_612_345_678],
        identification: labels.sorted { $0.key < $1.key }.map { IdentificationEntry(number: $0.key, label: $0.value) })
    }
    let (first, second) = (snapshot(1, old), snapshot(2, new))
    let expected = try SnapshotDelta(from: first, to: second)
    #expect(expected.identificationAdds.count > 2_000 && expected.identificationRemoves.count > 2_000)
    let directory = try TemporaryDirectory()
    var deltas: [[UInt8]] = []
    for (oldReversed, newReversed) in [(false, false), (true, false), (false, true), (true, true)] {
      let path = directory.path("delta-\(oldReversed)-\(newReversed).cdir")
      let summary = try SnapshotDiffer.writeDelta(
        from: try BlobReader(bytes: try blob(first, reversed: oldReversed)),
        to: try BlobReader(bytes: try blob(second, reversed: newReversed)), path: path)
      let delta = try SnapshotDelta(contentsOf: path)
      #expect(delta.identificationRemoves == expected.identificationRemoves)
      #expect(delta.identificationAdds == expected.identificationAdds)
      #expect(try first.applying(delta).identification == second.identification)
      #expect(summary.identificationAdded == expected.identificationAdds.count)
      #expect(summary.identificationRemoved == expected.identificationRemoves.count)
      #expect(summary.relabeled > 1_000)
      if !newReversed { deltas.append(Array(try Data(contentsOf: URL(fileURLWithPath: path)))) }
    }
    // The old dictionary's order changes nothing in the delta.
    #expect(deltas.count == 2 && deltas[0] == deltas[1])
  }

  /// The join of two dictionaries in byte order, label by label, maps
  /// what a table of the new labels maps; dictionaries in another order
  /// are joined through such a table.
  @Test func labelMappingJoinsDictionariesInAnyOrder() throws {
    var generator = SplitMix64(seed: 23)
    for _ in 0..<30 {
      let pool = ["", "a", "ab", "b", "\u{FF61}", "😀", "é"] + (0..<60).map { "L\($0)" }
      let oldLabels = pool.filter { _ in generator.next(below: 2) == 0 }
      let newLabels = pool.filter { _ in generator.next(below: 2) == 0 }
      for (oldReversed, newReversed) in [(false, false), (true, false), (false, true)] {
        func reader(_ labels: [String], reversed: Bool) throws -> BlobReader {
          let entries = labels.enumerated().map { IdentificationEntry(number: 100 + Int64($0), label: $1) }
          return try BlobReader(bytes: try blob(Snapshot(version: 1, identification: entries), reversed: reversed))
        }
        let old = try reader(oldLabels, reversed: oldReversed)
        let new = try reader(newLabels, reversed: newReversed)
        let mapping = try LabelMapping(from: old, to: new)
        #expect(mapping.newAscend == (!newReversed || newLabels.count < 2))
        for id in 0..<old.labelCount {
          let label = try old.label(UInt32(id))
          let expected = try (0..<new.labelCount).first { try new.label(UInt32($0)).utf8.elementsEqual(label.utf8) }
          #expect(mapping.oldToNew[id] == expected.map(Int32.init) ?? -1, "\(label)")
        }
      }
    }
  }

  @Test func aDeltaNamesItsBaseAndTarget() throws {
    let old = Snapshot(version: 4, blocking: [1, 2, 3])
    let new = Snapshot(version: 9, blocking: [2, 3, 4], identification: [IdentificationEntry(number: 5, label: "x")])
    let path = temporaryPath("delta", suffix: ".cdir")
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
    let path = temporaryPath("delta", suffix: ".cdir")
    #expect(throws: BlobError.self) {
      try SnapshotDiffer.writeDelta(from: try BlobReader(bytes: try delta.encoded()), to: try BlobReader(bytes: try new.encoded()), path: path)
    }
  }
}

