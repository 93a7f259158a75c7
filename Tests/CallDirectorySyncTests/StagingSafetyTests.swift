import CallDirectoryFormat
import CalldirSystem
import Foundation
import Sodium
import Testing

@testable import CallDirectorySync

/// What the staging area never does: remove what a sync did not stage
/// (through a symbolic link least of all), hand another sync a file it is
/// still writing or remove one it still needs, resume a part that does not
/// verify, or wait on a source past its deadline.
@Suite(.serialized) struct StagingSafetyTests {
  let directory: TemporaryDirectory
  let source = MemorySource()
  let bytes: [UInt8]
  let file: Manifest.File
  var stagingPath: String { directory.path + "/sync/staging" }
  var staging: StagingArea { StagingArea(directory: stagingPath) }
  /// Made at each use: a deadline made once, when the first test used it,
  /// passed in a whole-suite run longer than its 17 minutes.
  static var bounds: TransferBounds { TransferLimits.standard.bounds(bytes: 1 << 20, transfers: 1) }

  init() throws {
    directory = try TemporaryDirectory()
    bytes = try StoreFixture.snapshot(version: 1, count: 5000).encoded()
    source["snapshots/v1.cdir"] = bytes
    file = Manifest.File(path: "snapshots/v1.cdir", bytes: Int64(bytes.count), sha256: hex(SHA256.hash(bytes)))
  }

  func stage(within bounds: TransferBounds = Self.bounds) async throws(SyncError) -> StagedFile {
    try await staging.stage(file, from: source, hashing: SodiumHashing(), within: bounds)
  }

