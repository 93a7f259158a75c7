@testable import CalldirSystem
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A throwaway directory.
final class ScratchDirectory {
  let path: String

  init() throws {
    var template = Array("/tmp/calldir-system-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
    #expect(made != nil)
    path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
  }

  deinit {
    for name in (try? FileSystem.contentsOfDirectory(path)) ?? [] { try? FileSystem.removeFile(path + "/" + name) }
    try? FileSystem.removeDirectory(path)
  }

  func file(_ name: String) -> String { path + "/" + name }

  func read(_ name: String) throws -> [UInt8] {
    let input = try ChunkedInput(.path(file(name)), chunkSize: 7)
    while !input.isEOF { try input.refill(keepingFrom: 0) }
    return Array(UnsafeBufferPointer(start: input.base, count: input.end))
  }
}

@Suite(.serialized) struct FileTests {
  @Test func anAtomicFileAppearsWholeOnCommit() throws {
    let scratch = try ScratchDirectory()
    let destination = scratch.file("out.txt")
    try AtomicFile.write(Array("old\n".utf8), to: destination)
    let file = try AtomicFile(destination: destination)
    try file.writer.write("new contents\n")
    try file.seal()
    #expect(try scratch.read("out.txt") == Array("old\n".utf8))
    try file.commit()
    #expect(try scratch.read("out.txt") == Array("new contents\n".utf8))
    #expect(try FileSystem.contentsOfDirectory(scratch.path) == ["out.txt"])
  }

  @Test func anAtomicFileNeverReplacesWhatIsNotARegularFile() throws {
    let scratch = try ScratchDirectory()
    #expect(symlink("/dev/null", scratch.file("link")) == 0)
    #expect(mkfifo(scratch.file("fifo"), 0o644) == 0)
    try FileSystem.createDirectory(scratch.file("directory"))
    for name in ["link", "fifo", "directory"] {
      #expect {
        try AtomicFile.write([1], to: scratch.file(name))
      } throws: { error in
        "\(error)".contains("is not a regular file")
      }
    }
    #expect(try FileSystem.status(scratch.file("link"), followingLinks: false).kind == .symbolicLink)
    #expect(try FileSystem.status(scratch.file("fifo")).kind == .fifo)
    try FileSystem.removeDirectory(scratch.file("directory"))
  }

  @Test func aFailedWriteLeavesTheOldFileAndNoTemporary() throws {
    let scratch = try ScratchDirectory()
    let destination = scratch.file("out.txt")
    try AtomicFile.write(Array("old\n".utf8), to: destination)
    for call in [FaultInjection.Call.write, .fsync, .rename] {
      FaultInjection.install([.init(call: call, occurrence: 1, fault: .fail(.noSpace))])
      defer { FaultInjection.reset() }
      #expect(throws: FileError.self) { try AtomicFile.write(Array("new\n".utf8), to: destination) }
      FaultInjection.reset()
      #expect(try scratch.read("out.txt") == Array("old\n".utf8))
      #expect(try FileSystem.contentsOfDirectory(scratch.path) == ["out.txt"])
    }
  }

  @Test func interruptedAndShortCallsAreRetriedWhole() throws {
    let scratch = try ScratchDirectory()
    let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    FaultInjection.install([
      .init(call: .write, occurrence: 1, fault: .short), .init(call: .write, occurrence: 2, fault: .fail(.interrupted)),
      .init(call: .read, occurrence: 2, fault: .short), .init(call: .read, occurrence: 3, fault: .fail(.interrupted)),
      .init(call: .fsync, occurrence: 1, fault: .fail(.interrupted)),
    ])
    defer { FaultInjection.reset() }
    try AtomicFile.write(bytes, to: scratch.file("data"))
    #expect(try scratch.read("data") == bytes)
    #expect(FaultInjection.counts()[.write, default: 0] >= 3)
  }

  @Test func chunkedInputReadsAFIFOOnce() throws {
    let scratch = try ScratchDirectory()
    let fifo = scratch.file("fifo")
    #expect(mkfifo(fifo, 0o644) == 0)
    let writer = Thread { () in
      let descriptor = try? FileDescriptor.open(fifo, .writeOnly)
      try? descriptor?.writeAll(Array("one\ntwo\n".utf8))
      try? descriptor?.close()
    }
    writer.start()
    let input = try ChunkedInput(.path(fifo), chunkSize: 3)
    while !input.isEOF { try input.refill(keepingFrom: 0) }
    #expect(Array(UnsafeBufferPointer(start: input.base, count: input.end)) == Array("one\ntwo\n".utf8))
    #expect(input.size == nil)
  }

