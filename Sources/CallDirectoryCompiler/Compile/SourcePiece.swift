import CallDirectorySources
import CalldirSystem
import PhoneNumbers

/// What a worker made of one piece of a source, whichever way it was read:
/// lines of a line-by-line source parsed and normalized on the worker
/// (``LineChunkJob``), or a reader's events normalized there
/// (``RecordBatch``). Every record, range and issue in it was judged by the
/// source's ``RecordAcceptance/Policy``; ``SourceFold`` folds it as it is.
///
/// Line numbers count on from the physical lines of the pieces folded
/// before it (``SourceSummary/physicalLines``); a reader's batches carry
/// none, their line numbers are the file's.
struct PieceYield {
  /// A rejected data line: its number, why, its text as the rejects report
  /// shows it, and the numbers it held (``RecordAcceptance/Verdict``).
  struct Reject {
    var line: Int
    var reason: String
    var text: String
    var numbers: Int
  }

  /// An accepted record kept in file order, one by one, for a piece that
  /// is not taken in one copy.
  enum Entry {
    /// A blocking or allow number.
    case number(Int64)
    /// An identification entry, or a report a source with evidence rules
    /// holds until it is weighed.
    case report(Int64, label: String?, line: Int, day: CalendarDay?)
    /// A range of more than one number, or one held for no label.
    case range(ClosedRange<Int64>)
  }

  /// Accepted numbers taken in one copy, in file order, with their summary
  /// when the worker made one (``SourceOrder/summarize(_:count:)``: then
  /// less `repeats` adjacent repeats, and laid out by length when
  /// `laidOutByLength`). Valid until the piece is reset.
  var numbers = UnsafeBufferPointer<Int64>(start: nil, count: 0)
  var order: SourceOrder?
  var laidOutByLength = false
  var repeats = 0
  /// Accepted ranges taken in one copy, in file order.
  var ranges: [ClosedRange<Int64>] = []
  /// Accepted records taken one by one, in file order.
  var entries: [Entry] = []
  /// Rejected data lines, in file order.
  var rejects: [Reject] = []
  /// Accepted data lines, and the numbers they hold (ranges in full),
  /// saturating.
  var acceptedLines = 0
  var acceptedNumbers = 0
  /// Numbers left out for not being of the source's `types`.
  var dropped = 0
  /// The wrong-region guard's counts.
  var national = NationalTally()
  /// What the reader saw of the piece (a reader's batch: nothing, the
  /// reader reports its summary at the end).
  var summary = SourceSummary()
  /// The checksum and size of a stretch the worker read from its file.
  var stretchContents: _FileStretch.Contents?
  /// Why the piece could not be read.
  var readError: SourceError?

  /// Counts `count` accepted lines of one number each.
  mutating func accept(numbers count: Int) {
    acceptedLines += count
    acceptedNumbers = acceptedNumbers.addingSaturating(count)
  }

  /// Counts an accepted range.
  mutating func accept(range: ClosedRange<Int64>) {
    let size = range.upperBound - range.lowerBound
    acceptedLines += 1
    acceptedNumbers = acceptedNumbers.addingSaturating(size >= Int64(Int.max) ? Int.max : Int(size) + 1)
  }

  /// Empties the yield, keeping its arrays' room.
  mutating func reset() {
    numbers = UnsafeBufferPointer(start: nil, count: 0)
    order = nil
    laidOutByLength = false
    repeats = 0
    ranges.removeAll(keepingCapacity: true)
    entries.removeAll(keepingCapacity: true)
    rejects.removeAll(keepingCapacity: true)
    acceptedLines = 0
    acceptedNumbers = 0
    dropped = 0
    national = NationalTally()
    summary = SourceSummary()
    stretchContents = nil
    readError = nil
  }
}

/// A reusable job of a source's ``OrderedPipeline``: filled by the reading
/// thread, worked on a worker, folded (``SourceFold``) and reset.
protocol SourcePiece: AnyObject, Sendable {
  /// What the piece gave once worked.
  var yield: PieceYield { get }
  /// Makes the piece ready to be filled again.
  func reset()
}
