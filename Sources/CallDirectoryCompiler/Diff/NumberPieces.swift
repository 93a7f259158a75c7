import CallDirectoryFormat

/// A piece of an ascending stream of numbers (with label ids, for an
/// identification section): a run, or a buffer of single entries.
enum NumberPiece {
  /// Every number of the range, each with `label` (0 for blocking).
  case run(ClosedRange<Int64>, label: UInt32)
  /// Ascending numbers and, for identification, their label ids; valid
  /// until the next call on the source.
  case values(numbers: UnsafeBufferPointer<Int64>, labels: UnsafeBufferPointer<UInt32>?)
}

/// Where a ``MergeCursor`` takes its pieces from: a blob section read run
/// by run (``NumberIterator/nextChunk()``), so a 10^9-number run is one
/// piece.
protocol NumberPieceSource: AnyObject {
  /// The next piece, or `nil` after the last one.
  func nextPiece() throws(BlobError) -> NumberPiece?
}

/// The pieces of an identification section.
final class IdentificationIteratorPieces: NumberPieceSource {
  private let iterator: IdentificationIterator

  init(_ iterator: IdentificationIterator) {
    self.iterator = iterator
  }

  func nextPiece() throws(BlobError) -> NumberPiece? {
    switch try iterator.nextChunk() {
    case .run(let range, let label)?: .run(range, label: label)
    case .entries(let numbers, let labels)?: .values(numbers: numbers, labels: labels)
    case nil: nil
    }
  }
}
