import Testing
@testable import CallDirectoryFormat
import FormatFixtures

@Suite struct DeltaTests {
  private func snapshots() throws -> (Snapshot, Snapshot) {
    let common = randomNumbers(count: 5000, below: 1 << 36, seed: 8)
    let base = Snapshot(
      version: 41,
      blocking: common.filter { $0 % 3 != 0 } + Array(Int64(1 << 37)...Int64(1 << 37) + 999),
      identification: common.prefix(2000).map { IdentificationEntry(number: $0, label: $0 % 2 == 0 ? "Even ✅" : "Odd") })
    var target = Snapshot(
      version: 42,
      blocking: common.filter { $0 % 5 != 0 } + Array(Int64(1 << 37) + 500...Int64(1 << 37) + 1999),
      identification: common.prefix(2500).map { IdentificationEntry(number: $0, label: $0 % 7 == 0 ? "Seven 🚫" : ($0 % 2 == 0 ? "Even ✅" : "Odd")) })
    target.identification.removeAll { $0.number % 11 == 0 }
    return (base, target)
  }

  @Test func diffEncodeDecodeApply() throws {
    let (base, target) = try snapshots()
    let delta = try SnapshotDelta(from: base, to: target)
    #expect(!delta.isEmpty)
    #expect(delta.baseVersion == 41 && delta.targetVersion == 42)
    let bytes = try delta.encoded()
    let reader = try BlobReader(bytes: bytes)
    #expect(reader.header.kind == .delta)
    #expect(reader.header.baseDigest == (try base.contentDigest()))
    #expect(reader.header.contentDigest == (try target.contentDigest()))
    #expect(reader.header.entryCount(.blockingRemoves) == UInt64(delta.blockingRemoves.count))
    let verification = try reader.verify()
    #expect(!verification.digestVerified)
    let decoded = try SnapshotDelta(blob: bytes)
    #expect(decoded == delta)
    #expect(try base.applying(decoded) == target)
    try reader.header.requireBase(version: 41, digest: base.contentDigest())
  }

  @Test func refusesOtherBase() throws {
    let (base, target) = try snapshots()
    let delta = try SnapshotDelta(from: base, to: target)
    let header = try BlobReader(bytes: delta.encoded()).header
    #expect(throws: BlobError.self) { try header.requireBase(version: 40, digest: base.contentDigest()) }
    #expect(throws: BlobError.self) { try header.requireBase(version: 41, digest: target.contentDigest()) }
    var other = base
    other.blocking.removeLast()
    #expect(throws: BlobError.self) { try other.applying(delta) }
    var stale = base
    stale.version = 40
    #expect(throws: BlobError.self) { try stale.applying(delta) }
    let full = try BlobReader(bytes: base.encoded()).header
    #expect(throws: BlobError.wrongKind(expected: .delta, actual: .full)) {
      try full.requireBase(version: 41, digest: base.contentDigest())
    }
  }

  @Test func labelChangeIsRemovePlusAdd() throws {
    let base = Snapshot(version: 1, identification: [IdentificationEntry(number: 18_005_551_234, label: "Shop")])
    let target = Snapshot(version: 2, identification: [IdentificationEntry(number: 18_005_551_234, label: "🚫 Scam")])
    let delta = try SnapshotDelta(from: base, to: target)
    #expect(delta.identificationRemoves == [18_005_551_234])
    #expect(delta.identificationAdds == target.identification)
    #expect(try base.applying(SnapshotDelta(blob: delta.encoded())) == target)
  }

  @Test func emptyDelta() throws {
    let snapshot = Snapshot(version: 5, blocking: [1, 2, 3])
    var next = snapshot
    next.version = 6
    let delta = try SnapshotDelta(from: snapshot, to: next)
    #expect(delta.isEmpty)
    let reader = try BlobReader(bytes: delta.encoded())
    for section in [BlobSection.blockingRemoves, .blockingAdds, .identificationRemoves] {
      #expect(try reader.numbers(section).next() == nil)
    }
    #expect(try reader.identificationAdds().next() == nil)
    try reader.verify()
  }

  @Test func streamingDeltaWriter() throws {
    let sink = MemoryBlobSink()
    let writer = try DeltaWriter(
      sink: sink, baseVersion: 1, baseDigest: .empty, targetVersion: 2, targetDigest: .zero)
    try writer.appendBlockingRemove(5)
    try writer.appendBlockingAdd(33_162_000_000...33_162_999_999)
    try writer.appendBlockingAdd(33_163_000_005)
    try writer.appendIdentificationRemove(7...9)
    try writer.setLabels(["a", "b"])
    try writer.appendIdentificationAdd(100, labelID: 1)
    try writer.appendIdentificationAdd(200...299, labelID: 0)
    #expect(throws: BlobError.misuse("blocking adds entries must come before identification adds entries")) {
      try writer.appendBlockingAdd(1)
    }
    let header = try writer.finish()
    #expect(header.entryCount(.blockingAdds) == 1_000_001)
    // Four one-frame sections and two labels after the header: a million
    // added numbers cost a run block.
    #expect(header.fileSize - UInt64(header.headerSize) < 150)
    let reader = try BlobReader(bytes: sink.bytes)
    #expect(try drain(reader.blockingRemoves()) == [5])
    #expect(try drain(reader.identificationRemoves()) == [7, 8, 9])
    let adds = try drain(reader.identificationAdds())
    #expect(adds.count == 101 && adds[0] == (100, 1) && adds[1] == (200, 0))
    #expect(throws: BlobError.wrongKind(expected: .full, actual: .delta)) { _ = try reader.blocking() }
    try reader.verify()
  }
}