  @Test func faultRulesParseFromTheirText() {
    #expect(FaultInjection.parse("write:3:ENOSPC,fsync:1:EIO,read:2:short,bogus:1:EIO") == [
      .init(call: .write, occurrence: 3, fault: .fail(.noSpace)),
      .init(call: .fsync, occurrence: 1, fault: .fail(.ioError)),
      .init(call: .read, occurrence: 2, fault: .short),
    ])
    #expect(FaultInjection.parse("write:5+:ENOSPC,any:40:crash,fsync:+:EIO,write:0+:EIO") == [
      .init(call: .write, occurrence: 5, fault: .fail(.noSpace), persists: true),
      .init(call: .any, occurrence: 40, fault: .crash),
    ])
  }

  /// A disk that stays full: every write from the third on fails, and
  /// `any` counts calls of every kind together.
  @Test func persistentRulesFireAtEveryLaterCall() throws {
    let scratch = try ScratchDirectory()
    FaultInjection.install([
      .init(call: .write, occurrence: 3, fault: .fail(.noSpace), persists: true),
      .init(call: .any, occurrence: 2, fault: .fail(.ioError)),
    ])
    defer { FaultInjection.reset() }
    let file = try FileDescriptor.open(scratch.file("f"), .writeOnly, options: [.create], permissions: 0o644)
    defer { try? file.close() }
    var outcomes: [Errno?] = []
    for _ in 0..<5 {
      do {
        try file.writeAll([1])
        outcomes.append(nil)
      } catch { outcomes.append(error) }
    }
    // The open was call 1 of any kind; the first write is call 2 (EIO).
    #expect(outcomes == [.ioError, nil, .noSpace, .noSpace, .noSpace])
    #expect(FaultInjection.counts()[.any] == 6)
  }

  @Test func timesRoundTrip() {
    #expect(UTCTime.iso8601(0) == "1970-01-01T00:00:00Z")
    #expect(UTCTime.iso8601(1_764_594_000) == "2025-12-01T13:00:00Z")
    #expect(UTCTime.parse("2025-12-01T13:00:00Z") == 1_764_594_000)
    #expect(UTCTime.parse("2025-12-01") == 1_764_547_200)
    for bad in ["2025-02-30", "2025-13-01", "2025-1-01", "", "2025-12-01T25:00:00Z"] { #expect(UTCTime.parse(bad) == nil) }
  }

  @Test func varintsRoundTripAndRejectOverflow() {
    for value: UInt64 in [0, 1, 127, 128, 300, 1 << 35, .max] {
      var bytes: [UInt8] = []
      Varint.append(value, to: &bytes)
      #expect(bytes.count == Varint.size(value))
      var position = 0
      #expect(bytes.withUnsafeBytes { Varint.read($0, at: &position) } == value)
    }
    var position = 0
    let overflow: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02]
    #expect(overflow.withUnsafeBytes { Varint.read($0, at: &position) } == nil)
    position = 0
    #expect([UInt8(0x80)].withUnsafeBytes { Varint.read($0, at: &position) } == nil)
    #expect(Varint.unZigZag(Varint.zigZag(-5)) == -5)
  }
}

/// Commits and durable renames that leave their syncs to a
/// `DeferredSyncs` sync nothing until it syncs each file and each
/// directory once; a file that fails to sync fails `syncAll`.
@Suite(.serialized) struct DeferredSyncsTests {
  @Test func renamesSyncEachDirectoryOnceAtTheEnd() throws {
    let scratch = try ScratchDirectory()
    let other = try ScratchDirectory()
    for index in 0..<5 { try AtomicFile.write(Array("x".utf8), to: scratch.file("f\(index)")) }

    FaultInjection.install([])
    defer { FaultInjection.reset() }
    let deferred = FileSystem.DeferredSyncs()
    for index in 0..<5 {
      let target = index == 4 ? other.file("g") : scratch.file("g\(index)")
      try FileSystem.durableRename(scratch.file("f\(index)"), to: target, deferringSyncTo: deferred)
    }
    let file = try AtomicFile(destination: scratch.file("h"))
    try file.writer.write(Array("y".utf8))
    try file.commit(deferringSyncsTo: deferred)
    #expect(FaultInjection.counts()[.fsync, default: 0] == 0)
    #expect(try String(decoding: FileSystem.contents(of: scratch.file("h")), as: UTF8.self) == "y")
    try deferred.syncAll()
    #expect(FaultInjection.counts()[.fsync, default: 0] == 3)  // the file's data and the two directories
    try deferred.syncAll()
    #expect(FaultInjection.counts()[.fsync, default: 0] == 3)  // nothing left

    // Without one, a rename syncs at once.
    try FileSystem.durableRename(scratch.file("g0"), to: scratch.file("i0"))
    #expect(FaultInjection.counts()[.fsync, default: 0] == 4)
  }

  @Test func manyFilesWaitWithABoundedNumberOfDescriptors() throws {
    let scratch = try ScratchDirectory()
    FaultInjection.install([])
    defer { FaultInjection.reset() }
    let deferred = FileSystem.DeferredSyncs()
    let count = FileSystem.DeferredSyncs.maxOpenFiles + 5
    for index in 0..<count {
      let file = try AtomicFile(destination: scratch.file("f\(index)"))
      try file.writer.write(Array("\(index)".utf8))
      try file.commit(deferringSyncsTo: deferred)
    }
    // The oldest beyond the bound were synced (and closed) at once.
    #expect(FaultInjection.counts()[.fsync, default: 0] == 5)
    try deferred.syncAll()
    #expect(FaultInjection.counts()[.fsync, default: 0] == count + 1)  // and the directory
  }

  @Test func aFileThatFailsToSyncFailsTheSyncs() throws {
    let scratch = try ScratchDirectory()
    let deferred = FileSystem.DeferredSyncs()
    for name in ["a", "b"] {
      let file = try AtomicFile(destination: scratch.file(name))
      try file.writer.write(Array(name.utf8))
      try file.commit(deferringSyncsTo: deferred)
    }
    FaultInjection.install([FaultInjection.Rule(call: .fsync, occurrence: 1, fault: .fail(.ioError))])
    defer { FaultInjection.reset() }
    #expect {
      try deferred.syncAll()
    } throws: { error in
      (error as? FileError)?.errno == .ioError && (error as? FileError)?.path == scratch.file("a")
    }
  }
}
