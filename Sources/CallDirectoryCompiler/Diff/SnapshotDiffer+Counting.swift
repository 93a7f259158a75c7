import CallDirectoryFormat

extension SnapshotDiffer {
  /// How many numbers each list of one full snapshot has that the other's lacks.
  public struct ChangeCounts: Sendable, Hashable {
    public var blockingAdded = 0
    public var blockingRemoved = 0
    /// Identification numbers added or removed; a relabelled number is neither.
    public var identificationAdded = 0
    public var identificationRemoved = 0
  }

  /// Counts the numbers added to and removed from each list from `old` to
  /// `new` (both full snapshots), without writing anything.
  /// - Throws: `BlobError` when a blob is corrupt or not a full snapshot.
  /// - Complexity: O(runs and single entries of both blobs): two
  ///   snapshots that each hold a 10^9-number range count in milliseconds.
  public static func countChanges(from old: BlobReader, to new: BlobReader) throws(BlobError) -> ChangeCounts {
    guard old.header.kind == .full else { throw BlobError.wrongKind(expected: .full, actual: old.header.kind) }
    guard new.header.kind == .full else { throw BlobError.wrongKind(expected: .full, actual: new.header.kind) }
    var counts = ChangeCounts()
    try BlockingMerge.merge(
      old, new,
      onlyInOld: { range in counts.blockingRemoved += Int(range.count) },
      onlyInNew: { range in counts.blockingAdded += Int(range.count) })
    var first = try MergeCursor(IdentificationIteratorPieces(try old.identification()))
    var second = try MergeCursor(IdentificationIteratorPieces(try new.identification()))
    try RangeMerge.merge(
      &first, &second, sameLabel: { _, _ in true },
      onlyInFirst: { range, _ in counts.identificationRemoved += Int(range.count) },
      onlyInSecond: { range, _ in counts.identificationAdded += Int(range.count) },
      relabeled: { _, _ in })
    return counts
  }
}
