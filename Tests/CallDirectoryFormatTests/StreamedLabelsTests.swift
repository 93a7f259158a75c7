import CalldirSystem
import FormatFixtures
import Testing

@testable import CallDirectoryFormat

/// A label dictionary streamed from storage (``LabelStream``) writes the
/// same blob, byte for byte, as the same dictionary held as `[String]`.
@Suite struct StreamedLabelsTests {
  /// A dictionary that hands its labels out one at a time, counting walks;
  /// `changeOnSecondWalk` drops the last label on the second walk.
  final class Labels: LabelStream {
    let labels: [[UInt8]]
    var walks = 0
    var changeOnSecondWalk = false
    var labelCount: Int { labels.count }

    init(_ labels: [String]) { self.labels = labels.map { Array($0.utf8) } }

    func forEachLabel(_ body: (UnsafeRawBufferPointer) throws(BlobError) -> Void) throws(BlobError) {
      walks += 1
      let given = changeOnSecondWalk && walks == 2 ? labels.dropLast() : labels[...]
      for label in given {
        try label.withUnsafeBytes { bytes in Result { () throws(BlobError) in try body(bytes) } }.get()
      }
    }
  }

  /// Labels sorted by UTF-8 bytes (the order the compiler gives its
  /// dictionary): the empty label, prefixes, and text whose byte order is
  /// not its UTF-16 order.
  static func dictionary(count: Int, seed: UInt64) -> [String] {
    var generator = SplitMix64(seed: seed)
    var labels: Set<String> = ["", "a", "ab", "\u{FF61}", "😀", "🚫 démarchage", "配達"]
    while labels.count < count {
      let length = 1 + Int(generator.next(below: 60))
      labels.insert("Caller \(generator.next(below: 1 << 40)) " + String(repeating: "é", count: length))
    }
    return labels.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  /// Writes blocking numbers, a range and identification entries with
  /// both writers; returns both blobs' bytes and headers.
  static func write(labels: [String], entries: [(Int64, UInt32)]) throws -> (held: [UInt8], streamed: [UInt8], BlobHeader, BlobHeader, walks: Int) {
    let heldSink = MemoryBlobSink()
    let held = try FullSnapshotWriter(sink: heldSink, version: 7, labels: labels, dataset: "test")
    let streamedSink = MemoryBlobSink()
    let streamed = try FullSnapshotWriter(sink: streamedSink, version: 7, dataset: "test")
    let stream = Labels(labels)
    try streamed.setLabels(streaming: stream)
    for writer in [held, streamed] {
      try writer.appendBlocking(33_612_345_678)
      try writer.appendBlocking(33_700_000_000...33_700_000_999)
    }
    for (number, id) in entries {
      try held.appendIdentification(number, labelID: id)
      try Array(labels[Int(id)].utf8).withUnsafeBytes { bytes in
        Result { () throws(BlobError) in try streamed.appendIdentification(number, labelID: id, label: bytes) }
      }.get()
    }
    let heldHeader = try held.finish()
    let streamedHeader = try streamed.finish()
    return (heldSink.bytes, streamedSink.bytes, heldHeader, streamedHeader, stream.walks)
  }

  @Test(arguments: [0, 1, 40, 5_000])
  func aStreamedDictionaryWritesTheHeldOnesBytes(labelCount: Int) throws {
    // 5,000 labels pass the writer's 64 KiB chunks in both walks.
    let labels = labelCount == 0 ? [] : Array(Self.dictionary(count: max(labelCount, 8), seed: UInt64(labelCount)).prefix(labelCount))
    var generator = SplitMix64(seed: 9)
    var number: Int64 = 44_207_946_0000
    var entries: [(Int64, UInt32)] = []
    if !labels.isEmpty {
      for _ in 0..<20_000 {
        number += 1 + Int64(generator.next(below: 40))
        entries.append((number, UInt32(generator.next(below: UInt64(labels.count)))))
      }
    }
    let (held, streamed, heldHeader, streamedHeader, walks) = try Self.write(labels: labels, entries: entries)
    #expect(streamed == held)
    #expect(streamedHeader == heldHeader)
    #expect(walks == 2)
    let reader = try BlobReader(bytes: streamed)
    #expect(reader.header.entryCount(.labels) == UInt64(labels.count))
    var read: [(Int64, String)] = []
    let identification = try reader.identification()
    while let entry = try identification.next() { read.append((entry.number, try reader.label(entry.labelID))) }
    #expect(read.map(\.0) == entries.map(\.0))
    #expect(read.map(\.1) == entries.map { labels[Int($0.1)] })
  }

  /// A delta's dictionary streamed: the same delta as with it held.
  @Test func aDeltaWithAStreamedDictionaryIsTheHeldOnesBytes() throws {
    let labels = Self.dictionary(count: 3_000, seed: 5)
    func write(streaming: Bool) throws -> [UInt8] {
      let sink = MemoryBlobSink()
      let writer = try DeltaWriter(
        sink: sink, baseVersion: 1, baseDigest: .zero, targetVersion: 2, targetDigest: .zero, dataset: "test")
      try writer.appendBlockingRemove(33_612_345_678)
      try writer.appendIdentificationRemove(44_207_946_0000...44_207_946_0099)
      if streaming { try writer.setLabels(streaming: Labels(labels)) } else { try writer.setLabels(labels) }
      for index in 0..<labels.count {
        try writer.appendIdentificationAdd(44_207_947_0000 + Int64(3 * index), labelID: UInt32(labels.count - 1 - index))
      }
      #expect(throws: BlobError.unknownLabel(id: UInt32(labels.count), labelCount: labels.count)) {
        try writer.appendIdentificationAdd(44_207_948_0000, labelID: UInt32(labels.count))
      }
      try writer.finish()
      return sink.bytes
    }
    #expect(try write(streaming: true) == write(streaming: false))
  }

