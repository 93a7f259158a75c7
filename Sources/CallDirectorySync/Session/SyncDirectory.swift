import CalldirSystem

/// Where the app keeps what its sync needs, on the device:
///
///     <directory>/state.json              the ``SyncState`` of the last sync (``SyncStateStore``)
///     <directory>/lock                    held by a sync while it loads, or a reset (``SyncLock``)
///     <directory>/staging/<sha256>.cdir   files downloaded and verified, not yet loaded
///     <directory>/staging/<sha256>.part   a download cut short, resumed by the next sync
///
/// and, unless given elsewhere, `<directory>/rollback-floor.json`, the
/// ``RollbackFloorStore`` (which outlives the state: ``clear()`` keeps it).
/// The state too may be kept elsewhere (the example app keeps it where it
/// always did, `CallDirectory/sync-state.json`).
///
/// `calldir device sync` uses `DEVICE/sync/`, with the rollback floor in
/// `DEVICE/rollback-floor.json`; an app, a folder of its app-group
/// container.
public struct SyncDirectory: Sendable, Hashable {
  /// The directory.
  public let path: String
  /// The rollback floor's file.
  public let rollbackFloorPath: String
  /// The sync state's file.
  public let statePath: String

  /// - Parameters:
  ///   - path: The directory.
  ///   - rollbackFloorPath: Where the rollback floor is kept (default
  ///     `rollback-floor.json` in the directory).
  ///   - statePath: Where the sync state is kept (default `state.json` in
  ///     the directory).
  public init(path: String, rollbackFloorPath: String? = nil, statePath: String? = nil) {
    self.path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    self.rollbackFloorPath = rollbackFloorPath ?? self.path + "/rollback-floor.json"
    self.statePath = statePath ?? self.path + "/state.json"
  }
  /// The lock file.
  public var lockPath: String { path + "/lock" }
  /// Where downloads are staged.
  public var stagingDirectory: String { path + "/staging" }

  /// The sync state's store.
  public var stateStore: SyncStateStore { SyncStateStore(path: statePath) }
  /// The rollback floor's store.
  public var rollbackFloorStore: RollbackFloorStore { RollbackFloorStore(path: rollbackFloorPath) }
  /// The staging area.
  public var staging: StagingArea { StagingArea(directory: stagingDirectory) }

  /// Takes the directory's lock without waiting: one sync loads (or one
  /// reset runs) at a time per device. A sync takes it once its files are
  /// downloaded and verified, never while it waits on the network. It is
  /// held until the lock goes away.
  ///
  /// - Throws: ``SyncError/busy(path:)`` when another process holds it,
  ///   ``SyncError/storage(_:)`` when it cannot be taken.
  public func lock() throws(SyncError) -> SyncLock {
    let descriptor: FileDescriptor
    do {
      try FileSystem.createDirectory(path)
      descriptor = try FileDescriptor.open(lockPath, .readWrite, options: .create, permissions: 0o644)
    } catch {
      throw .storage(error)
    }
    let held: Bool
    do throws(Errno) {
      held = try descriptor.lock(exclusive: true, wait: false)
    } catch {
      try? descriptor.close()
      throw .storage(FileError(operation: "lock", path: lockPath, errno: error))
    }
    guard held else {
      try? descriptor.close()
      throw .busy(path: lockPath)
    }
    return SyncLock(descriptor: descriptor)
  }

  /// Forgets every sync: removes the state and everything staged, so the
  /// next sync is a first sync (it adopts the manifest's dataset). The
  /// rollback floor stays: the next sync of a dataset the device synced
  /// before still refuses its older versions. Only what a sync staged is
  /// removed (``StagingArea/removeAll(except:)``: none of another sync that
  /// is downloading now), then the staging directory when that leaves it
  /// empty; a staging directory that is a symbolic link stays, and so does
  /// everything else in its target. The caller holds the lock.
  ///
  /// - Throws: ``SyncError/storage(_:)``.
  public func clear() throws(SyncError) {
    try stateStore.remove()
    try staging.removeAll(except: [])
    do {
      guard try FileSystem.statusIfPresent(stagingDirectory, followingLinks: false)?.kind == .directory,
        try FileSystem.contentsOfDirectory(stagingDirectory).isEmpty
      else { return }
      try FileSystem.removeDirectory(stagingDirectory)
    } catch {
      throw .storage(error)
    }
  }
}

/// A held ``SyncDirectory`` lock (an exclusive `flock`).
public final class SyncLock: Sendable {
  private let descriptor: FileDescriptor

  init(descriptor: FileDescriptor) {
    self.descriptor = descriptor
  }

  deinit {
    try? descriptor.close()
  }
}
