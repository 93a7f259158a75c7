import CallDirectoryFormat

/// The head of an ascending number stream taken a piece at a time: the
/// rest of the current run, or the current single entry of a buffer.
///
/// ``consume(through:)`` drops everything up to a number, so a run is
/// passed over in O(1) and the merge of two streams costs O(pieces).
struct MergeCursor {
  /// The smallest number left, the largest number of the same piece that
  /// follows it without a gap (the run's end, or the entry itself), and
  /// their label id.
  struct Head {
    var low: Int64
    var high: Int64
    var label: UInt32
  }

  private let source: any NumberPieceSource
  private var inRun = false
  private var runLow: Int64 = 0
  private var runHigh: Int64 = 0
  private var runLabel: UInt32 = 0
  private var numbers: UnsafePointer<Int64>?
  private var labels: UnsafePointer<UInt32>?
  private var position = 0
  private var count = 0
  /// Whether the stream has nothing left.
  private(set) var isAtEnd = false

  /// Reads the first piece of `source`.
  init(_ source: any NumberPieceSource) throws(BlobError) {
    self.source = source
    try load()
  }

  /// The stream's head; only when not ``isAtEnd``.
  var head: Head {
    if inRun { return Head(low: runLow, high: runHigh, label: runLabel) }
    let number = numbers.map { $0[position] } ?? 0
    return Head(low: number, high: number, label: labels.map { $0[position] } ?? 0)
  }

  /// Drops every number up to `number`, reading the next piece when the
  /// current one is used up.
  mutating func consume(through number: Int64) throws(BlobError) {
    if inRun {
      if number < runHigh {
        runLow = max(runLow, number + 1)
        return
      }
      inRun = false
    } else if let numbers {
      while position < count && numbers[position] <= number { position += 1 }
      if position < count { return }
      self.numbers = nil
    }
    try load()
  }

  /// With both heads in unlabelled buffers, drops the longest common
  /// prefix of the two buffers (four numbers at a time); returns whether
  /// it dropped any.
  mutating func skipEqualPrefix(with other: inout MergeCursor) throws(BlobError) -> Bool {
    guard !inRun, !other.inRun, labels == nil, other.labels == nil, let mine = numbers, let theirs = other.numbers
    else { return false }
    let available = min(count - position, other.count - other.position)
    let a = mine + position
    let b = theirs + other.position
    var skipped = 0
    while skipped + 4 <= available {
      let left = UnsafeRawPointer(a + skipped).loadUnaligned(as: SIMD4<Int64>.self)
      let right = UnsafeRawPointer(b + skipped).loadUnaligned(as: SIMD4<Int64>.self)
      guard all(left .== right) else { break }
      skipped += 4
    }
    while skipped < available && a[skipped] == b[skipped] { skipped += 1 }
    guard skipped > 0 else { return false }
    let last = a[skipped - 1]
    try consume(through: last)
    try other.consume(through: last)
    return true
  }

  private mutating func load() throws(BlobError) {
    while !isAtEnd && !inRun && numbers == nil {
      switch try source.nextPiece() {
      case .run(let range, let label)?:
        inRun = true
        runLow = range.lowerBound
        runHigh = range.upperBound
        runLabel = label
      case .values(let values, let ids)? where !values.isEmpty:
        numbers = values.baseAddress.map { UnsafePointer($0) }
        labels = ids?.baseAddress.map { UnsafePointer($0) }
        position = 0
        count = values.count
      case .values?:
        continue
      case nil:
        isAtEnd = true
      }
    }
  }
}

/// Merges two ascending streams a piece at a time and reports, as ranges
/// in ascending order, what only one of them holds and what both hold
/// with different labels.
enum RangeMerge {
  /// - Parameters:
  ///   - sameLabel: Whether a label id of the first stream and one of the
  ///     second name the same label (always true for blocking).
  ///   - onlyInFirst: Numbers only the first stream holds, with their
  ///     label ids in it.
  ///   - onlyInSecond: Numbers only the second stream holds, with their
  ///     label ids in it.
  ///   - relabeled: Numbers both hold with different labels, with the
  ///     second stream's label id.
  /// - Complexity: O(pieces of both streams): a run is one step.
  static func merge(
    _ first: inout MergeCursor, _ second: inout MergeCursor,
    sameLabel: (UInt32, UInt32) -> Bool,
    onlyInFirst: (ClosedRange<Int64>, UInt32) throws(BlobError) -> Void,
    onlyInSecond: (ClosedRange<Int64>, UInt32) throws(BlobError) -> Void,
    relabeled: (ClosedRange<Int64>, UInt32) throws(BlobError) -> Void
  ) throws(BlobError) {
    while !first.isAtEnd && !second.isAtEnd {
      if try first.skipEqualPrefix(with: &second) { continue }
      let x = first.head
      let y = second.head
      if x.high < y.low {
        try onlyInFirst(x.low...x.high, x.label)
        try first.consume(through: x.high)
      } else if y.high < x.low {
        try onlyInSecond(y.low...y.high, y.label)
        try second.consume(through: y.high)
      } else {
        if x.low < y.low {
          try onlyInFirst(x.low...(y.low - 1), x.label)
        } else if y.low < x.low {
          try onlyInSecond(y.low...(x.low - 1), y.label)
        }
        let through = min(x.high, y.high)
        if !sameLabel(x.label, y.label) { try relabeled(max(x.low, y.low)...through, y.label) }
        try first.consume(through: through)
        try second.consume(through: through)
      }
    }
    while !first.isAtEnd {
      let x = first.head
      try onlyInFirst(x.low...x.high, x.label)
      try first.consume(through: x.high)
    }
    while !second.isAtEnd {
      let y = second.head
      try onlyInSecond(y.low...y.high, y.label)
      try second.consume(through: y.high)
    }
  }
}
