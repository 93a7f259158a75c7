#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive `flock` on a lock file. It conflicts with every other open
/// of the same file, in this process or another, and is released when the
/// owner is deinitialized or the process dies.
final class _FileLock {
  private let fd: Int32

  private init(fd: Int32) {
    self.fd = fd
  }

  deinit {
    _ = flock(fd, LOCK_UN)
    _closeDescriptor(fd)
  }

  /// Takes the lock without waiting; `nil` when someone else holds it.
  static func tryAcquire(_ path: String) throws(_SystemError) -> _FileLock? {
    let fd = try openLockFile(path)
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      let code = _currentErrno()
      if code == EINTR { continue }
      _closeDescriptor(fd)
      if code == EWOULDBLOCK { return nil }
      throw .errno("flock", path, code: code)
    }
    return _FileLock(fd: fd)
  }

  /// Takes the lock, waiting for the current holder.
  static func acquire(_ path: String) throws(_SystemError) -> _FileLock {
    let fd = try openLockFile(path)
    while flock(fd, LOCK_EX) != 0 {
      let code = _currentErrno()
      if code == EINTR { continue }
      _closeDescriptor(fd)
      throw .errno("flock", path, code: code)
    }
    return _FileLock(fd: fd)
  }

  private static func openLockFile(_ path: String) throws(_SystemError) -> Int32 {
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw .errno("open", path) }
    return fd
  }
}
