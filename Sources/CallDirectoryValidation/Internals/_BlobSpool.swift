import CallDirectoryFormat
import CalldirSystem

/// Reads the rest of a blob that arrived on a pipe, a FIFO or a terminal
/// into memory, so it can be read at random offsets: the input is read
/// once and never reopened (reopening a FIFO would wait for a writer that
/// is gone).
enum _BlobSpool {
  /// The blob made of the bytes `input` holds from its window's start to
  /// its end.
  /// - Parameter limit: The most bytes kept; more is refused.
  /// - Throws: ``ValidationError/blobTooLargeToSpool(name:limit:)`` past
  ///   `limit`, ``ValidationError/cannotRead(_:)`` when reading fails,
  ///   ``ValidationError/invalidBlob(path:_:)`` for a bad header.
  static func reader(draining input: ChunkedInput, limit: Int) throws(ValidationError) -> BlobReader {
    var bytes: [UInt8] = []
    while true {
      guard input.end <= limit - bytes.count else {
        throw .blobTooLargeToSpool(name: input.name, limit: limit)
      }
      bytes.append(contentsOf: UnsafeBufferPointer(start: input.base, count: input.end))
      if input.isEOF { break }
      do {
        try input.refill(keepingFrom: input.end)
      } catch {
        throw .cannotRead(error)
      }
    }
    do {
      return try BlobReader(bytes: bytes)
    } catch {
      throw ValidationError(error, path: input.name)
    }
  }
}
