import CallDirectoryFormat
import CalldirSystem

/// The blob that empties an extension the manifest no longer has: a full
/// snapshot of the manifest's version without entries. Loading it through
/// the provider removes every entry, as an app does on iOS (it cannot
/// remove an extension).
enum EmptySnapshot {
  /// Writes the empty snapshot of `version` at `path` atomically (another
  /// sync writing the same one at once writes the same bytes), naming
  /// `dataset` when a blob header can hold it, and locks it against
  /// removal while the sync needs it.
  ///
  /// - Throws: ``SyncError/storage(_:)``.
  static func stage(version: Int, dataset: String, at path: String) throws(SyncError) -> _StagingPin {
    for _ in 0..<4 {
      try write(version: version, dataset: dataset, to: path)
      do {
        if case .locked(let descriptor, let status) = try _StagedFileLock.open(
          path, exclusive: false, wait: true, create: false)
        {
          return _StagingPin(descriptor: descriptor, path: path, status: status)
        }
      } catch {
        throw .storage(error)
      }
      // Removed by another sync's cleanup before it was locked: again.
    }
    throw .storage(FileError(operation: "lock", path: path, errno: .wouldBlock, detail: "it keeps being removed"))
  }

  /// Writes the empty snapshot of `version` at `path` atomically.
  ///
  /// - Throws: ``SyncError/storage(_:)``.
  static func write(version: Int, dataset: String, to path: String) throws(SyncError) {
    let name = dataset.utf8.count <= BlobLimits.maxDatasetBytes && !dataset.utf8.contains(0) ? dataset : ""
    do {
      let writer = try FullSnapshotWriter(path: path, version: UInt64(version), labels: [], dataset: name)
      _ = try writer.finish()
    } catch {
      if case .io(let failure) = error { throw .storage(failure) }
      throw .storage(FileError(operation: "write", path: path, errno: .ioError, detail: error.description))
    }
  }
}
