import CallDirectoryFormat
import CalldirSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a sync downloads and verifies its files before anything is loaded
/// (``SyncDirectory/stagingDirectory``).
///
/// Files are named by their SHA-256: `<sha256>.part` while downloading,
/// `<sha256>.cdir` once the whole file is there and its size and SHA-256
/// are the manifest's (synced, then renamed durably). So a download cut
/// short (a dropped connection) is resumed by the next sync that needs the
/// same file, from where it stopped, and a file verified by a sync that
/// failed later is not fetched again; a file of another manifest is never
/// mistaken for it.
///
/// No sync-wide lock is held while files download: several syncs of one
/// device may stage at once, each file locked while a sync writes or uses
/// it (``_StagedFileLock``). A sync removes only files of these names that
/// no other sync has locked, only regular files, and never anything
/// through a symbolic link; the directory itself may be a symbolic link
/// (to a bigger disk), whose other contents are left alone.
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
  /// source cannot resume; otherwise the file is downloaded. A resumed
  /// download whose bytes turn out not to be the file (an earlier transfer
  /// left corrupt bytes) is discarded and fetched again from byte 0, once.
  ///
  /// - Parameter bounds: What the transfer keeps to (its deadline).
  /// - Returns: The verified file, locked so that no other sync removes it
  ///   while this one needs it.
  /// - Throws: ``SyncError/untrusted(_:)`` with
  ///   ``ManifestError/fileMismatch(path:problem:)`` when the bytes are not
  ///   the manifest's (more bytes than it says, or another SHA-256): the
  ///   download is discarded. ``SyncError/source(_:)`` when the transfer
  ///   fails or ends early: the bytes received are kept for the next sync.
  ///   ``SyncError/storage(_:)`` when the staging area cannot be written.
  public func stage(
    _ file: Manifest.File, from source: any SyncSource, hashing: any SHA256Hashing, within bounds: TransferBounds
  ) async throws(SyncError) -> StagedFile {
    let destination = path(of: file)
    do {
      try FileSystem.createDirectory(directory)
    } catch {
      throw .storage(error)
    }
    if let pin = try pinVerified(file, hashing) {
      return StagedFile(
        file: file, path: destination, downloadedBytes: 0, resumedAt: nil, wasAlreadyStaged: true, pin: pin)
    }
    // A part fetched again: the bytes an earlier sync had left, and those
    // this sync added before the digest was found wrong.
    var discarded: (bytes: Int64, fetched: Int64)?
    while true {
      let download = try _StagedDownload(staging: self, file: file, hashing: hashing, bounds: bounds)
      let resumeOffset = download.receivedBytes
      // A partial file that holds every byte (the last sync stopped before
      // the rename) is only verified.
      if !download.isComplete {
        do {
          try await source.download(file.path, from: resumeOffset, within: bounds, into: download)
        } catch {
          download.interrupt()
          throw .source(error)
        }
      }
      do {
        let (downloaded, pin) = try download.finish(as: destination, sourceName: source.name)
        return StagedFile(
          file: file, path: destination, downloadedBytes: (discarded?.fetched ?? 0) + downloaded,
          resumedAt: download.restarted || resumeOffset == 0 ? nil : resumeOffset, wasAlreadyStaged: false,
          discardedPartial: discarded?.bytes, pin: pin)
      } catch .untrusted where resumeOffset > 0 && !download.restarted && discarded == nil {
        // The bytes an earlier transfer left are not the file's: discarded
        // (by finish), and the whole file is fetched again.
        discarded = (resumeOffset, download.downloadedBytes)
      }
    }
  }

  /// Removes every staged file but those of `files` (verified or partial),
  /// so a manifest's leftovers do not pile up: only files named as this
  /// area names them, only regular files, and none that another sync has
  /// locked (it is downloading or about to load it).
  ///
  /// - Throws: ``SyncError/storage(_:)``.
  public func removeAll(except files: [Manifest.File]) throws(SyncError) {
    let kept = Set(files.flatMap { [FileSystem.fileName(of: path(of: $0)), FileSystem.fileName(of: partialPath(of: $0))] })
    do {
      // Followed if it is a link: its target is where files are staged.
      guard try FileSystem.statusIfPresent(directory)?.kind == .directory else { return }
      for name in try FileSystem.contentsOfDirectory(directory) where !kept.contains(name) {
        switch Self.kind(ofName: name) {
        case .staged: try _StagedFileLock.removeIfUnused(directory + "/" + name)
        case .temporary(let owner) where !Self.isRunning(owner):
          try _StagedFileLock.removeIfUnused(directory + "/" + name)
        case .temporary, .other: continue
        }
      }
    } catch {
      throw .storage(error)
    }
  }

  /// What a name in the staging area is.
  enum NameKind: Equatable {
    /// A file a sync stages: `<sha256>.cdir`, `<sha256>.part`,
    /// `<sha256>.<pid>.part`, `empty-<version>.cdir`.
    case staged
    /// The temporary file of an atomic write of a staged file, by the
    /// process `owner` (`.empty-5.cdir.tmp-<pid>-<n>`).
    case temporary(owner: Int32)
    /// Anything else: not a sync's, never removed.
    case other
  }

  /// What the file named `name` is.
  static func kind(ofName name: String) -> NameKind {
    func isDigits(_ text: Substring) -> Bool { !text.isEmpty && text.allSatisfy { $0 >= "0" && $0 <= "9" } }
    func isStaged(_ name: Substring) -> Bool {
      if name.hasPrefix("empty-") && name.hasSuffix(".cdir") {
        return isDigits(name.dropFirst("empty-".count).dropLast(".cdir".count))
      }
      let digest = name.prefix(64)
      guard digest.count == 64, digest.allSatisfy({ ($0 >= "0" && $0 <= "9") || ($0 >= "a" && $0 <= "f") }) else {
        return false
      }
      let rest = name.dropFirst(64)
      if rest == ".cdir" || rest == ".part" { return true }
      return rest.hasPrefix(".") && rest.hasSuffix(".part") && isDigits(rest.dropFirst().dropLast(".part".count))
    }
    if isStaged(Substring(name)) { return .staged }
    // `.NAME.tmp-PID-N` (AtomicFile's temporary names).
    let parts = name.split(separator: "-", omittingEmptySubsequences: false)
    guard name.hasPrefix("."), parts.count >= 3, isDigits(parts[parts.count - 1]), isDigits(parts[parts.count - 2]),
      let owner = Int32(parts[parts.count - 2])
    else { return .other }
    let head = parts.dropLast(2).joined(separator: "-")
    guard head.hasSuffix(".tmp"), isStaged(head.dropFirst().dropLast(".tmp".count)) else { return .other }
    return .temporary(owner: owner)
  }

  /// Whether process `pid` is running (or may be: it cannot be signalled).
  private static func isRunning(_ pid: Int32) -> Bool {
    kill(pid, 0) == 0 || errno != ESRCH
  }

  /// The verified copy of `file` already staged, locked (shared); nil when
  /// there is none, or it is damaged (then removed unless another sync
  /// holds it).
  private func pinVerified(_ file: Manifest.File, _ hashing: any SHA256Hashing) throws(SyncError) -> _StagingPin? {
    let destination = path(of: file)
    do {
      guard case .locked(let descriptor, let status) = try _StagedFileLock.open(
        destination, exclusive: false, wait: true, create: false)
      else { return nil }
      let pin = _StagingPin(descriptor: descriptor, path: destination, status: status)
      if try Self.isVerified(descriptor, named: destination, size: status.size, file, hashing) { return pin }
      try pin.removeIfUnused()
      return nil
    } catch {
      throw .storage(error)
    }
  }

  /// Whether the open file of `size` bytes has `file`'s size and SHA-256.
  static func isVerified(
    _ descriptor: FileDescriptor, named path: String, size: Int64, _ file: Manifest.File, _ hashing: any SHA256Hashing
  ) throws(FileError) -> Bool {
    guard size == file.bytes else { return false }
    var hasher = hashing.makeHasher()
    try hash(descriptor, named: path, count: size, into: &hasher)
    return ContentDigest(bytes: hasher.finalize())?.hex == file.sha256
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
