/// What the iterators of one ``BlobReader`` have decoded, for tests that
/// bound the work of a walk over a blob (a run of 10^9 numbers must not be
/// expanded into 10^9 numbers).
///
/// Updated by whichever thread uses an iterator; a reader's iterators are
/// used by one thread at a time, and the counts are read after the work.
final class _DecodeStatistics {
  /// Entries written one by one into iterator buffers (runs returned as
  /// ranges are not counted).
  var materializedEntries: UInt64 = 0
}

@available(*, unavailable)
extension _DecodeStatistics: Sendable {}
