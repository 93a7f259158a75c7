import CallDirectoryFormat
import CalldirSystem

/// Copies the rest of a blob that arrived on a pipe, a FIFO or a terminal
/// into a temporary file, so it can be read at random offsets in bounded
/// memory: the input is read once and never reopened (reopening a FIFO
/// would wait for a writer that is gone).
///
/// The file is made in ``ValidationOptions/spoolDirectory`` (`$TMPDIR`, else
/// `/tmp`) with a fresh name, readable by its owner only, and removed from
/// the directory as soon as it is open: nothing is left behind, whatever
/// ends the process; its space goes back when the reader closes it.
enum _BlobSpool {
  /// A reader of the blob made of the bytes `input` holds from its
  /// window's start to its end.
  /// - Parameters:
  ///   - limit: The most bytes copied; more is refused.
  ///   - directory: Where the temporary file is made.
  /// - Throws: ``ValidationError/blobTooLargeToSpool(name:limit:)`` past
  ///   `limit`, ``ValidationError/cannotRead(_:)`` when reading fails,
  ///   ``ValidationError/cannotSpool(_:)`` when the temporary file cannot
  ///   be made or written, ``ValidationError/invalidBlob(path:_:)`` for a
  ///   bad header.
  static func reader(draining input: ChunkedInput, limit: Int, directory: String) throws(ValidationError) -> BlobReader {
    let file = try temporaryFile(in: directory)
    var copied = 0
    do throws(ValidationError) {
      while true {
        guard input.end <= limit - copied else {
          throw .blobTooLargeToSpool(name: input.name, limit: limit)
        }
        do {
          try file.descriptor.writeAll(UnsafeRawBufferPointer(start: input.base, count: input.end))
        } catch {
          throw .cannotSpool(FileError(operation: "write", path: file.path, errno: error))
        }
        copied += input.end
        if input.isEOF { break }
        do {
          try input.refill(keepingFrom: input.end)
        } catch {
          throw .cannotRead(error)
        }
      }
    } catch {
      try? file.descriptor.close()
      throw error
    }
    do {
      return try BlobReader(owning: file.descriptor, path: input.name)
    } catch {
      throw ValidationError(error, path: input.name)
    }
  }

  /// A new file in `directory`, open for reading and writing, already
  /// unlinked.
  private static func temporaryFile(in directory: String) throws(ValidationError) -> (descriptor: FileDescriptor, path: String) {
    var attempt = 0
    while true {
      attempt += 1
      let path = "\(directory)/.calldir-validate-\(CurrentProcess.id)-\(attempt).spool"
      let descriptor: FileDescriptor
      do {
        descriptor = try FileDescriptor.open(
          path, .readWrite, options: [.exclusiveCreate, .noFollow], permissions: 0o600)
      } catch {
        // A name left by another process of the same id: try the next.
        if error.errno == .fileExists && attempt < 100 { continue }
        throw .cannotSpool(error)
      }
      do {
        try FileSystem.removeFile(path)
      } catch {
        try? descriptor.close()
        throw .cannotSpool(error)
      }
      return (descriptor, path)
    }
  }
}
