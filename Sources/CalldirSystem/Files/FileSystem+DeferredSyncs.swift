extension FileSystem {
  /// Syncs left for later: a writer that commits many files into a few
  /// directories (a build's blobs and reports) passes one of these to each
  /// commit and rename, and syncs each file and each directory once, with
  /// ``syncAll()``, before the step that needs them to have lasted (a
  /// catalog transaction, a manifest). Meanwhile the files' writeback runs
  /// while the writer goes on. Safe to share between threads.
  public final class DeferredSyncs: Sendable {
    private let directories = Locked<[String]>([])
    /// Committed files whose data is not yet known to be on the disk,
    /// still open.
    private let files = Locked<[(descriptor: FileDescriptor, path: String)]>([])

    public init() {}

    deinit {
      for file in files.withLock({ $0 }) { try? file.descriptor.close() }
    }

    /// Remembers the directory that holds `path`.
    public func add(containing path: String) {
      let directory = FileSystem.directoryName(of: path)
      directories.withLock { if !$0.contains(directory) { $0.append(directory) } }
    }

    /// Takes an open file, written in full, to sync (and close) later; its
    /// writeback starts now. At most ``maxOpenFiles`` wait open: beyond
    /// them the oldest is synced and closed now.
    public func add(fileSyncOf descriptor: FileDescriptor, path: String) throws(FileError) {
      descriptor.startWriteback()
      let oldest = files.withLock { files -> (descriptor: FileDescriptor, path: String)? in
        files.append((descriptor, path))
        return files.count > Self.maxOpenFiles ? files.removeFirst() : nil
      }
      if let oldest { try Self.syncAndClose(oldest) }
    }

    /// How many files wait open for their sync at most (a build with many
    /// deltas must not run out of descriptors).
    public static let maxOpenFiles = 32

    private static func syncAndClose(_ file: (descriptor: FileDescriptor, path: String)) throws(FileError) {
      var failure: FileError?
      do {
        try file.descriptor.sync()
      } catch {
        failure = FileError(operation: "sync", path: file.path, errno: error)
      }
      do {
        try file.descriptor.close()
      } catch {
        failure = failure ?? FileError(operation: "close", path: file.path, errno: error)
      }
      if let failure { throw failure }
    }

    /// Syncs and closes every file remembered, then syncs every directory
    /// remembered, each once, and forgets them. The first failure is
    /// thrown once every file is closed.
    public func syncAll() throws(FileError) {
      let pendingFiles = files.withLock { files in
        defer { files = [] }
        return files
      }
      var failure: FileError?
      for file in pendingFiles {
        do {
          try Self.syncAndClose(file)
        } catch {
          failure = failure ?? error
        }
      }
      if let failure { throw failure }
      let pending = directories.withLock { directories in
        defer { directories = [] }
        return directories
      }
      for directory in pending { try FileSystem.syncDirectory(directory) }
    }
  }
}
