import CalldirSystem
import FormatFixtures
import Testing

@testable import CallDirectoryFormat

/// Failing system calls, through the system layer's seam: a writer that
/// cannot finish leaves nothing behind, a failing read is a `BlobError.io`
/// carrying the errno, and interrupted or short calls are retried.
///
/// Faults are process-wide, so the suite runs serially and installs each
/// rule just before the call it aims at.
@Suite(.serialized) struct FaultInjectionTests {
  static let numbers = randomNumbers(count: 20_000, below: 1 << 40, seed: 12)

  private func write(_ path: String) throws(BlobError) {
    let writer = try FullSnapshotWriter(path: path, version: 3, labels: ["Bank"])
    for number in Self.numbers { try writer.appendBlocking(number) }
    try writer.appendIdentification(Int64(1) << 41, labelID: 0)
    try writer.finish()
  }

  @Test(arguments: [FaultInjection.Call.write, .fsync, .rename, .open])
  func aFailingCallLeavesNoFile(call: FaultInjection.Call) throws {
    let dir = try makeTemporaryDirectory()
    defer { removeTree(dir) }
    let path = "\(dir)/v3.cdir"
    FaultInjection.install([.init(call: call, occurrence: 1, fault: .fail(.noSpace))])
    defer { FaultInjection.reset() }
    var failure: BlobError?
    do {
      try write(path)
    } catch {
      failure = error
    }
    FaultInjection.reset()
    #expect(failure?.errno == .noSpace, "\(call): \(String(describing: failure))")
    #expect(listDirectory(dir).isEmpty, "\(call) left \(listDirectory(dir))")
  }

  @Test func aFailingFsyncKeepsTheOldFile() throws {
    let dir = try makeTemporaryDirectory()
    defer { removeTree(dir) }
    let path = "\(dir)/v3.cdir"
    try Snapshot(version: 1, blocking: [1, 2, 3]).write(to: path)
    FaultInjection.install([.init(call: .fsync, occurrence: 1, fault: .fail(.ioError))])
    defer { FaultInjection.reset() }
    #expect(throws: BlobError.self) { try write(path) }
    FaultInjection.reset()
    #expect(listDirectory(dir) == ["v3.cdir"])
    #expect(try Snapshot(contentsOf: path) == Snapshot(version: 1, blocking: [1, 2, 3]))
  }

  @Test func aFailingPreadIsAnIOError() throws {
    let dir = try makeTemporaryDirectory()
    defer { removeTree(dir) }
    let path = "\(dir)/v3.cdir"
    try write(path)
    let reader = try BlobReader(path: path)
    let blocking = try reader.blocking()
    FaultInjection.install([.init(call: .read, occurrence: 1, fault: .fail(.ioError))])
    defer { FaultInjection.reset() }
    #expect(throws: BlobError.io(FileError(operation: "read", path: path, errno: .ioError))) {
      while try blocking.nextChunk() != nil {}
    }
  }

  @Test func interruptedAndShortCallsAreRetried() throws {
    let dir = try makeTemporaryDirectory()
    defer { removeTree(dir) }
    let path = "\(dir)/v3.cdir"
    FaultInjection.install([
      .init(call: .write, occurrence: 1, fault: .fail(.interrupted)),
      .init(call: .write, occurrence: 2, fault: .short),
      .init(call: .fsync, occurrence: 1, fault: .fail(.interrupted)),
      .init(call: .open, occurrence: 2, fault: .fail(.interrupted)),
      .init(call: .read, occurrence: 1, fault: .fail(.interrupted)),
      .init(call: .read, occurrence: 2, fault: .short),
      .init(call: .read, occurrence: 4, fault: .short),
    ])
    defer { FaultInjection.reset() }
    try write(path)
    let reader = try BlobReader(path: path)
    #expect(try reader.verify().digestVerified)
    FaultInjection.reset()
    #expect(try drain(reader.blocking()) == Self.numbers)
    #expect(listDirectory(dir) == ["v3.cdir"])
  }
}
