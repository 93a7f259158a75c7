import CallDirectoryFormat
import CalldirSystem

/// One file downloading into the staging area: a ``DownloadReceiver`` that
/// appends to `<sha256>.part`, hashes as it goes and refuses more bytes
/// than the manifest's size. Opening it hashes what an earlier download
/// left, so that the transfer resumes from there.
final class _StagedDownload: DownloadReceiver {
  let partialPath: String
  let file: Manifest.File
  /// The bytes in the partial file (and in the hash).
  private(set) var receivedBytes: Int64
  /// The bytes received from the source by this download.
  private(set) var downloadedBytes: Int64 = 0
  /// Whether the source started over instead of resuming.
  private(set) var restarted = false

  private let hashing: any SHA256Hashing
  private var hasher: any SHA256Hasher
  private let descriptor: FileDescriptor
  private var isOpen = true
  /// Why the download stopped, when the receiver stopped it.
  private var failure: SyncError?
  /// Whether the bytes are known not to be the file's (then discarded).
  private var isMismatch = false

  /// Opens (or creates) the partial file and hashes its bytes.
  ///
  /// - Throws: ``SyncError/storage(_:)``.
  init(partialPath: String, file: Manifest.File, hashing: any SHA256Hashing) throws(SyncError) {
    self.partialPath = partialPath
    self.file = file
    self.hashing = hashing
    hasher = hashing.makeHasher()
    do {
      descriptor = try FileDescriptor.open(partialPath, .readWrite, options: .create, permissions: 0o644)
    } catch {
      throw .storage(error)
    }
    receivedBytes = 0
    do throws(FileError) {
      var size: Int64
      do throws(Errno) {
        size = try descriptor.status().size
        // Longer than the file: not a part of it.
        if size > file.bytes {
          try descriptor.resize(to: 0)
          size = 0
        }
      } catch {
        throw FileError(operation: "read the status of", path: partialPath, errno: error)
      }
      try StagingArea.hash(descriptor, named: partialPath, count: size, into: &hasher)
      receivedBytes = size
    } catch {
      close()
      throw .storage(error)
    }
  }

  deinit {
    close()
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
  /// SHA-256, then syncs the file and renames it to `destination`.
  ///
  /// - Returns: The bytes this download received.
  /// - Throws: The receiver's own failure; ``SyncError/source(_:)`` when
  ///   the transfer ended early (the bytes are kept);
  ///   ``SyncError/untrusted(_:)`` when the bytes are not the file (they
  ///   are discarded); ``SyncError/storage(_:)``.
  func finish(as destination: String, sourceName: String) throws(SyncError) -> Int64 {
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
      close()
      try FileSystem.durableRename(partialPath, to: destination)
    } catch {
      close()
      throw .storage(error)
    }
    return downloadedBytes
  }

  /// Removes the partial file: its bytes are not the manifest's.
  private func discard() {
    close()
    try? FileSystem.removeFile(partialPath)
  }

  private func close() {
    guard isOpen else { return }
    isOpen = false
    try? descriptor.close()
  }
}

@available(*, unavailable)
extension _StagedDownload: Sendable {}
