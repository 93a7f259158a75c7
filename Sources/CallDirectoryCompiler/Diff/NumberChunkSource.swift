import CallDirectoryFormat

/// An ascending stream of numbers read a chunk at a time: a run as a
/// range, or a buffer of numbers valid until the next call.
protocol NumberChunkSource: AnyObject {
  /// The next chunk, or `nil` after the last one.
  func nextChunk() throws(BlobError) -> NumberChunk?
}

/// A whole number section, read sequentially.
extension NumberIterator: NumberChunkSource {}

/// A stretch of a number section, which may be read on another thread.
extension NumberStretchIterator: NumberChunkSource {}
