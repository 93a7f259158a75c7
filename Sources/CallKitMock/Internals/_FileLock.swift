import CalldirSystem

/// An exclusive `flock` on a lock file. It conflicts with every other open
/// of the same file, in this process or another, and is released when the
/// owner is deinitialized (its descriptor closed) or the process dies.
final class _FileLock: Sendable {
  private let descriptor: FileDescriptor

  private init(descriptor: FileDescriptor) {
    self.descriptor = descriptor
  }

  deinit {
    try? descriptor.close()
  }

  /// Takes the lock without waiting; `nil` when someone else holds it.
  static func tryAcquire(_ path: String) throws(FileError) -> _FileLock? {
    try take(path, wait: false)
  }

  /// Takes the lock, waiting for the current holder.
  static func acquire(_ path: String) throws(FileError) -> _FileLock {
    guard let lock = try take(path, wait: true) else {
      throw FileError(operation: "lock", path: path, errno: .lockHeld)
    }
    return lock
  }

  private static func take(_ path: String, wait: Bool) throws(FileError) -> _FileLock? {
    let descriptor = try FileDescriptor.open(path, .readWrite, options: .create)
    do {
      guard try descriptor.lock(exclusive: true, wait: wait) else {
        try? descriptor.close()
        return nil
      }
    } catch {
      try? descriptor.close()
      throw FileError(operation: "lock", path: path, errno: error)
    }
    return _FileLock(descriptor: descriptor)
  }
}
