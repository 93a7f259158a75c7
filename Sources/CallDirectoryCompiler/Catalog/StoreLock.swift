import Glibc

/// An exclusive lock on a store (`STORE/lock`, flock), held for a whole
/// build so that two runs from cron never publish at once. The kernel drops
/// it when the process dies, so a crash never leaves the store locked.
public final class StoreLock {
  private let descriptor: Int32
  public let path: String

  /// Takes the lock, waiting for another holder unless `wait` is false.
  /// - Throws: `StoreError.locked` when busy and not waiting.
  public init(path: String, wait: Bool) throws(StoreError) {
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw .cannotCreate(path: path, reason: String(cString: strerror(errno)).lowercased())
    }
    while flock(descriptor, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0 {
      let code = errno
      if code == EINTR { continue }
      close(descriptor)
      if code == EWOULDBLOCK { throw .locked(path: path) }
      throw .io(path: path, reason: String(cString: strerror(code)).lowercased())
    }
    self.descriptor = descriptor
    self.path = path
  }

  deinit {
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }
}
