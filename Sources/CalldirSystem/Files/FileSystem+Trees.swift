extension FileSystem {
  /// Removes `path` and, for a directory, everything in it; a missing path
  /// is fine. Symbolic links are removed, never followed.
  public static func removeTree(_ path: String) throws(FileError) {
    guard let status = try statusIfPresent(path, followingLinks: false) else { return }
    guard status.kind == .directory else {
      try removeFile(path)
      return
    }
    for name in try contentsOfDirectory(path) {
      try removeTree(path + "/" + name)
    }
    try removeDirectory(path)
  }
}
