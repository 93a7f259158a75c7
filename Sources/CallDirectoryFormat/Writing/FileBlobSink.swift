import CalldirSystem

/// Writes a blob atomically, through an ``AtomicFile``: a temporary file in
/// the destination's directory, buffered writes, `fsync`, `rename` over the
/// destination and `fsync` of the directory. Readers see either the old
/// file or the complete new one; a failure, an ``abandon()`` or a sink
/// dropped before ``commit()`` leaves no temporary file behind. It refuses
/// to replace anything that is not a regular file (a directory, a FIFO, a
/// device, a symbolic link).
public final class FileBlobSink: BlobSink {
  /// The final path.
  public let path: String
  private var file: AtomicFile?
  private let deferredSyncs: FileSystem.DeferredSyncs?

  /// Creates the temporary file next to `path`. With `deferredSyncs`, the
  /// file's sync and its directory's after the rename are left to it (see
  /// ``FileSystem/DeferredSyncs``): the blob has lasted once it has synced.
  /// - Throws: `BlobError.io` if it cannot be created, or if `path` exists
  ///   and is not a regular file.
  public init(path: String, deferringSyncsTo deferredSyncs: FileSystem.DeferredSyncs? = nil) throws(BlobError) {
    self.path = path
    self.deferredSyncs = deferredSyncs
    do {
      file = try AtomicFile(destination: path)
    } catch {
      throw .io(error)
    }
  }

  deinit {
    abandon()
  }

  /// Appends bytes (buffered; large writes go straight to the file).
  public func write(_ bytes: UnsafeRawBufferPointer) throws(BlobError) {
    let file = try _openFile()
    do {
      try file.writer.write(bytes)
    } catch {
      throw .io(error)
    }
  }

  /// Flushes the buffer, then writes `bytes` at `offset` with `pwrite`.
  public func overwrite(at offset: UInt64, with bytes: UnsafeRawBufferPointer) throws(BlobError) {
    let file = try _openFile()
    guard offset <= UInt64(Int64.max) else { throw BlobError.misuse("overwrite at offset \(offset)") }
    do {
      try file.writer.overwrite(at: Int64(offset), with: bytes)
    } catch {
      throw .io(error)
    }
  }

  /// Flushes, `fsync`s, renames the temporary file over ``path`` and
  /// `fsync`s the directory (or leaves both syncs to the deferred syncs).
  /// On failure the temporary file is removed and the destination is
  /// untouched.
  public func commit() throws(BlobError) {
    let file = try _openFile()
    self.file = nil
    do {
      try file.commit(deferringSyncsTo: deferredSyncs)
    } catch {
      file.discard()
      throw .io(error)
    }
  }

  /// Closes and removes the temporary file; the destination is untouched.
  public func abandon() {
    file?.discard()
    file = nil
  }

  private func _openFile() throws(BlobError) -> AtomicFile {
    guard let file else { throw BlobError.misuse("the sink for '\(path)' is already closed") }
    return file
  }
}

@available(*, unavailable)
extension FileBlobSink: Sendable {}
