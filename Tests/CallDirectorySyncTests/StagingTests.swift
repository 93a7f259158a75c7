import CallDirectoryFormat
import CallDirectorySync
import CalldirSystem
import Foundation
import Sodium
import Testing

/// ``StagingArea``: downloads checked against the manifest, resumed after
/// a dropped connection, restarted when the source cannot resume,
/// discarded when they are not the manifest's file, and a failing disk
/// (``FaultInjection``) leaving nothing verified behind.
@Suite(.serialized) struct StagingTests {
  let directory: TemporaryDirectory
  let source = MemorySource()
  let bytes: [UInt8]
  let file: Manifest.File
  var staging: StagingArea { StagingArea(directory: directory.path + "/staging") }

  init() throws {
    directory = try TemporaryDirectory()
    bytes = try StoreFixture.snapshot(version: 1, count: 5000).encoded()
    source["snapshots/v1.cdir"] = bytes
    file = Manifest.File(path: "snapshots/v1.cdir", bytes: Int64(bytes.count), sha256: hex(SHA256.hash(bytes)))
  }

  func stage(_ file: Manifest.File? = nil) async throws(SyncError) -> StagedFile {
    try await staging.stage(
      file ?? self.file, from: source, hashing: SodiumHashing(), within: TransferLimits.standard.bounds(bytes: 1 << 20, transfers: 1))
  }

  func partialSize() -> Int? {
    (try? FileManager.default.attributesOfItem(atPath: staging.partialPath(of: file))[.size] as? Int) ?? nil
  }

  @Test func aDownloadIsVerifiedAndNamedByItsDigest() async throws {
    let staged = try await stage()
    #expect(staged.path == staging.path(of: file) && staged.path.hasSuffix("/\(file.sha256).cdir"))
    #expect(staged.downloadedBytes == Int64(bytes.count) && staged.resumedAt == nil && !staged.wasAlreadyStaged)
    #expect(try FileSystem.contents(of: staged.path, limit: 1 << 20) == bytes)
    #expect(directory.names("staging") == ["\(file.sha256).cdir"])
    // Staged again: reused, not fetched.
    let again = try await stage()
    #expect(again.wasAlreadyStaged && again.downloadedBytes == 0 && source.requests.count == 1)
  }

  @Test func aDroppedConnectionKeepsItsBytesAndTheNextStageResumes() async throws {
    source.dropsAfter[file.path] = 3000
    await #expect(throws: SyncError.source(.failed(path: file.path, reason: "the connection dropped"))) { try await stage() }
    #expect(partialSize() == 3000)
    #expect(!FileManager.default.fileExists(atPath: staging.path(of: file)))
    let staged = try await stage()
    #expect(source.requests.last?.offset == 3000)
    #expect(staged.resumedAt == 3000 && staged.downloadedBytes == Int64(bytes.count - 3000))
    #expect(try FileSystem.contents(of: staged.path, limit: 1 << 20) == bytes)
    #expect(partialSize() == nil)
  }

  @Test func aSourceThatCannotResumeRestartsTheDownload() async throws {
    source.dropsAfter[file.path] = 2500
    await #expect(throws: SyncError.self) { try await stage() }
    source.supportsRanges = false
    let staged = try await stage()
    #expect(source.requests.last?.offset == 2500)
    #expect(staged.resumedAt == nil && staged.downloadedBytes == Int64(bytes.count))
    #expect(try FileSystem.contents(of: staged.path, limit: 1 << 20) == bytes)
  }

