import CalldirSystem

extension ProviderLayout {
  /// For the app: makes the blob at `path` the only one in
  /// ``dataDirectory``, durably.
  ///
  /// The blob is copied in under a temporary dot name, synced and renamed
  /// (``AtomicFile``); then every other file is removed and the directory
  /// synced. At every point the directory holds the old blobs, the new one,
  /// or both, never part of a file. Only files are removed (a symbolic
  /// link itself, never what it points to), never a directory or what is
  /// in it. The caller serializes updates (on the simulated device, under
  /// the extension's reservation).
  ///
  /// - Parameters:
  ///   - path: The blob.
  ///   - name: Its file name in the data directory (default: the source's).
  /// - Returns: The placed blob's path.
  /// - Throws: ``CallDirectoryProviderError/dataWriteFailed(path:reason:)``.
  @discardableResult
  public func replaceData(withBlobAt path: String, named name: String? = nil) throws(CallDirectoryProviderError)
    -> String
  {
    let fileName = name ?? FileSystem.fileName(of: path)
    let destination = dataDirectory + "/" + fileName
    do {
      try FileSystem.createDirectory(dataDirectory)
      try AtomicFile.copy(contentsOf: path, to: destination)
      for other in try FileSystem.contentsOfDirectory(dataDirectory) where other != fileName {
        let path = dataDirectory + "/" + other
        if try FileSystem.statusIfPresent(path, followingLinks: false)?.kind != .directory {
          try FileSystem.removeFile(path)
        }
      }
      try FileSystem.syncDirectory(containing: destination)
    } catch {
      throw .dataWriteFailed(path: dataDirectory, reason: error.description)
    }
    return destination
  }
}
