import CalldirSystem

/// An exclusive lock on a store (`STORE/lock`, flock), held for a whole
/// build (or repair, or prune) so that two runs never change the store at
/// once. The kernel drops it when the process dies, so a crash never leaves
/// the store locked.
public final class StoreLock {
  private let descriptor: FileDescriptor
  public let path: String

  /// Takes the lock, waiting for another holder unless `wait` is false.
  /// - Throws: `StoreError.locked` when busy and not waiting.
  public init(path: String, wait: Bool) throws(StoreError) {
    do {
      descriptor = try FileDescriptor.open(path, .readWrite, options: .create)
    } catch {
      throw .file(error)
    }
    let taken: Bool
    do {
      taken = try descriptor.lock(exclusive: true, wait: wait)
    } catch {
      try? descriptor.close()
      throw .file(FileError(operation: "lock", path: path, errno: error))
    }
    guard taken else {
      try? descriptor.close()
      throw .locked(path: path)
    }
    self.path = path
  }

  deinit { try? descriptor.close() }
}