  @Test func aStreamedDictionaryMustAscendAndStayTheSame() throws {
    func attempt(_ labels: Labels) throws {
      let writer = try FullSnapshotWriter(sink: MemoryBlobSink(), version: 1)
      try writer.setLabels(streaming: labels)
      try writer.appendBlocking(5)
      // Opening the identification section writes the labels.
      try [UInt8]("a".utf8).withUnsafeBytes { bytes in
        Result { () throws(BlobError) in try writer.appendIdentification(10, labelID: 0, label: bytes) }
      }.get()
      _ = try writer.finish()
    }
    // Out of byte order, or a label twice.
    #expect(throws: BlobError.misuse("a streamed label dictionary must ascend by bytes, each label once")) {
      try attempt(Labels(["b", "a"]))
    }
    #expect(throws: BlobError.misuse("a streamed label dictionary must ascend by bytes, each label once")) {
      try attempt(Labels(["a", "a"]))
    }
    // A label past the format's limit.
    let long = String(repeating: "x", count: BlobLimits.maxLabelBytes + 1)
    #expect(throws: BlobError.labelTooLong(byteCount: BlobLimits.maxLabelBytes + 1)) { try attempt(Labels(["a", long])) }
    // A dictionary that changes between its two walks.
    let changing = Labels(["a", "b", "c"])
    changing.changeOnSecondWalk = true
    #expect(throws: BlobError.misuse("the streamed label dictionary changed between its two walks")) {
      try attempt(changing)
    }
  }

  @Test func entriesOfAStreamedDictionaryComeWithTheirBytes() throws {
    let writer = try FullSnapshotWriter(sink: MemoryBlobSink(), version: 1)
    try writer.setLabels(streaming: Labels(["a", "b"]))
    #expect(throws: BlobError.misuse("labels were already set")) { try writer.setLabels(streaming: Labels(["a"])) }
    #expect(throws: BlobError.misuse("labels were already set")) { try writer.setLabels(["a"]) }
    #expect(throws: BlobError.misuse("entries of a streamed label dictionary are appended with their label's bytes")) {
      try writer.appendIdentification(10, labelID: 0)
    }
    try [UInt8]("b".utf8).withUnsafeBytes { bytes in
      Result { () throws(BlobError) in
        #expect(throws: BlobError.unknownLabel(id: 2, labelCount: 2)) { try writer.appendIdentification(10, labelID: 2, label: bytes) }
        try writer.appendIdentification(10, labelID: 1, label: bytes)
      }
    }.get()
    #expect(try writer.finish().entryCount(.identification) == 1)
    // A held dictionary takes no bytes with its entries.
    let held = try FullSnapshotWriter(sink: MemoryBlobSink(), version: 1, labels: ["a"])
    #expect(throws: BlobError.misuse("a label's bytes are given only with a streamed dictionary (setLabels(streaming:))")) {
      try [UInt8]("a".utf8).withUnsafeBytes { bytes in
        Result { () throws(BlobError) in try held.appendIdentification(10, labelID: 0, label: bytes) }
      }.get()
    }
  }
}
