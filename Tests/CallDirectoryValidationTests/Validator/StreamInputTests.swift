@testable import CallDirectoryFormat
import CalldirSystem
import Dispatch
import Foundation
import Testing

@testable import CallDirectoryValidation

/// Inputs that can be read only once, front to back: FIFOs, pipes,
/// standard input; and paths that are no input at all.
@Suite struct StreamInputTests {
  static let text = "18005551234\n18005551235\tBank\n"

  /// Writes `bytes` into the FIFO at `path` from another thread (opening
  /// it blocks until the validator opens it for reading), then closes it.
  private func feed(_ path: String, _ bytes: [UInt8]) {
    DispatchQueue.global().async {
      guard let writer = FileHandle(forWritingAtPath: path) else { return }
      writer.write(Data(bytes))
      try? writer.close()
    }
  }

  private func makeFIFO(in directory: TemporaryDirectory, _ name: String) throws -> String {
    let path = directory.path(name)
    guard mkfifo(path, 0o600) == 0 else { throw TestFailure("mkfifo \(path) failed") }
    return path
  }

  @Test func textFromAFIFOIsReadOnce() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let fifo = try makeFIFO(in: directory, "list.fifo")
    feed(fifo, Array(Self.text.utf8))
    let outcome = try validate(path: fifo)
    #expect(outcome.summary.format == .text)
    #expect(outcome.summary.entries == 2)
    #expect(outcome.summary.isValid)
  }

  @Test func blobFromAFIFOIsSpooled() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let fifo = try makeFIFO(in: directory, "blob.fifo")
    let blob = try fullBlob(blocking: [5, 6, 90], identification: [(700, 0)], labels: ["Bank"])
    feed(fifo, blob)
    let outcome = try validate(path: fifo)
    #expect(outcome.summary.format == .fullSnapshot)
    #expect(outcome.summary.entries == 4)
    #expect(outcome.summary.isValid)
  }

  @Test func aBlobTooLargeToSpoolIsRefused() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let fifo = try makeFIFO(in: directory, "big.fifo")
    // Smaller than a pipe's buffer, so the writer finishes whatever the reader does.
    let blob = try fullBlob(blocking: Array(1...500).map { Int64($0) * 1_000_003 }, identification: [], labels: [])
    #expect(blob.count < 16_384)
    feed(fifo, blob)
    let validator = DatasetValidator(options: ValidationOptions(maxSpooledBlobBytes: 200))
    #expect(throws: ValidationError.blobTooLargeToSpool(name: fifo, limit: 200)) {
      _ = try validator.validate(path: fifo) { _ in }
    }
  }

  @Test(arguments: [false, true]) func aPipeOnADescriptor(blob: Bool) throws {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw TestFailure("pipe failed") }
    let bytes = blob ? try fullBlob(blocking: [5, 6, 7], identification: [], labels: []) : Array(Self.text.utf8)
    let writer = FileDescriptor(rawValue: ends[1])
    try writer.writeAll(bytes)
    try writer.close()
    let reader = FileDescriptor(rawValue: ends[0])
    defer { try? reader.close() }
    let summary = try DatasetValidator().validate(descriptor: reader, name: "<stdin>") { _ in }
    #expect(summary.format == (blob ? .fullSnapshot : .text))
    #expect(summary.isValid)
  }

  @Test func aSymbolicLinkLoopIsMissingInput() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let first = directory.path("a")
    let second = directory.path("b")
    guard symlink(second, first) == 0, symlink(first, second) == 0 else { throw TestFailure("symlink failed") }
    #expect {
      _ = try validate(path: first)
    } throws: { error in
      guard let error = error as? ValidationError, case .cannotRead(let file) = error else { return false }
      return file.errno == .tooManySymbolicLinkLevels && error.isMissingInput
        && error.description == "cannot open \(first): too many levels of symbolic links"
    }
  }

  /// A blob whose 10^9-number run is checked in O(1): the iterators hand
  /// the run over whole, so (almost) nothing is decoded number by number.
  @Test func aBillionNumberRunValidatesWithoutExpanding() throws {
    let sink = MemoryBlobSink()
    let writer = try FullSnapshotWriter(sink: sink, version: 1, labels: ["Range", ""])
    try writer.appendBlocking(5)
    try writer.appendBlocking(10_000_000_000...10_999_999_999)
    try writer.appendBlocking(20_000_000_000)
    try writer.appendIdentification(30_000_000_000...30_000_999_999, labelID: 0)
    try writer.finish()
    let reader = try BlobReader(bytes: sink.bytes)
    var violations: [Violation] = []
    let summary = try DatasetValidator().validate(reader: reader, name: "big") { violations.append($0) }
    #expect(summary.isValid)
    #expect(summary.lists == [
      ListCount(list: .blocking, entries: 1_000_000_002), ListCount(list: .identification, entries: 1_000_000),
    ])
    #expect(reader._statistics.materializedEntries <= 2)
  }

  /// An empty label on a run counts once per entry, is reported up to the
  /// limit, and is looked up once.
  @Test func aLabelProblemOnARunCountsEveryEntry() throws {
    let sink = MemoryBlobSink()
    let writer = try FullSnapshotWriter(sink: sink, version: 1, labels: [""])
    try writer.appendIdentification(40_000_000_000...40_000_999_999, labelID: 0)
    try writer.finish()
    let reader = try BlobReader(bytes: sink.bytes)
    var violations: [Violation] = []
    let summary = try DatasetValidator(options: ValidationOptions(maxReported: 3))
      .validate(reader: reader, name: "big") { violations.append($0) }
    #expect(summary.errorCount == 1_000_000)
    #expect(violations.map(\.kind) == [.emptyLabel, .emptyLabel, .emptyLabel])
    #expect(violations.map(\.location) == (1...3).map { .entry(section: .identification, index: UInt64($0)) })
    #expect(reader._statistics.materializedEntries == 0)
  }
}