  @Test func bytesThatAreNotTheManifestsFileAreDiscarded() async throws {
    var tampered = bytes
    tampered[tampered.count / 2] ^= 0x01
    source[file.path] = tampered
    await #expect(throws: SyncError.untrusted(.fileMismatch(
      path: file.path, problem: "its sha-256 is not the manifest's \(file.sha256)"))) { try await stage() }
    #expect(directory.names("staging").isEmpty)
    // Longer than the manifest says: stopped at the limit and discarded.
    source[file.path] = bytes + [0]
    await #expect(throws: SyncError.untrusted(.fileMismatch(
      path: file.path, problem: "it has more than the manifest's \(bytes.count) bytes"))) { try await stage() }
    #expect(directory.names("staging").isEmpty)
    // Shorter: the transfer ended early; kept, to be resumed.
    source[file.path] = Array(bytes.prefix(100))
    await #expect(throws: SyncError.source(.failed(
      path: file.path, reason: "memory ended the transfer after 100 of \(bytes.count) bytes"))) { try await stage() }
    #expect(partialSize() == 100)
    // The next stage resumes from there.
    source[file.path] = bytes
    #expect(try await stage().resumedAt == 100)
  }

  @Test func aDamagedStagedCopyIsDownloadedAgain() async throws {
    let staged = try await stage()
    var damaged = bytes
    damaged[10] ^= 0xFF
    try AtomicFile.write(damaged, to: staged.path)
    let again = try await stage()
    #expect(!again.wasAlreadyStaged && again.downloadedBytes == Int64(bytes.count))
    #expect(try FileSystem.contents(of: again.path, limit: 1 << 20) == bytes)
  }

  @Test func aMissingFileIsNotFound() async throws {
    let missing = Manifest.File(path: "deltas/none.cdir", bytes: 10, sha256: String(repeating: "0", count: 64))
    await #expect(throws: SyncError.source(.notFound(path: "deltas/none.cdir", source: "memory"))) { try await stage(missing) }
  }

  @Test func removeAllKeepsOnlyTheNamedFiles() async throws {
    let other = Manifest.File(path: "x", bytes: 1, sha256: String(repeating: "b", count: 64))
    _ = try await stage()
    try AtomicFile.write([1], to: staging.partialPath(of: other))
    try AtomicFile.write([2], to: staging.directory + "/empty-3.cdir")
    try staging.removeAll(except: [file])
    #expect(directory.names("staging") == ["\(file.sha256).cdir"])
    try staging.removeAll(except: [])
    #expect(directory.names("staging").isEmpty)
  }

  /// Every write, fsync and rename of a staging fails once in turn: the
  /// stage fails with a storage error, nothing verified is left under the
  /// file's name unless it is whole, and the next stage succeeds.
  @Test(arguments: [FaultInjection.Call.write, .fsync, .rename, .read, .open])
  func aFailingDiskLeavesNothingUnverified(_ call: FaultInjection.Call) async throws {
    /// A partial download cut short, to be resumed by the stage under test.
    func cutShort() async {
      try? FileSystem.removeTree(staging.directory)
      source.dropsAfter[file.path] = 4000
      _ = try? await stage()
    }
    await cutShort()
    FaultInjection.install([])
    _ = try? await stage()
    let count = FaultInjection.counts()[call] ?? 0
    FaultInjection.reset()
    #expect(count > 0, "staging makes no \(call) call")
    for occurrence in 1...max(count, 1) {
      await cutShort()
      FaultInjection.install([.init(call: call, occurrence: occurrence, fault: .fail(.noSpace))])
      let outcome: Result<StagedFile, SyncError>
      do throws(SyncError) {
        outcome = .success(try await stage())
      } catch {
        outcome = .failure(error)
      }
      FaultInjection.reset()
      if case .failure(let error) = outcome {
        guard case .storage = error else {
          Issue.record("\(call) \(occurrence): \(error)")
          continue
        }
      }
      if FileManager.default.fileExists(atPath: staging.path(of: file)) {
        #expect(try FileSystem.contents(of: staging.path(of: file), limit: 1 << 20) == bytes, "\(call) \(occurrence)")
      }
      let staged = try await stage()
      #expect(try FileSystem.contents(of: staged.path, limit: 1 << 20) == bytes, "\(call) \(occurrence)")
    }
  }
}
