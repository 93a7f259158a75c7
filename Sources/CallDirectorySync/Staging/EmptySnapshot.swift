import CallDirectoryFormat
import CalldirSystem

/// The blob that empties an extension the manifest no longer has: a full
/// snapshot of the manifest's version without entries. Loading it through
/// the provider removes every entry, as an app does on iOS (it cannot
/// remove an extension).
enum EmptySnapshot {
  /// Writes the empty snapshot of `version` at `path` atomically, naming
  /// `dataset` when a blob header can hold it.
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
