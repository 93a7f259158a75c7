import CalldirSystem

/// What the loader reads from the data directory.
enum _DataDirectory {
  /// The paths of the regular files directly inside `directory` whose
  /// names do not start with `.`, sorted by name; empty when the directory
  /// does not exist.
  ///
  /// - Throws: ``FileError`` when it exists but cannot be listed.
  static func blobPaths(in directory: String) throws(FileError) -> [String] {
    let names: [String]
    do {
      names = try FileSystem.contentsOfDirectory(directory)
    } catch where error.errno == .noSuchFileOrDirectory {
      return []
    }
    let prefix = directory.hasSuffix("/") ? directory : directory + "/"
    return names.filter { !$0.hasPrefix(".") }.map { prefix + $0 }.filter {
      (try? FileSystem.status($0))?.isRegularFile == true
    }
  }
}
