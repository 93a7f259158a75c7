import CalldirSystem
import Testing
@testable import CallDirectoryFormat

@Suite struct WriterValidationTests {
  private func writer(labels: [String] = ["a"]) throws -> FullSnapshotWriter {
    try FullSnapshotWriter(sink: MemoryBlobSink(), version: 1, labels: labels)
  }

  @Test func rejectsOutOfRange() throws {
    let w = try writer()
    for bad in [Int64(0), -1, Int64.min, Int64.max] {
      #expect(throws: BlobError.numberOutOfRange(section: .blocking, number: bad)) {
        try w.appendBlocking(bad)
      }
    }
    #expect(throws: BlobError.numberOutOfRange(section: .blocking, number: Int64.max)) {
      try w.appendBlocking(5...Int64.max)
    }
  }

  @Test func rejectsOrderAndDuplicatesAndStaysUsable() throws {
    let w = try writer()
    try w.appendBlocking(100)
    #expect(throws: BlobError.duplicateEntry(section: .blocking, number: 100)) {
      try w.appendBlocking(100)
    }
    #expect(throws: BlobError.outOfOrder(section: .blocking, previous: 100, number: 99)) {
      try w.appendBlocking(99)
    }
    #expect(throws: BlobError.outOfOrder(section: .blocking, previous: 100, number: 50)) {
      try w.appendBlocking(50...60)
    }
    try w.appendBlocking(101...200)
    #expect(throws: BlobError.duplicateEntry(section: .blocking, number: 200)) {
      try w.appendBlocking(200)
    }
    try w.appendBlocking(201)
    let header = try w.finish()
    #expect(header.entryCount(.blocking) == 102)
  }

  @Test func rejectsUnknownLabelsAndBadDictionaries() throws {
    let w = try writer(labels: ["a", "b"])
    #expect(throws: BlobError.unknownLabel(id: 2, labelCount: 2)) {
      try w.appendIdentification(5, labelID: 2)
    }
    #expect(throws: BlobError.duplicateLabel("a")) {
      _ = try FullSnapshotWriter(sink: MemoryBlobSink(), version: 1, labels: ["a", "b", "a"])
    }
    let long = String(repeating: "é", count: 3000)
    #expect(throws: BlobError.labelTooLong(byteCount: 6000)) {
      _ = try FullSnapshotWriter(sink: MemoryBlobSink(), version: 1, labels: [long])
    }
    let unlabelled = try FullSnapshotWriter(sink: MemoryBlobSink(), version: 1)
    #expect(throws: BlobError.unknownLabel(id: 0, labelCount: 0)) {
      try unlabelled.appendIdentification(5, labelID: 0)
    }
  }

  @Test func rejectsSectionOrderMisuse() throws {
    let w = try writer()
    try w.appendIdentification(5, labelID: 0)
    #expect(throws: BlobError.misuse("blocking entries must come before identification entries")) {
      try w.appendBlocking(1)
    }
    // Misuse leaves the writer usable.
    try w.appendIdentification(6, labelID: 0)
    #expect(try w.finish().entryCount(.identification) == 2)
    #expect(throws: BlobError.misuse("the writer has already finished")) { try w.appendIdentification(7, labelID: 0) }
  }

  /// A sink whose writes fail after a byte budget.
  final class FailingSink: BlobSink {
    var budget: Int
    var abandoned = false
    init(budget: Int) { self.budget = budget }
    func write(_ bytes: UnsafeRawBufferPointer) throws(BlobError) {
      budget -= bytes.count
      if budget < 0 { throw BlobError.io(FileError(operation: "write", path: "test", errno: .noSpace)) }
    }
    func overwrite(at offset: UInt64, with bytes: UnsafeRawBufferPointer) throws(BlobError) {}
    func commit() throws(BlobError) {}
    func abandon() { abandoned = true }
  }

  @Test func ioFailureAbandonsOutput() throws {
    let sink = FailingSink(budget: 5000)
    let w = try FullSnapshotWriter(sink: sink, version: 1)
    var failure: BlobError?
    do {
      for number in randomNumbers(count: 200_000, below: 1 << 40, seed: 3) { try w.appendBlocking(number) }
      try w.finish()
    } catch {
      failure = error
    }
    #expect(failure == .io(FileError(operation: "write", path: "test", errno: .noSpace)))
    #expect(sink.abandoned)
    #expect(throws: BlobError.misuse("the writer failed earlier and cannot continue")) {
      try w.appendBlocking(Int64(1) << 41)
    }
  }

  @Test func labelsCannotBeSetLate() throws {
    let w = try FullSnapshotWriter(sink: MemoryBlobSink(), version: 1)
    try w.setLabels(["a"])
    #expect(throws: BlobError.misuse("labels were already set")) { try w.setLabels(["b"]) }
  }

  @Test func digestBuilderChecksOrder() throws {
    var builder = ContentDigestBuilder()
    try builder.addBlocking(5)
    #expect(throws: BlobError.outOfOrder(section: .blocking, previous: 5, number: 4)) {
      try builder.addBlocking(4)
    }
    try builder.addIdentification(1, label: "x")
    #expect(throws: BlobError.self) { try builder.addBlocking(6) }
  }

  @Test func errorMessagesAreLowercase() {
    let errors: [BlobError] = [
      .badMagic, .unsupportedVersion(9), .unsupportedKind(3), .truncated(section: .labels),
      .checksumMismatch(section: .identificationAdds), .corrupt("x"),
      .wrongKind(expected: .full, actual: .delta), .baseMismatch("y"),
      .numberOutOfRange(section: .blocking, number: 0), .duplicateLabel("q"),
      .labelDictionaryTooLarge, .datasetTooLong(byteCount: 65), .datasetContainsNUL, .misuse("z"),
      .io(FileError(operation: "open", path: "/nope", errno: .noSuchFileOrDirectory)),
    ]
    for error in errors {
      let text = error.description
      #expect(text.first.map { !$0.isUppercase } ?? false, "\(text)")
    }
    #expect(
      BlobError.io(FileError(operation: "open", path: "/nope", errno: .noSuchFileOrDirectory)).description
        == "cannot open /nope: no such file or directory")
  }
}
