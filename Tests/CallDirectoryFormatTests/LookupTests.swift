import CalldirSystem
import Testing
@testable import CallDirectoryFormat
import FormatFixtures

/// An in-memory byte source that records its reads.
func countingSource(bytes: [UInt8]) -> _ByteSource {
  let source = _ByteSource(bytes: bytes)
  source.readLog = []
  return source
}

extension _ByteSource {
  var reads: [(offset: UInt64, count: Int)] { readLog ?? [] }

  func resetReads() {
    readLog = []
  }
}

/// A blob's format version, for parameterized tests.
struct FormatVersionCase: CustomTestStringConvertible, Sendable {
  var version: UInt16
  var testDescription: String { "format version \(version)" }

  static let all = [FormatVersionCase(version: 2), FormatVersionCase(version: 1)]

  /// `bytes` (written by the current writer) in this case's format version.
  func blob(_ bytes: [UInt8]) throws -> [UInt8] {
    version == 1 ? try BlobSurgery.downgradeToVersion1(bytes) : bytes
  }
}

@Suite struct LookupTests {
  static let entries = LookupDataset.entries(cycles: 200, seed: 41)
  static let encoded: [UInt8] = (try? entries.encoded(dataset: "lookup-tests")) ?? []

  /// Every lookup agrees with a sequential decode of the same blob: on
  /// numbers below the first and above the last, in gaps, at every frame
  /// boundary, on members, in both sections, in both format versions.
  @Test(arguments: FormatVersionCase.all)
  func lookupsAgreeWithSequentialDecode(_ format: FormatVersionCase) throws {
    let bytes = try format.blob(Self.encoded)
    let reader = try BlobReader(bytes: bytes)
    #expect(reader.header.formatVersion == format.version)
    let lookup = BlobLookup(reader: reader)
    let blockingFrames = try lookup._index(.blocking).frames
    let identificationFrames = try lookup._index(.identification).frames
    #expect(blockingFrames.count >= 24, "\(blockingFrames.count) blocking frames")
    #expect(identificationFrames.count >= 12, "\(identificationFrames.count) identification frames")

    let sequential = try BlobReader(bytes: bytes)
    let blocked = Set(try drain(sequential.blocking()))
    var labelIDs = [Int64: UInt32]()
    for entry in try drain(sequential.identification()) { labelIDs[entry.number] = entry.label }
    #expect(blocked.count == Self.entries.blocking.count)
    #expect(labelIDs.count == Self.entries.identification.count)

    let bases = (blockingFrames + identificationFrames).map(\.base)
    let queries = LookupDataset.queries(for: Self.entries, bases: bases, seed: 7)
    let contained = try lookup.containsBlocking(queries)
    let ids = try lookup.labelIDs(for: queries, in: .identification)
    let texts = try lookup.identificationLabels(for: queries)
    var wrong = 0
    for (index, number) in queries.enumerated() {
      if contained[index] != blocked.contains(number) { wrong += 1 }
      if ids[index] != labelIDs[number] { wrong += 1 }
      if texts[index] != labelIDs[number].map({ LookupDataset.labels[Int($0)] }) { wrong += 1 }
    }
    #expect(wrong == 0, "\(wrong) wrong answers of \(3 * queries.count)")
    // Many hits and many misses, so both answers are exercised.
    #expect(contained.filter { $0 }.count > queries.count / 4)
    #expect(contained.filter { !$0 }.count > queries.count / 4)

    // One number at a time gives the same answers as the batch.
    for index in stride(from: 0, to: queries.count, by: queries.count / 150) {
      #expect(try lookup.containsBlocking(queries[index]) == contained[index], "\(queries[index])")
      #expect(try lookup.identificationLabel(for: queries[index]) == texts[index], "\(queries[index])")
    }
  }

  /// Each frame holds exactly the numbers above its base up to the next
  /// frame's base, so the binary search over bases finds the right frame.
  @Test func framesPartitionTheNumbersByBase() throws {
    let lookup = BlobLookup(reader: try BlobReader(bytes: Self.encoded))
    let index = try lookup._index(.blocking)
    var position = 0
    for (frameIndex, frame) in index.frames.enumerated() {
      let numbers = Self.entries.blocking[position..<(position + Int(frame.entryCount))]
      #expect(frame.base == (position == 0 ? 0 : UInt64(Self.entries.blocking[position - 1])))
      #expect(numbers.allSatisfy { UInt64($0) > frame.base && UInt64($0) <= index.upperBound(ofFrame: frameIndex) })
      if let first = numbers.first, let last = numbers.last {
        #expect(index.frame(containing: UInt64(first)) == frameIndex)
        #expect(index.frame(containing: UInt64(last)) == frameIndex)
        #expect(index.frame(containing: UInt64(last) + 1) == (frameIndex + 1 < index.frames.count ? frameIndex + 1 : frameIndex))
      }
      position += Int(frame.entryCount)
    }
    #expect(position == Self.entries.blocking.count)
    #expect(index.frame(containing: 0) == nil)
  }

