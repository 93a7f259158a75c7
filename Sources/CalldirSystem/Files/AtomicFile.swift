#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file that appears at its destination whole or not at all.
///
/// It is written under a temporary name in the destination's directory
/// (`.NAME.tmp-PID-N`, a dot file that leftover sweeps recognize), synced,
/// and only then renamed over the destination, whose directory is synced
/// too (``FileSystem/durableRename(_:to:)``; `F_FULLFSYNC` on Darwin). A
/// crash at any point leaves the old file or the complete new one. It
/// refuses to replace anything that is not a regular file.
///
/// Writing and publishing can be apart: ``seal()`` makes the bytes durable
/// under the temporary name, ``commit()`` renames; a file neither committed
/// nor kept is removed when it goes away.
///
///     let file = try AtomicFile(destination: "out/report.html")
///     try file.writer.write(html)
///     try file.commit()
public final class AtomicFile {
  /// Where the file appears on ``commit()``.
  public let destination: String
  /// Where it is written until then.
  public let temporaryPath: String
  /// Buffered writes into the temporary file.
  public let writer: BufferedWriter
  private var isSealed = false
  private var isFinished = false

  /// Creates the temporary file next to `destination`.
  /// - Throws: ``FileError`` when it cannot be created, or when
  ///   `destination` exists and is not a regular file (a directory, a
  ///   device, a FIFO, a symbolic link).
  public init(destination: String, permissions: mode_t = 0o644) throws(FileError) {
    if let existing = try FileSystem.statusIfPresent(destination, followingLinks: false), existing.kind != .regular {
      throw FileError(
        operation: "replace", path: destination, errno: .fileExists,
        detail: "it is not a regular file (\(existing.kind)); nothing was replaced")
    }
    self.destination = destination
    let (path, descriptor): (String, FileDescriptor)
    do {
      (path, descriptor) = try Self.createTemporary(
        in: FileSystem.directoryName(of: destination), name: FileSystem.fileName(of: destination),
        permissions: permissions)
    } catch {
      throw FileError(operation: "create", path: destination, errno: error.errno)
    }
    temporaryPath = path
    writer = BufferedWriter(descriptor: descriptor, path: path)
  }

  /// A new `.NAME.tmp-PID-N` file in `directory`, opened for writing.
  private static func createTemporary(
    in directory: String, name: String, permissions: mode_t
  ) throws(FileError) -> (String, FileDescriptor) {
    var attempt = 0
    while true {
      attempt += 1
      let path = "\(directory)/.\(name).tmp-\(getpid())-\(nextSerial())"
      do {
        return (path, try FileDescriptor.open(path, .readWrite, options: .exclusiveCreate, permissions: permissions))
      } catch where error.errno == .fileExists && attempt < 100 {
        continue
      }
    }
  }

  deinit {
    if !isFinished { discard() }
  }

  /// Flushes and syncs the file under its temporary name, and closes it;
  /// the bytes are durable but not yet at the destination.
  public func seal() throws(FileError) {
    guard !isSealed else { return }
    try writer.flush()
    do {
      try writer.descriptor.sync()
    } catch {
      throw FileError(operation: "sync", path: temporaryPath, errno: error)
    }
    isSealed = true
    do {
      try writer.descriptor.close()
    } catch {
      throw FileError(operation: "close", path: temporaryPath, errno: error)
    }
  }

  /// Seals the file if needed and renames it over the destination,
  /// durably; with `deferred`, the file's sync and its directory's are
  /// left to it (``FileSystem/DeferredSyncs/syncAll()``), and the file's
  /// writeback starts now.
  public func commit(deferringSyncsTo deferred: FileSystem.DeferredSyncs? = nil) throws(FileError) {
    if let deferred, !isSealed {
      try writer.flush()
      isSealed = true
      try deferred.add(fileSyncOf: writer.descriptor, path: destination)
    } else {
      try seal()
    }
    try FileSystem.durableRename(temporaryPath, to: destination, deferringSyncTo: deferred)
    isFinished = true
  }

  /// Leaves the sealed temporary file where it is, for a caller that
  /// renames it later (the publisher, after its catalog transaction).
  public func keep() throws(FileError) {
    try seal()
    isFinished = true
  }

  /// Leaves the temporary file where it is, as ``keep()`` does, but
  /// leaves its sync to `deferred` (its writeback starts now): a writer
  /// that stages many files syncs them together
  /// (``FileSystem/DeferredSyncs/syncAll()``) before it renames them.
  public func keep(deferringSyncTo deferred: FileSystem.DeferredSyncs) throws(FileError) {
    if !isSealed {
      try writer.flush()
      isSealed = true
      try deferred.add(fileSyncOf: writer.descriptor, path: temporaryPath)
    }
    isFinished = true
  }

  /// Removes the temporary file; the destination is untouched.
  public func discard() {
    if !isSealed {
      isSealed = true
      try? writer.descriptor.close()
    }
    try? FileSystem.removeFile(temporaryPath)
    isFinished = true
  }

  /// Writes `bytes` to `destination` atomically.
  public static func write(_ bytes: [UInt8], to destination: String, permissions: mode_t = 0o644) throws(FileError) {
    let file = try AtomicFile(destination: destination, permissions: permissions)
    try file.writer.write(bytes)
    try file.commit()
  }

  /// Removes the temporary files of `destination` (`.NAME.tmp-PID-N`)
  /// that processes which are gone left (killed before they committed or
  /// discarded them); those of a running process stay. Best effort.
  public static func removeAbandonedTemporaries(of destination: String) {
    let directory = FileSystem.directoryName(of: destination)
    let prefix = ".\(FileSystem.fileName(of: destination)).tmp-"
    for name in (try? FileSystem.contentsOfDirectory(directory)) ?? [] where name.hasPrefix(prefix) {
      guard isGone(writerOf: name.dropFirst(prefix.count)) else { continue }
      try? FileSystem.removeFile(directory + "/" + name)
    }
  }

  /// Removes every temporary file in `directory` (`.NAME.tmp-PID-N`, any
  /// name) that a process which is gone left. Best effort.
  public static func removeAbandonedTemporaries(inDirectory directory: String) {
    for name in (try? FileSystem.contentsOfDirectory(directory)) ?? [] where name.hasPrefix(".") {
      let parts = name.split(separator: ".", omittingEmptySubsequences: false)
      guard let last = parts.last, last.hasPrefix("tmp-"), isGone(writerOf: last.dropFirst(4)) else { continue }
      try? FileSystem.removeFile(directory + "/" + name)
    }
  }

  /// Whether `suffix` (`PID-N`, what follows `.tmp-`) names a process,
  /// other than this one, that is gone.
  public static func isGone(writerOf suffix: Substring) -> Bool {
    guard let dash = suffix.firstIndex(of: "-"), let pid = pid_t(suffix[..<dash]), pid > 0, pid != getpid() else {
      return false
    }
    return kill(pid, 0) == -1 && Errno.current == Errno(rawValue: ESRCH)
  }

  private static let serial = Locked(0)

  private static func nextSerial() -> Int {
    serial.withLock { value in
      value += 1
      return value
    }
  }
}
