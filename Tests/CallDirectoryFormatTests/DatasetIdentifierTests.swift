import Testing
@testable import CallDirectoryFormat

/// The version 2 header's dataset identifier: 64 bytes after the fixed
/// fields, the name as UTF-8, zero-padded.
@Suite struct DatasetIdentifierTests {
  private func fullBlob(dataset: String) throws -> [UInt8] {
    let sink = MemoryBlobSink()
    let writer = try FullSnapshotWriter(sink: sink, version: 4, labels: ["x"], dataset: dataset)
    try writer.appendBlocking(18_005_551_234)
    try writer.appendIdentification(18_005_551_235, labelID: 0)
    try writer.finish()
    return sink.bytes
  }

  @Test(arguments: ["", "us-fcc", "fr/arcep 🚫", String(repeating: "é", count: 32), String(repeating: "x", count: 64)])
  func namesRoundTrip(_ name: String) throws {
    let bytes = try fullBlob(dataset: name)
    let header = try BlobReader.readHeader(bytes: bytes)
    #expect(header.dataset == name)
    #expect(header.formatVersion == 2)
    #expect(header.headerSize == 168 + 3 * 32 + 4)
    let field = Array(bytes[104..<168])
    #expect(field == Array(name.utf8) + Array(repeating: 0, count: 64 - name.utf8.count))
    #expect(try BlobReader(bytes: bytes).verify().header.dataset == name)

    let sink = MemoryBlobSink()
    let delta = try DeltaWriter(
      sink: sink, baseVersion: 1, baseDigest: .empty, targetVersion: 2, targetDigest: .empty, dataset: name)
    try delta.finish()
    #expect(try BlobReader.readHeader(bytes: sink.bytes).dataset == name)
  }

  @Test func writersRejectNamesTheFieldCannotHold() throws {
    let tooLong = String(repeating: "x", count: 65)
    let tooLongUTF8 = String(repeating: "é", count: 33)
    for (name, error) in [
      (tooLong, BlobError.datasetTooLong(byteCount: 65)),
      (tooLongUTF8, .datasetTooLong(byteCount: 66)),
      ("a\u{0}b", .datasetContainsNUL),
      ("\u{0}", .datasetContainsNUL),
    ] {
      let sink = MemoryBlobSink()
      #expect(throws: error) { _ = try FullSnapshotWriter(sink: sink, version: 1, dataset: name) }
      #expect(throws: error) {
        _ = try DeltaWriter(
          sink: sink, baseVersion: 1, baseDigest: .empty, targetVersion: 2, targetDigest: .empty, dataset: name)
      }
      #expect(sink.bytes.isEmpty)
    }
    let dir = try makeTemporaryDirectory()
    defer { removeTree(dir) }
    #expect(throws: BlobError.datasetTooLong(byteCount: 65)) {
      _ = try FullSnapshotWriter(path: "\(dir)/x.cdir", version: 1, dataset: tooLong)
    }
    #expect(listDirectory(dir).isEmpty)
  }

  /// Invalid identifiers are rejected on read, even with a valid header CRC.
  @Test(arguments: [
    ("invalid utf-8", [0xFF, 0x41]),
    ("nul inside the name", [0x61, 0x00, 0x62]),
    ("dirty padding", [0x61] + Array(repeating: 0, count: 62) + [0x01]),
    ("truncated utf-8 sequence", [0x61, 0xC3]),
  ] as [(String, [UInt8])])
  func readersRejectInvalidIdentifiers(_ name: String, _ field: [UInt8]) throws {
    var bytes = try fullBlob(dataset: "")
    bytes.replaceSubrange(104..<(104 + field.count), with: field)
    // A valid header CRC, so the identifier's own validation is reached.
    let size = 168 + 3 * 32
    BlobSurgery.store(UInt64(CRC32C.checksum(bytes[0..<size])), &bytes, size, width: 4)
    #expect(throws: BlobError.self, "\(name)") { _ = try BlobReader.readHeader(bytes: bytes) }
    do {
      _ = try BlobReader(bytes: bytes)
    } catch {
      guard case .corrupt(let message) = error else {
        Issue.record("\(name): \(error)")
        return
      }
      #expect(message.contains("dataset identifier"), "\(name): \(message)")
    }
  }

  @Test func versionOneHasNoDataset() throws {
    let bytes = try BlobSurgery.downgradeToVersion1(fullBlob(dataset: "us-fcc"))
    let header = try BlobReader.readHeader(bytes: bytes)
    #expect(header.formatVersion == 1)
    #expect(header.dataset == "")
    #expect(header.headerSize == 104 + 3 * 32 + 4)
    #expect(try Snapshot(blob: bytes).blocking == [18_005_551_234])
  }
}