  func write(_ path: String, _ text: String) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }

  /// `DEV/sync/staging` moved to a bigger disk and linked back: files are
  /// staged there, and cleaning up removes only the sync's own files.
  @Test func aLinkedStagingDirectoryKeepsEverythingElseInItsTarget() async throws {
    let target = directory.path + "/bigdisk/calldir-staging"
    let outside = directory.path + "/outside"
    try write(target + "/notes.txt", "mine\n")
    try write(target + "/photos/one.jpg", "jpeg\n")
    try write(outside + "/secret.txt", "secret\n")
    // Named as sync names its files, but not a file sync made.
    let lookalike = String(repeating: "a", count: 64)
    #expect(symlink(outside + "/secret.txt", target + "/\(lookalike).cdir") == 0)
    #expect(symlink(outside, target + "/\(lookalike).part") == 0)
    try FileManager.default.createDirectory(atPath: target + "/\(String(repeating: "b", count: 64)).cdir", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: directory.path + "/sync", withIntermediateDirectories: true)
    #expect(symlink(target, stagingPath) == 0)

    do {
      let staged = try await stage()
      #expect(FileManager.default.fileExists(atPath: target + "/\(file.sha256).cdir"))
      try staging.removeAll(except: [])
      // Still needed by the sync that staged it.
      #expect(FileManager.default.fileExists(atPath: staged.path))
    }
    try AtomicFile.write([1, 2, 3], to: target + "/\(String(repeating: "c", count: 64)).part")
    try staging.removeAll(except: [])
    try SyncDirectory(path: directory.path + "/sync").clear()

    let names = try FileSystem.contentsOfDirectory(target)
    #expect(names == ["\(lookalike).cdir", "\(lookalike).part", "\(String(repeating: "b", count: 64)).cdir", "notes.txt", "photos"].sorted())
    #expect(try String(contentsOfFile: target + "/notes.txt", encoding: .utf8) == "mine\n")
    #expect(try String(contentsOfFile: target + "/photos/one.jpg", encoding: .utf8) == "jpeg\n")
    #expect(try String(contentsOfFile: outside + "/secret.txt", encoding: .utf8) == "secret\n")
    #expect(try FileSystem.status(stagingPath, followingLinks: false).kind == .symbolicLink)
  }

  @Test func onlyStagedNamesAreEverRemoved() {
    let digest = String(repeating: "0123456789abcdef", count: 4)
    for name in ["\(digest).cdir", "\(digest).part", "\(digest).123.part", "empty-7.cdir"] {
      #expect(StagingArea.kind(ofName: name) == .staged, "\(name)")
    }
    #expect(StagingArea.kind(ofName: ".empty-7.cdir.tmp-4242-3") == .temporary(owner: 4242))
    for name in [
      "notes.txt", "\(digest).cdir.bak", "\(digest.uppercased()).cdir", "\(digest.dropLast()).cdir", "\(digest).x.part",
      "empty-.cdir", ".empty-7.cdir.tmp-x-3", ".notes.txt.tmp-1-1", "photos", "\(digest).cdir.tmp-1-1",
    ] {
      #expect(StagingArea.kind(ofName: name) == .other, "\(name)")
    }
  }

  /// An earlier transfer left bytes that are not the file's (corrupted,
  /// then cut short): the next stage resumes, finds the digest wrong,
  /// discards the part and fetches the whole file again, in the same call.
  @Test func aPoisonedPartIsFetchedAgainFromTheStart() async throws {
    try FileSystem.createDirectory(stagingPath)
    var poisoned = Array(bytes.prefix(3000))
    poisoned[100] ^= 0xFF
    try AtomicFile.write(poisoned, to: staging.partialPath(of: file))
    let staged = try await stage()
    #expect(source.requests.map(\.offset) == [3000, 0])
    #expect(staged.discardedPartial == 3000 && staged.resumedAt == nil)
    #expect(staged.downloadedBytes == Int64(bytes.count - 3000) + Int64(bytes.count))
    #expect(try FileSystem.contents(of: staged.path, limit: 1 << 20) == bytes)

    // A source whose whole file is not the manifest's: refused after the
    // one fresh download, nothing left to resume.
    let other = StagingArea(directory: directory.path + "/other")
    try FileSystem.createDirectory(other.directory)
    try AtomicFile.write(poisoned, to: other.partialPath(of: file))
    var tampered = bytes
    tampered[4000] ^= 0xFF
    source[file.path] = tampered
    await #expect(throws: SyncError.untrusted(.fileMismatch(path: file.path, problem: "its sha-256 is not the manifest's \(file.sha256)"))) {
      try await other.stage(file, from: source, hashing: SodiumHashing(), within: Self.bounds)
    }
    #expect(source.requests.suffix(2).map(\.offset) == [3000, 0])
    #expect(try FileSystem.contentsOfDirectory(other.directory).isEmpty)
  }

  /// A source that ignores its bounds is stopped by the receiver at the
  /// deadline; the bytes received are kept, to be resumed.
  @Test func aSourceTooSlowForTheDeadlineIsStopped() async throws {
    source.delayPerPiece = 0.4
    let limits = TransferLimits(stallSeconds: 1, minimumRate: 1 << 30)
    #expect(bytes.count > 3000, "at least four pieces, over 1.6 seconds")
    await #expect(throws: SyncError.source(.failed(path: file.path, reason: limits.bounds(bytes: 0, transfers: 0).expiryReason))) {
      try await stage(within: limits.bounds(bytes: file.bytes, transfers: 1))
    }
    let part = try FileSystem.status(staging.partialPath(of: file)).size
    #expect(part > 0 && part < file.bytes)
  }

  @Test func limitsAllowStallSecondsPerTransferAndTheBytesAtTheMinimumRate() {
    let limits = TransferLimits(stallSeconds: 5, minimumRate: 1000)
    #expect(limits.allowance(bytes: 0, transfers: 2) == 10_000_000_000)
    #expect(limits.allowance(bytes: 2500, transfers: 1) == 7_500_000_000)
    #expect(TransferLimits(stallSeconds: 0, minimumRate: 0) == TransferLimits(stallSeconds: 1, minimumRate: 1))
    #expect(TransferLimits(stallSeconds: Int.max, minimumRate: 1).allowance(bytes: .max, transfers: .max) == .max)
  }

  /// Another sync writing the same part: this one downloads into a part
  /// of its own, and never touches the other's.
  @Test func aPartAnotherSyncWritesIsLeftToIt() async throws {
    try FileSystem.createDirectory(stagingPath)
    let theirs = staging.partialPath(of: file)
    try AtomicFile.write([1, 2, 3], to: theirs)
    let other = try FileDescriptor.open(theirs, .readWrite)
    defer { try? other.close() }
    #expect(try other.lock(exclusive: true, wait: false))
    let staged = try await stage()
    #expect(source.requests.map(\.offset) == [0])
    #expect(try FileSystem.contents(of: staged.path, limit: 1 << 20) == bytes)
    #expect(try FileSystem.contents(of: theirs) == [1, 2, 3])
    // Nor does a cleanup remove it while it is locked.
    try staging.removeAll(except: [])
    #expect(try FileSystem.contents(of: theirs) == [1, 2, 3])
  }

  /// A verified file one sync will load is not removed by another's
  /// cleanup; once that sync is done with it, it is.
  @Test func aFileAnotherSyncNeedsIsNotRemoved() async throws {
    var staged: StagedFile? = try await stage()
    let path = try #require(staged?.path)
    try StagingArea(directory: stagingPath).removeAll(except: [])
    #expect(FileManager.default.fileExists(atPath: path))
    // Another sync of the same manifest shares it.
    let shared = try await stage()
    #expect(shared.wasAlreadyStaged)
    try shared.pin?.removeIfUnused()
    #expect(FileManager.default.fileExists(atPath: path))
    staged = nil
    try shared.pin?.removeIfUnused()
    #expect(!FileManager.default.fileExists(atPath: path))
    withExtendedLifetime(staged) {}
  }

  /// A staged name held by something that is not a regular file (a named
  /// pipe) is refused without blocking, and never removed.
  @Test func aNamedPipeUnderAStagedNameIsRefusedAndKept() async throws {
    try FileSystem.createDirectory(stagingPath)
    let pipe = staging.path(of: file)
    #expect(mkfifo(pipe, 0o600) == 0)
    await #expect(throws: SyncError.self) { try await stage() }
    try staging.removeAll(except: [])
    #expect(try FileSystem.status(pipe).kind == .fifo)
  }
}
