import CallDirectoryFormat
import CalldirSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One file downloading into the staging area: a ``DownloadReceiver`` that
/// appends to `<sha256>.part`, hashes as it goes, refuses more bytes than
/// the manifest's size and stops at the deadline. Opening it takes the
/// part's exclusive lock (``_StagedFileLock``) and hashes what an earlier
/// download left, so that the transfer resumes from there; when another
/// sync is downloading the same file, it downloads into a part of its own
/// (`<sha256>.<pid>.part`) from the start instead.
final class _StagedDownload: DownloadReceiver {
  private(set) var partialPath: String
  let file: Manifest.File
  /// The bytes in the partial file (and in the hash).
  private(set) var receivedBytes: Int64
  /// The bytes received from the source by this download.
  private(set) var downloadedBytes: Int64 = 0
  /// Whether the source started over instead of resuming.
  private(set) var restarted = false

  private let hashing: any SHA256Hashing
  private let bounds: TransferBounds
  private var hasher: any SHA256Hasher
  private let descriptor: FileDescriptor
  private let status: FileStatus
  private var isOpen = true
  /// Why the download stopped, when the receiver stopped it.
  private var failure: SyncError?
  /// Whether the bytes are known not to be the file's (then discarded).
  private var isMismatch = false

  /// How often the part's lock is tried before the download takes a part
  /// of its own, and how long apart (in all, a fifth of a second).
  static let lockAttempts = 20
  static let lockRetryMicroseconds: useconds_t = 10_000

  /// Opens (or creates) the partial file, locks it and hashes its bytes.
  ///
  /// - Throws: ``SyncError/storage(_:)``.
  init(
    staging: StagingArea, file: Manifest.File, hashing: any SHA256Hashing, bounds: TransferBounds
  ) throws(SyncError) {
    self.file = file
    self.hashing = hashing
    self.bounds = bounds
    hasher = hashing.makeHasher()
    var path = staging.partialPath(of: file)
    var opened: (FileDescriptor, FileStatus)?
    var isPrivate = false
    do {
      opened = try Self.lock(path)
      if opened == nil {
        // Another sync downloads the file now: a part of this one's own.
        path = staging.directory + "/" + file.sha256 + ".\(getpid()).part"
        isPrivate = true
        opened = try Self.lock(path)
      }
    } catch {
      throw .storage(error)
    }
    guard let (descriptor, status) = opened else {
      throw .storage(FileError(operation: "lock", path: path, errno: .wouldBlock, detail: "another sync holds it"))
    }
    partialPath = path
    self.descriptor = descriptor
    self.status = status
    receivedBytes = 0
    do throws(FileError) {
      var size: Int64
      do throws(Errno) {
        size = try descriptor.status().size
        // Longer than the file: not a part of it. A private part is never resumed.
        if size > file.bytes || (isPrivate && size > 0) {
          try descriptor.resize(to: 0)
          size = 0
        }
      } catch {
        throw FileError(operation: "read the status of", path: path, errno: error)
      }
      try StagingArea.hash(descriptor, named: path, count: size, into: &hasher)
      receivedBytes = size
    } catch {
      close()
      throw .storage(error)
    }
  }

  deinit {
    close()
  }

  /// The part at `path`, created if need be and locked exclusively; nil
  /// while another sync holds it. A lock held for a moment only (a process
  /// spawned meanwhile holds a copy of every descriptor until it runs its
  /// program) is waited for.
  private static func lock(_ path: String) throws(FileError) -> (FileDescriptor, FileStatus)? {
    for attempt in 0..<lockAttempts {
      if attempt > 0 { usleep(lockRetryMicroseconds) }
      if case .locked(let descriptor, let status) = try _StagedFileLock.open(
        path, exclusive: true, wait: false, create: true)
      {
        return (descriptor, status)
      }
    }
    return nil
  }

  /// Whether every byte the manifest names is there (to be verified).
  var isComplete: Bool { receivedBytes == file.bytes }

