import CalldirSystem

/// The locks that let several syncs of one device share its staging area
/// without a lock held while they download (so a slow server never holds
/// the device): each staged file is locked while a sync uses it.
///
/// - A download holds an exclusive `flock` on its `.part` file; it becomes
///   shared before the file is renamed to `.cdir`, and stays so while the
///   sync still needs the file (a ``_StagingPin``).
/// - A sync that finds a verified `.cdir` takes a shared lock on it.
/// - A removal takes an exclusive lock without waiting, and removes
///   nothing another sync has locked.
///
/// Whoever takes a lock then checks that the path still names the file it
/// locked (a removal may have unlinked it in between). Only regular files
/// are opened, never through a final symbolic link and never blocking on a
/// named pipe.
enum _StagedFileLock {
  /// What ``open(_:exclusive:wait:create:)`` found.
  enum Outcome {
    /// The file, open and locked as asked, still at its path.
    case locked(FileDescriptor, FileStatus)
    /// Another sync holds a conflicting lock (only when not waiting).
    case busy
    /// Nothing is at the path (only when not creating).
    case absent
  }

  /// Opens the regular file at `path` and locks it.
  ///
  /// - Parameters:
  ///   - exclusive: An exclusive lock (to write or remove), else shared.
  ///   - wait: Whether to wait for a conflicting lock to go.
  ///   - create: Whether to create the file when it is missing (for
  ///     writing).
  /// - Throws: ``FileError``; ``FileError/notRegularFile(_:_:)`` for
  ///   anything but a regular file (a symbolic link included).
  static func open(_ path: String, exclusive: Bool, wait: Bool, create: Bool) throws(FileError) -> Outcome {
    for _ in 0..<8 {
      let descriptor: FileDescriptor
      do {
        descriptor = try FileDescriptor.open(
          path, create ? .readWrite : .readOnly, options: create ? [.create, .noFollow, .nonBlocking] : [.noFollow, .nonBlocking],
          permissions: 0o644)
      } catch where error.errno == .noSuchFileOrDirectory && !create {
        return .absent
      } catch where error.errno == .tooManySymbolicLinkLevels {
        throw FileError.notRegularFile(path, .symbolicLink)
      }
      let status: FileStatus
      let held: Bool
      do throws(FileError) {
        status = try FileSystem.requireRegularFile(descriptor, named: path)
        do throws(Errno) {
          held = try descriptor.lock(exclusive: exclusive, wait: wait)
        } catch {
          throw FileError(operation: "lock", path: path, errno: error)
        }
      } catch {
        try? descriptor.close()
        throw error
      }
      guard held else {
        try? descriptor.close()
        return .busy
      }
      if try names(path, status) { return .locked(descriptor, status) }
      // Removed (or replaced) between the open and the lock: again.
      try? descriptor.close()
      if !create { return .absent }
    }
    throw FileError(operation: "lock", path: path, errno: .wouldBlock, detail: "it keeps being replaced")
  }

  /// Removes the regular file at `path` unless a sync has it locked; a
  /// missing file, or anything that is not a regular file (a symbolic
  /// link, a directory: nothing a sync stages), is left alone.
  ///
  /// - Returns: Whether the file was removed.
  /// - Throws: ``FileError`` when it cannot be removed.
  @discardableResult
  static func removeIfUnused(_ path: String) throws(FileError) -> Bool {
    let outcome: Outcome
    do {
      outcome = try open(path, exclusive: true, wait: false, create: false)
    } catch where error.errno == .illegalSeek || error.errno == .isDirectory {
      return false
    }
    guard case .locked(let descriptor, _) = outcome else { return false }
    defer { try? descriptor.close() }
    try FileSystem.removeFile(path)
    return true
  }

  /// Whether `path` (its final link not followed) is the file `status` describes.
  static func names(_ path: String, _ status: FileStatus) throws(FileError) -> Bool {
    guard let now = try FileSystem.statusIfPresent(path, followingLinks: false) else { return false }
    return now.device == status.device && now.inode == status.inode
  }
}

/// A staged file a sync still needs (a verified blob it will load): open,
/// with a shared lock that keeps other syncs from removing it, until the
/// pin goes away.
final class _StagingPin: Sendable {
  let descriptor: FileDescriptor
  let path: String
  let status: FileStatus

  init(descriptor: FileDescriptor, path: String, status: FileStatus) {
    self.descriptor = descriptor
    self.path = path
    self.status = status
  }

  deinit {
    try? descriptor.close()
  }

  /// Removes the file unless another sync has it locked too (it will load
  /// the same file): the lock becomes exclusive without waiting.
  func removeIfUnused() throws(FileError) {
    let held: Bool
    do throws(Errno) {
      held = try descriptor.lock(exclusive: true, wait: false)
    } catch {
      throw FileError(operation: "lock", path: path, errno: error)
    }
    guard held, try _StagedFileLock.names(path, status) else { return }
    try FileSystem.removeFile(path)
  }
}
