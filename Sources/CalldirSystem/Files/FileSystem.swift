#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Operations on paths: status, directories, renames and removals, each
/// through the system layer's seam and with the path in its error.
public enum FileSystem {
  /// What `stat` (or, not following a final link, `lstat`) says of `path`.
  public static func status(_ path: String, followingLinks: Bool = true) throws(FileError) -> FileStatus {
    var info = stat()
    let result = path.withCString { name in valueOrErrno { system_stat(name, &info, followingLinks: followingLinks) } }
    if case .failure(let code) = result { throw FileError(operation: "read the status of", path: path, errno: code) }
    return FileStatus(info)
  }

  /// The status of `path`, or nil when nothing is there (`ENOENT`).
  public static func statusIfPresent(_ path: String, followingLinks: Bool = true) throws(FileError) -> FileStatus? {
    do {
      return try status(path, followingLinks: followingLinks)
    } catch where error.errno == .noSuchFileOrDirectory {
      return nil
    }
  }

  /// Whether something (a file, directory, link…) is at `path`.
  public static func exists(_ path: String) -> Bool {
    (try? statusIfPresent(path, followingLinks: false)) != nil
  }

  /// Creates `path` and its missing parents; an existing directory is fine.
  public static func createDirectory(_ path: String, permissions: mode_t = 0o755) throws(FileError) {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/", omittingEmptySubsequences: true) {
      prefix += prefix.isEmpty || prefix.hasSuffix("/") ? String(component) : "/" + component
      let result = prefix.withCString { name in valueOrErrno { system_mkdir(name, permissions) } }
      guard case .failure(let code) = result else { continue }
      guard code == .fileExists else { throw FileError(operation: "create directory", path: prefix, errno: code) }
      if try status(prefix).kind != .directory {
        throw FileError(operation: "create directory", path: prefix, errno: .notDirectory)
      }
    }
  }

  /// Renames `source` over `destination` and syncs the destination's
  /// directory, so the rename survives a crash (or leaves that sync to
  /// `deferred`, whose owner syncs before it relies on the rename).
  /// Refuses to replace anything
  /// but a regular file (a directory, a device, a FIFO, a symbolic link):
  /// calldir never turns one into a file.
  public static func durableRename(
    _ source: String, to destination: String, deferringSyncTo deferred: DeferredSyncs? = nil
  ) throws(FileError) {
    if let existing = try statusIfPresent(destination, followingLinks: false), existing.kind != .regular {
      throw FileError(
        operation: "replace", path: destination, errno: .fileExists,
        detail: "it is not a regular file (\(existing.kind)); nothing was replaced")
    }
    let result = source.withCString { from in destination.withCString { to in valueOrErrno { system_rename(from, to) } } }
    if case .failure(let code) = result { throw FileError(operation: "rename \(source) to", path: destination, errno: code) }
    if let deferred {
      deferred.add(containing: destination)
    } else {
      try syncDirectory(containing: destination)
    }
  }

  /// Gives the file at `source` the second name `destination` (a hard
  /// link, `link(2)`) when nothing is there, and syncs the destination's
  /// directory: an exclusive creation of a complete file. Of two processes
  /// that link to one name at once, exactly one succeeds.
  /// - Throws: ``FileError``; with ``Errno/fileExists`` when something
  ///   (anything, a dangling symbolic link included) is at `destination`,
  ///   which is left as it was.
  public static func linkWithoutReplacing(_ source: String, to destination: String) throws(FileError) {
    let result = source.withCString { from in destination.withCString { to in valueOrErrno { system_link(from, to) } } }
    if case .failure(let code) = result { throw FileError(operation: "create", path: destination, errno: code) }
    try syncDirectory(containing: destination)
  }

  /// Syncs the directory that holds `path` (renames and creations in it).
  public static func syncDirectory(containing path: String) throws(FileError) {
    try syncDirectory(directoryName(of: path))
  }

  /// Syncs `directory` now.
  static func syncDirectory(_ directory: String) throws(FileError) {
    let descriptor = try FileDescriptor.open(directory, .readOnly, options: .directory)
    defer { try? descriptor.close() }
    do {
      try descriptor.sync()
    } catch {
      // Some file systems cannot sync a directory; the rename stands.
      if error != .invalidArgument { throw FileError(operation: "sync", path: directory, errno: error) }
    }
  }

  /// Removes a file; a missing file is fine.
  public static func removeFile(_ path: String) throws(FileError) {
    let result = path.withCString { name in valueOrErrno { system_unlink(name) } }
    if case .failure(let code) = result, code != .noSuchFileOrDirectory {
      throw FileError(operation: "remove", path: path, errno: code)
    }
  }

  /// Removes an empty directory; a missing one is fine.
  public static func removeDirectory(_ path: String) throws(FileError) {
    let result = path.withCString { name in valueOrErrno { system_rmdir(name) } }
    if case .failure(let code) = result, code != .noSuchFileOrDirectory {
      throw FileError(operation: "remove", path: path, errno: code)
    }
  }

  /// The names in a directory, sorted, without `.` and `..`.
  public static func contentsOfDirectory(_ path: String) throws(FileError) -> [String] {
    guard let directory = opendir(path) else { throw FileError(operation: "list", path: path, errno: .current) }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        raw.baseAddress.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
      }
      if !name.isEmpty && name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
  }

  /// The directory part of `path` (`.` for a bare name).
  public static func directoryName(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// The last component of `path`.
  public static func fileName(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
  }

  /// Whether something other than a regular file is at `path` (a final
  /// symbolic link not followed): a directory, link, device or FIFO, which
  /// an output is never written over.
  public static func holdsNonRegularFile(_ path: String) -> Bool {
    guard let status = try? statusIfPresent(path, followingLinks: false) else { return false }
    return status.kind != .regular
  }

  /// Whether `path` (which need not exist) lies in the directory
  /// `directory` or below it, however either is spelled: a directory on
  /// the path is compared with `directory` by device and inode, climbing
  /// through `..` (links followed), so `store/./x`, `link-to-store/x` and
  /// `store/sub/../x` all lie in `store`. False when `directory` is gone.
  public static func isWithin(_ path: String, directory: String) -> Bool {
    guard let target = try? status(directory) else { return false }
    var current = directoryName(of: path)
    for _ in 0..<256 {
      guard let here = try? status(current) else { return false }
      if here.device == target.device && here.inode == target.inode { return true }
      guard let parent = try? status(current + "/..") else { return false }
      if parent.device == here.device && parent.inode == here.inode { return false }  // the root
      current += "/.."
    }
    return false
  }

  /// Whether the calling process may write into the directory `path`.
  public static func isWritableDirectory(_ path: String) -> Bool {
    access(path, W_OK) == 0
  }
}
