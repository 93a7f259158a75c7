import CallDirectoryFormat
import CalldirSystem

/// Where a sync downloads and verifies its files before anything is loaded
/// (``SyncDirectory/stagingDirectory``).
///
/// Files are named by their SHA-256: `<sha256>.part` while downloading,
/// `<sha256>.cdir` once the whole file is there and its size and SHA-256
/// are the manifest's (synced, then renamed durably). So a download cut
/// short (a dropped connection) is resumed by the next sync that needs the
/// same file, from where it stopped, and a file verified by a sync that
/// failed later is not fetched again; a file of another manifest is never
/// mistaken for it. The caller holds the ``SyncLock``.
public struct StagingArea: Sendable, Hashable {
  /// The directory.
  public let directory: String

  public init(directory: String) {
    self.directory = directory
  }

  /// Where `file` is once verified.
  public func path(of file: Manifest.File) -> String { directory + "/" + file.sha256 + ".cdir" }

  /// Where `file` is while it downloads.
  public func partialPath(of file: Manifest.File) -> String { directory + "/" + file.sha256 + ".part" }

  /// Stages `file`: a verified copy already staged is checked again and
  /// kept; a partial download is resumed (`Range`), or restarted when the
  /// source cannot resume; otherwise the file is downloaded.
  ///
  /// - Throws: ``SyncError/untrusted(_:)`` with
  ///   ``ManifestError/fileMismatch(path:problem:)`` when the bytes are not
  ///   the manifest's (more bytes than it says, or another SHA-256): the
  ///   download is discarded. ``SyncError/source(_:)`` when the transfer
  ///   fails or ends early: the bytes received are kept for the next sync.
  ///   ``SyncError/storage(_:)`` when the staging area cannot be written.
  public func stage(
    _ file: Manifest.File, from source: any SyncSource, hashing: any SHA256Hashing
  ) throws(SyncError) -> StagedFile {
    let destination = path(of: file)
    do {
      try FileSystem.createDirectory(directory)
      if try FileSystem.statusIfPresent(destination) != nil {
        if try Self.isVerified(destination, file, hashing) {
          return StagedFile(
            file: file, path: destination, downloadedBytes: 0, resumedAt: nil, wasAlreadyStaged: true)
        }
        try FileSystem.removeFile(destination)
      }
    } catch {
      throw .storage(error)
    }
    let download = try _StagedDownload(partialPath: partialPath(of: file), file: file, hashing: hashing)
    let resumeOffset = download.receivedBytes
    // A partial file that holds every byte (the last sync stopped before
    // the rename) is only verified.
    if !download.isComplete {
      do {
        try source.download(file.path, from: resumeOffset, into: download)
      } catch {
        download.interrupt()
        throw .source(error)
      }
    }
    let downloaded = try download.finish(as: destination, sourceName: source.name)
    return StagedFile(
      file: file, path: destination, downloadedBytes: downloaded,
      resumedAt: download.restarted || resumeOffset == 0 ? nil : resumeOffset, wasAlreadyStaged: false)
  }

  /// Removes every file but those of `files` (verified or partial), so a
  /// manifest's leftovers do not pile up.
  ///
  /// - Throws: ``SyncError/storage(_:)``.
  public func removeAll(except files: [Manifest.File]) throws(SyncError) {
    let kept = Set(files.flatMap { [FileSystem.fileName(of: path(of: $0)), FileSystem.fileName(of: partialPath(of: $0))] })
    do {
      guard try FileSystem.statusIfPresent(directory) != nil else { return }
      for name in try FileSystem.contentsOfDirectory(directory) where !kept.contains(name) {
        try FileSystem.removeTree(directory + "/" + name)
      }
    } catch {
      throw .storage(error)
    }
  }

  /// Whether the file at `path` has `file`'s size and SHA-256.
  static func isVerified(_ path: String, _ file: Manifest.File, _ hashing: any SHA256Hashing) throws(FileError) -> Bool {
    let descriptor = try FileDescriptor.open(path, .readOnly)
    return try descriptor.closeAfter { () throws(FileError) -> Bool in
      let size: Int64
      do throws(Errno) {
        size = try descriptor.status().size
      } catch {
        throw FileError(operation: "read the status of", path: path, errno: error)
      }
      guard size == file.bytes else { return false }
      var hasher = hashing.makeHasher()
      try hash(descriptor, named: path, count: size, into: &hasher)
      return ContentDigest(bytes: hasher.finalize())?.hex == file.sha256
    }
  }

  /// Feeds the first `count` bytes of an open file into `hasher`.
  static func hash(
    _ descriptor: FileDescriptor, named path: String, count: Int64, into hasher: inout any SHA256Hasher
  ) throws(FileError) {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
    defer { buffer.deallocate() }
    var offset: Int64 = 0
    while offset < count {
      let wanted = Int(min(Int64(buffer.count), count - offset))
      let got: Int
      do throws(Errno) {
        got = try descriptor.read(fromAbsoluteOffset: offset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]))
      } catch {
        throw FileError(operation: "read", path: path, errno: error)
      }
      guard got > 0 else { throw FileError(operation: "read", path: path, errno: .ioError, detail: "the file is shorter than \(count) bytes") }
      hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<got]))
      offset += Int64(got)
    }
  }
}
