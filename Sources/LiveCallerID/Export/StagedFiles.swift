import CalldirSystem
import Sodium

/// The files of one export, written whole under temporary names
/// (``AtomicFile``, `.NAME.tmp-PID-N` beside each) and synced together;
/// ``commit()`` renames them all, in the order they were staged, and syncs
/// their directories. Files not committed are removed.
final class StagedFiles {
  let root: String
  /// Every file opened, by its temporary and final paths (the files
  /// themselves, and their write buffers, go once kept: an export stages
  /// thousands).
  private var files: [(temporary: String, destination: String)] = []
  private let syncs = FileSystem.DeferredSyncs()
  private var committed = false

  init(root: String) { self.root = root }

  /// A new file for `relative` (a path under the root), to write and then
  /// ``keep(_:)``.
  func open(_ relative: String) throws(LiveCallerIDExportError) -> AtomicFile {
    do {
      let file = try AtomicFile(destination: root + "/" + relative)
      files.append((file.temporaryPath, file.destination))
      return file
    } catch {
      throw .file(error)
    }
  }

  /// Leaves `file` written under its temporary name, its sync deferred.
  func keep(_ file: AtomicFile) throws(LiveCallerIDExportError) {
    do {
      try file.keep(deferringSyncTo: syncs)
    } catch {
      throw .file(error)
    }
  }

  /// Writes `bytes` as `relative`; returns what the export lists of it.
  func stage(_ relative: String, bytes: [UInt8]) throws(LiveCallerIDExportError) -> LiveCallerIDExport.File {
    let file = try open(relative)
    do {
      try file.writer.write(bytes)
    } catch {
      throw .file(error)
    }
    try keep(file)
    return LiveCallerIDExport.File(
      path: relative, bytes: bytes.count, sha256: LiveCallerIDExporter.hex(SodiumSHA256.hash(bytes)))
  }

  /// Syncs every file, then renames each to its name, in order, and syncs
  /// their directories.
  func commit() throws(LiveCallerIDExportError) {
    do {
      try syncs.syncAll()
      for file in files {
        try FileSystem.durableRename(file.temporary, to: file.destination, deferringSyncTo: syncs)
      }
      committed = true
      try syncs.syncAll()
    } catch {
      throw .file(error)
    }
  }

  /// Removes every temporary file of an export that did not commit.
  func discardUncommitted() {
    guard !committed else { return }
    for file in files { try? FileSystem.removeFile(file.temporary) }
    files = []
  }
}