  /// Indexing a version 2 section reads each frame header with one read
  /// and nothing else; a lookup then reads one frame.
  @Test func indexReadsOnlyFrameHeaders() throws {
    let source = countingSource(bytes: Self.encoded)
    let reader = try BlobReader(source: source)
    let lookup = BlobLookup(reader: reader)
    source.resetReads()
    let frames = try lookup._index(.blocking).frames
    #expect(source.reads.count == frames.count)
    #expect(source.reads.allSatisfy { $0.count == 24 })
    #expect(source.reads.map(\.offset) == frames.map(\.offset))
    source.resetReads()
    let number = Self.entries.blocking[Self.entries.blocking.count / 2]
    #expect(try lookup.containsBlocking(number))
    #expect(source.reads.count == 1)
    source.resetReads()
    // A batch decodes each frame it touches once.
    let spread = stride(from: 0, to: Self.entries.blocking.count, by: 997).map { Self.entries.blocking[$0] }
    #expect(try lookup.containsBlocking(spread).allSatisfy { $0 })
    #expect(source.reads.count == frames.count)
  }

  @Test func versionOneFixtureLookups() throws {
    let bytes = try VersionOneTests.fixture("version1-full")
    let lookup = try BlobLookup(reader: BlobReader(bytes: bytes))
    let snapshot = VersionOneFixture.snapshot()
    let blocked = Set(snapshot.blocking)
    var labels = [Int64: String]()
    for entry in snapshot.identification { labels[entry.number] = entry.label }
    let queries = snapshot.blocking.flatMap { [$0 - 1, $0, $0 + 1] } + [0, -7, .max]
    #expect(try lookup.containsBlocking(queries) == queries.map { blocked.contains($0) })
    #expect(try lookup.identificationLabels(for: queries) == queries.map { labels[$0] })
    #expect(try lookup.frameCount(in: .blocking) == 1)
  }

  @Test(arguments: FormatVersionCase.all)
  func deltaSections(_ format: FormatVersionCase) throws {
    let base = Snapshot(
      version: 1, blocking: Array(Self.entries.blocking.prefix(200_000)),
      identification: Self.entries.identification.prefix(1000).map {
        IdentificationEntry(number: $0.number, label: LookupDataset.labels[Int($0.label)])
      })
    let target = Snapshot(
      version: 2, blocking: Array(Self.entries.blocking.dropFirst(50_000)),
      identification: Self.entries.identification.dropFirst(500).prefix(1000).map {
        IdentificationEntry(number: $0.number, label: LookupDataset.labels[Int($0.label) % 3])
      })
    let delta = try SnapshotDelta(from: base, to: target)
    let lookup = BlobLookup(reader: try BlobReader(bytes: format.blob(delta.encoded())))
    #expect(try lookup.frameCount(in: .blockingAdds) > 4)
    let queries = Self.entries.blocking.enumerated().filter { $0.offset % 101 == 0 }.map(\.element) + [0, 5]
    for (section, list) in [
      (BlobSection.blockingRemoves, delta.blockingRemoves), (.blockingAdds, delta.blockingAdds),
      (.identificationRemoves, delta.identificationRemoves),
    ] {
      let members = Set(list)
      #expect(try lookup.contains(queries, in: section) == queries.map { members.contains($0) }, "\(section)")
    }
    let added = delta.identificationAdds.map(\.number)
    let ids = try lookup.labelIDs(for: added + [1, 2], in: .identificationAdds)
    let reader = lookup.reader
    #expect(try ids.prefix(added.count).map { try reader.label(try #require($0)) } == delta.identificationAdds.map(\.label))
    #expect(ids.suffix(2) == [nil, nil])
    #expect(throws: BlobError.wrongKind(expected: .full, actual: .delta)) { try lookup.containsBlocking(5) }
    #expect(throws: BlobError.wrongKind(expected: .full, actual: .delta)) { try lookup.identificationLabel(for: 5) }
    #expect(throws: BlobError.self) { try lookup.contains([5], in: .blocking) }
  }

  @Test func emptyAndSmallSnapshots() throws {
    let empty = BlobLookup(reader: try BlobReader(bytes: Snapshot(version: 1).encoded()))
    #expect(try empty.containsBlocking(1) == false)
    #expect(try empty.identificationLabel(for: 1) == nil)
    #expect(try empty.containsBlocking([]) == [])
    #expect(try empty.frameCount(in: .blocking) == 0)

    let small = Snapshot(
      version: 2, blocking: [1, 2, 3, BlobLimits.maxNumber],
      identification: [IdentificationEntry(number: 7, label: "x"), IdentificationEntry(number: BlobLimits.maxNumber, label: "y")])
    let lookup = BlobLookup(reader: try BlobReader(bytes: small.encoded()))
    #expect(try lookup.containsBlocking([BlobLimits.maxNumber, 3, 4, 1, 0, .max, 1]) == [true, true, false, true, false, false, true])
    #expect(try lookup.identificationLabels(for: [BlobLimits.maxNumber, 6, 7, 8]) == ["y", nil, "x", nil])
    #expect(throws: BlobError.misuse("the blocking section carries no labels")) {
      try lookup.labelIDs(for: [1], in: .blocking)
    }
    #expect(throws: BlobError.self) { try lookup.frameCount(in: .labels) }
  }

  @Test func opensAFile() throws {
    let dir = try makeTemporaryDirectory()
    defer { removeTree(dir) }
    let path = "\(dir)/lookup.cdir"
    try Snapshot(version: 3, blocking: [18_005_551_234, 18_005_551_240]).write(to: path)
    let lookup = try BlobLookup(path: path)
    #expect(try lookup.containsBlocking([18_005_551_234, 18_005_551_235, 18_005_551_240]) == [true, false, true])
    #expect(throws: BlobError.io(FileError(operation: "open", path: "\(dir)/missing.cdir", errno: .noSuchFileOrDirectory))) {
      _ = try BlobLookup(path: "\(dir)/missing.cdir")
    }
  }
}
