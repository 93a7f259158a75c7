extension FileSystem {
  /// Directory syncs left for later: a writer that renames many files into
  /// a few directories (a build's blobs and reports) passes one of these
  /// to each rename and syncs each directory once, with ``syncAll()``,
  /// before the step that needs the renames to have lasted (a catalog
  /// transaction, a manifest). Safe to share between threads.
  public final class DeferredDirectorySyncs: Sendable {
    private let directories = _Locked<[String]>([])

    public init() {}

    /// Remembers the directory that holds `path`.
    public func add(containing path: String) {
      let directory = FileSystem.directoryName(of: path)
      directories.withLock { if !$0.contains(directory) { $0.append(directory) } }
    }

    /// Syncs every directory remembered, each once, and forgets them.
    public func syncAll() throws(FileError) {
      let pending = directories.withLock { directories in
        defer { directories = [] }
        return directories
      }
      for directory in pending { try FileSystem.syncDirectory(directory) }
    }
  }
}