  func start(at offset: Int64) -> Bool {
    guard failure == nil else { return false }
    if offset == receivedBytes { return true }
    guard offset == 0 else {
      failure = .source(.failed(path: file.path, reason: "the source resumed at byte \(offset), not at \(receivedBytes)"))
      return false
    }
    do throws(Errno) {
      try descriptor.resize(to: 0)
    } catch {
      failure = .storage(FileError(operation: "truncate", path: partialPath, errno: error))
      return false
    }
    hasher = hashing.makeHasher()
    receivedBytes = 0
    restarted = true
    return true
  }

  func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard failure == nil else { return false }
    guard receivedBytes + Int64(bytes.count) <= file.bytes else {
      failure = .untrusted(.fileMismatch(path: file.path, problem: "it has more than the manifest's \(file.bytes) bytes"))
      isMismatch = true
      return false
    }
    guard !bounds.hasExpired else {
      failure = .source(.failed(path: file.path, reason: bounds.expiryReason))
      return false
    }
    do throws(Errno) {
      try descriptor.writeAll(toAbsoluteOffset: receivedBytes, bytes)
    } catch {
      failure = .storage(FileError(operation: "write", path: partialPath, errno: error))
      return false
    }
    hasher.update(bytes)
    receivedBytes += Int64(bytes.count)
    downloadedBytes += Int64(bytes.count)
    return true
  }

  /// The transfer failed: keeps the bytes received (synced, best effort)
  /// for the next sync to resume from.
  func interrupt() {
    if isOpen { try? descriptor.sync() }
    close()
  }

  /// Ends the download once the source returned: verifies the size and
  /// SHA-256, then syncs the file and renames it to `destination`, keeping
  /// it locked (shared) for the caller.
  ///
  /// - Returns: The bytes this download received, and the pin of the
  ///   verified file.
  /// - Throws: The receiver's own failure; ``SyncError/source(_:)`` when
  ///   the transfer ended early (the bytes are kept);
  ///   ``SyncError/untrusted(_:)`` when the bytes are not the file (they
  ///   are discarded); ``SyncError/storage(_:)``.
  func finish(as destination: String, sourceName: String) throws(SyncError) -> (Int64, _StagingPin) {
    if let failure {
      if isMismatch { discard() } else { interrupt() }
      throw failure
    }
    guard isComplete else {
      interrupt()
      throw .source(.failed(
        path: file.path, reason: "\(sourceName) ended the transfer after \(receivedBytes) of \(file.bytes) bytes"))
    }
    guard let digest = ContentDigest(bytes: hasher.finalize())?.hex, digest == file.sha256 else {
      discard()
      throw .untrusted(.fileMismatch(path: file.path, problem: "its sha-256 is not the manifest's \(file.sha256)"))
    }
    do throws(FileError) {
      do throws(Errno) {
        try descriptor.sync()
      } catch {
        throw FileError(operation: "sync", path: partialPath, errno: error)
      }
      do throws(Errno) {
        // Shared before it is named `.cdir`: other syncs may use it, none
        // may remove it while this one needs it.
        _ = try descriptor.lock(exclusive: false, wait: true)
      } catch {
        throw FileError(operation: "lock", path: partialPath, errno: error)
      }
      try FileSystem.durableRename(partialPath, to: destination)
    } catch {
      close()
      throw .storage(error)
    }
    isOpen = false
    return (downloadedBytes, _StagingPin(descriptor: descriptor, path: destination, status: status))
  }

  /// Removes the partial file: its bytes are not the manifest's.
  private func discard() {
    if isOpen, (try? _StagedFileLock.names(partialPath, status)) == true { try? FileSystem.removeFile(partialPath) }
    close()
  }

  private func close() {
    guard isOpen else { return }
    isOpen = false
    try? descriptor.close()
  }
}

@available(*, unavailable)
extension _StagedDownload: Sendable {}
