/// What the iterators of one ``BlobReader`` have decoded, for tests that
/// bound the work of a walk over a blob (a run of 10^9 numbers must not be
/// expanded into 10^9 numbers).
///
/// Updated by whichever thread uses an iterator; a reader's sequential
/// iterators are used by one thread at a time, each stretch iterator
/// (which may run on another thread) counts into a part of its own, and
/// the counts are read after the work.
final class _DecodeStatistics {
  /// Entries written one by one into the buffers of the iterators that
  /// count here (runs returned as ranges are not counted).
  var counted: UInt64 = 0
  /// The parts of the reader's stretch iterators.
  private var parts: [_DecodeStatistics] = []

  /// Entries written one by one into any iterator's buffers, parts included.
  var materializedEntries: UInt64 {
    parts.reduce(counted) { $0 &+ $1.materializedEntries }
  }

  /// A new part, counted in ``materializedEntries``, for one stretch iterator.
  func part() -> _DecodeStatistics {
    let part = _DecodeStatistics()
    parts.append(part)
    return part
  }
}

@available(*, unavailable)
extension _DecodeStatistics: Sendable {}
