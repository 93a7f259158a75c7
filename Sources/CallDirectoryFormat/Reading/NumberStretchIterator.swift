/// Streams the numbers of one stretch of a number section, `lowerBound < n
/// <= upperBound`, decoding only the frames that may hold them (see
/// ``BlobReader/numbers(_:above:through:)``).
///
/// Stretches are how a section is read on several cores: each iterator
/// reads the blob on its own (with `pread`, no shared position), so
/// iterators of one reader may run on different threads at the same time.
/// One iterator is used by one thread at a time; it may be created on one
/// thread and used on another.
///
/// Every frame it reads is checked completely, as by a sequential read
/// (its header against the frame index, its CRC before any of its numbers,
/// every block, its count, its last number against the next frame's
/// base), numbers outside the stretch included; stretches that cover the
/// number line between them check every frame of the section. The
/// section's count and checksum were checked when the frame index was
/// read.
public final class NumberStretchIterator: @unchecked Sendable {
  private let cursor: _StretchCursor
  private let buffer: UnsafeMutablePointer<Int64>

  /// The most numbers a ``NumberChunk/numbers(_:)`` chunk holds.
  public static let chunkCapacity = 4 * BlobLimits.maxBlockEntries

  init(cursor: _StretchCursor) {
    self.cursor = cursor
    buffer = .allocate(capacity: NumberStretchIterator.chunkCapacity)
  }

  deinit {
    buffer.deallocate()
  }

  /// The next piece of the stretch: a run (clipped to the stretch) as a
  /// range, or the stretch's numbers of whole blocks (up to
  /// ``chunkCapacity``); `nil` after the last one.
  /// - Returns: A chunk whose buffer stays valid until the next call on
  ///   this iterator.
  /// - Throws: `BlobError` on corrupt or truncated data; the first error
  ///   is thrown again by every later call.
  /// - Complexity: O(1) for a run, whatever its length.
  public func nextChunk() throws(BlobError) -> NumberChunk? {
    switch try cursor.nextChunk(numbers: buffer, capacity: NumberStretchIterator.chunkCapacity) {
    case .run(let first, let last):
      return .run(Int64(bitPattern: first)...Int64(bitPattern: last))
    case .values(let count):
      return .numbers(UnsafeBufferPointer(start: buffer, count: count))
    case .end:
      return nil
    }
  }
}