@Suite struct DeterminismTests {
  @Test func sameEntriesSameBytes() throws {
    let numbers = DatasetShapes.scattered(count: 30_000, universeScale: 0.05, seed: 77)
    let entries = DatasetShapes.labelled(numbers, labelCount: 9, seed: 5)
    let labels = (0..<9).map { "label \($0) ☎️" }
    let a = try encodeFull(blocking: numbers, identification: entries, labels: labels, version: 9)
    let b = try encodeFull(blocking: numbers, identification: entries, labels: labels, version: 9)
    #expect(a == b)
    let c = try encodeFull(blocking: numbers, identification: entries, labels: labels, version: 10)
    #expect(a != c)
    #expect(DatasetShapes.scattered(count: 1000, universeScale: 0.1, seed: 1)
      == DatasetShapes.scattered(count: 1000, universeScale: 0.1, seed: 1))
  }

  @Test func snapshotEncodingIndependentOfLabelFirstUse() throws {
    let first = Snapshot(identification: [
      IdentificationEntry(number: 1, label: "b"), IdentificationEntry(number: 2, label: "a"),
    ])
    let bytes = try first.encoded()
    #expect(try first.encoded() == bytes)
    #expect(try BlobReader(bytes: bytes).label(0) == "a")
  }

  /// Cross-checked with Python: hashlib.sha256 over the canonical stream.
  @Test func contentDigestKnownAnswer() throws {
    let digest = try Snapshot.contentDigest(
      blocking: [1, 18_005_551_234, BlobLimits.maxNumber],
      identification: [
        IdentificationEntry(number: 33_612_345_678, label: "🚫 démarchage"),
        IdentificationEntry(number: 33_612_345_679, label: ""),
      ])
    #expect(digest.hex == "de1c183cebb420c82e2bd566db10e62acce4046435bed34a418dd4f22f9b8ac5")
    #expect(ContentDigest(hex: digest.hex) == digest)
    #expect(ContentDigest.empty.hex == "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7")
    // A run of consecutive numbers is one escape, however it was appended.
    #expect(try Snapshot.contentDigest(blocking: [5, 6, 7, 8, 10, 11, 20], identification: []).hex
      == "4f270aae0ea93c7622975151b5fad772b4b797785089cad1d4507b9c2dfdb729")
  }
}
