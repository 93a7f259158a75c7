import Testing
@testable import CallDirectoryFormat
import CalldirSystem
import FormatFixtures

@Suite struct FileIOTests {
  @Test func atomicWriteAndStreamingRead() throws {
    let dir = try makeTemporaryDirectory()
    defer { removeTree(dir) }
    let path = "\(dir)/snapshot.cdir"
    let numbers = DatasetShapes.scattered(count: 50_000, universeScale: 0.02, seed: 4)
    let writer = try FullSnapshotWriter(path: path, version: 12, labels: ["Scam 🚫", "Bank"])
    try writer.appendBlocking(33_162_000_000...33_162_999_999)
    for number in numbers where number > 33_162_999_999 { try writer.appendBlocking(number) }
    try writer.appendIdentification(18_005_551_234, labelID: 1)
    try writer.appendIdentification(18_005_551_235...18_005_551_300, labelID: 0)
    // Before finish, only the temporary file exists.
    #expect(listDirectory(dir).allSatisfy { $0.hasPrefix(".snapshot.cdir.tmp-") })
    let header = try writer.finish()
    #expect(listDirectory(dir) == ["snapshot.cdir"])

    let onDisk = try BlobReader.readHeader(path: path)
    #expect(onDisk == header)
    #expect(onDisk.version == 12)
    let reader = try BlobReader(path: path)
    let blocking = try drain(reader.blocking(), chunk: 1000)
    #expect(blocking.count == Int(header.entryCount(.blocking)))
    #expect(blocking.first == 33_162_000_000)
    let entries = try drain(reader.identification())
    #expect(entries.count == 67)
    #expect(try reader.label(entries[0].label) == "Bank")
    #expect(try reader.label(entries[1].label) == "Scam 🚫")
    #expect(throws: BlobError.unknownLabel(id: 2, labelCount: 2)) { _ = try reader.label(2) }
    #expect(try reader.verify().digestVerified)
  }

  @Test func droppedWriterLeavesNoFile() throws {
    let dir = try makeTemporaryDirectory()
    defer { removeTree(dir) }
    do {
      let writer = try FullSnapshotWriter(path: "\(dir)/x.cdir", version: 1)
      try writer.appendBlocking(5)
    }
    #expect(listDirectory(dir).isEmpty)
  }

  @Test func replacesExistingFileAtomically() throws {
    let dir = try makeTemporaryDirectory()
    defer { removeTree(dir) }
    let path = "\(dir)/s.cdir"
    try Snapshot(version: 1, blocking: [1, 2, 3]).write(to: path)
    try Snapshot(version: 2, blocking: [4]).write(to: path)
    #expect(try Snapshot(contentsOf: path) == Snapshot(version: 2, blocking: [4]))
    #expect(listDirectory(dir) == ["s.cdir"])
  }

  @Test func missingFile() {
    #expect(throws: BlobError.io(FileError(operation: "open", path: "/nonexistent/x.cdir", errno: .noSuchFileOrDirectory))) {
      _ = try BlobReader(path: "/nonexistent/x.cdir")
    }
    #expect(throws: BlobError.self) { _ = try FullSnapshotWriter(path: "/nonexistent/x.cdir", version: 1) }
  }
}
