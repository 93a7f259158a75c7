import CalldirSystem

/// Ascending, disjoint, non-adjacent ranges of one source (the ranges and
/// patterns it listed, sorted and joined where they overlap or touch), kept
/// in memory or spilled to a temporary file.
///
/// A spilled range run is a ``SortedRun`` file of its ends, in order
/// (`lower₁, upper₁, lower₂, upper₂, …`, LEB128 gaps from 0): the ends
/// never fall, so the gaps are never negative (a range of one number has
/// a gap of 0 between its ends).
enum RangeRun: Sendable {
  case memory([ClosedRange<Int64>])
  case file(path: String, count: Int)

  /// How many ranges the run holds.
  var count: Int {
    switch self {
    case .memory(let ranges): ranges.count
    case .file(_, let count): count
    }
  }

  /// Sorts `ranges` (any order, overlaps allowed) by their lower ends and
  /// joins those that overlap or touch, in place.
  static func sortAndJoin(_ ranges: inout [ClosedRange<Int64>]) {
    guard ranges.count > 1 else { return }
    ranges.sort { $0.lowerBound < $1.lowerBound }
    var kept = 0
    for index in 1..<ranges.count {
      let range = ranges[index]
      let last = ranges[kept]
      if range.lowerBound <= last.upperBound || range.lowerBound - 1 == last.upperBound {
        if range.upperBound > last.upperBound { ranges[kept] = last.lowerBound...range.upperBound }
      } else {
        kept += 1
        ranges[kept] = range
      }
    }
    ranges.removeLast(ranges.count - kept - 1)
  }

  /// Writes ascending, disjoint, non-adjacent `ranges` to a new file at `path`.
  static func spill(_ ranges: [ClosedRange<Int64>], to path: String) throws(CompileError) -> RangeRun {
    let writer = try SortedRunWriter(path: path)
    for range in ranges {
      try writer.append(range.lowerBound)
      try writer.append(range.upperBound)
    }
    _ = try writer.finish()
    return .file(path: path, count: ranges.count)
  }

  /// Joins `runs` into one run file at `path` and removes their files.
  static func merge(_ runs: [RangeRun], to path: String) throws(CompileError) -> RangeRun {
    let merged = try MergedRangeRuns(runs)
    let writer = try SortedRunWriter(path: path)
    var count = 0
    while let range = try merged.next() {
      try writer.append(range.lowerBound)
      try writer.append(range.upperBound)
      count += 1
    }
    _ = try writer.finish()
    for input in runs { input.remove() }
    return .file(path: path, count: count)
  }

  /// Removes the run's file, if it has one.
  func remove() {
    if case .file(let path, _) = self { try? FileSystem.removeFile(path) }
  }
}

/// Reads a ``RangeRun`` front to back with a bounded buffer, a batch of
/// ranges at a time.
final class RangeRunCursor {
  /// The range at the front, nil when the run is exhausted.
  private(set) var current: ClosedRange<Int64>?
  /// The ranges in memory, or the batch decoded last from the file.
  private var ranges: [ClosedRange<Int64>]
  private var index = 0
  private let ends: SortedRunCursor?
  private let path: String
  private var batch: [Int64] = []

  /// Ranges decoded from a file at a time.
  private static let batchSize = 4096

  /// Opens `run`, reading a file `bufferBytes` at a time.
  init(_ run: RangeRun, bufferBytes: Int) throws(CompileError) {
    switch run {
    case .memory(let values):
      ranges = values
      ends = nil
      path = ""
    case .file(let path, let count):
      ranges = []
      self.path = path
      ends = try SortedRunCursor(.file(path: path, count: 2 * count), bufferBytes: bufferBytes)
    }
    try advance()
  }

  /// Moves to the next range.
  func advance() throws(CompileError) {
    if index < ranges.count {
      current = ranges[index]
      index += 1
      return
    }
    guard let ends else {
      current = nil
      return
    }
    batch.removeAll(keepingCapacity: true)
    try ends.take(2 * Self.batchSize, into: &batch)
    guard batch.count % 2 == 0 else { throw damaged() }
    ranges.removeAll(keepingCapacity: true)
    var position = 0
    while position < batch.count {
      guard batch[position + 1] >= batch[position] else { throw damaged() }
      ranges.append(batch[position]...batch[position + 1])
      position += 2
    }
    index = 0
    guard !ranges.isEmpty else {
      current = nil
      return
    }
    current = ranges[0]
    index = 1
  }

  private func damaged() -> CompileError {
    .spill(FileError(operation: "read", path: path, errno: .ioError, detail: "damaged temporary range run"))
  }
}

/// The union of several ``RangeRun``s as ascending, disjoint, non-adjacent
/// ranges: ranges of different runs that overlap or touch are joined.
final class MergedRangeRuns {
  private var cursors: [RangeRunCursor] = []
  /// Each cursor's front range, kept beside it: the search for the next
  /// range reads values, not the cursors.
  private var heads: [ClosedRange<Int64>] = []

  /// Opens every run with an equal share of `bufferBytes`.
  init(_ runs: [RangeRun], bufferBytes: Int = 1 << 20) throws(CompileError) {
    let share = max(64 << 10, bufferBytes / max(1, runs.count))
    for run in runs {
      let cursor = try RangeRunCursor(run, bufferBytes: share)
      if let head = cursor.current {
        cursors.append(cursor)
        heads.append(head)
      }
    }
  }

  /// The next joined range in ascending order, nil at the end.
  func next() throws(CompileError) -> ClosedRange<Int64>? {
    guard heads.count > 1 else {
      // One run: its ranges are joined already.
      guard let range = heads.first else { return nil }
      try advance(0)
      return range
    }
    var lower = heads[0].lowerBound
    for head in heads where head.lowerBound < lower { lower = head.lowerBound }
    var upper = lower
    // Take every front range that starts at or before one past the
    // union so far, until none does.
    var grew = true
    while grew {
      grew = false
      var index = 0
      while index < heads.count {
        let range = heads[index]
        guard range.lowerBound <= upper || range.lowerBound - 1 == upper else {
          index += 1
          continue
        }
        if range.upperBound > upper { upper = range.upperBound }
        grew = true
        if try advance(index) { index += 1 }
      }
    }
    return lower...upper
  }

  /// Moves cursor `index` on; false when it ended and was removed (the
  /// next cursor takes its index).
  @discardableResult
  private func advance(_ index: Int) throws(CompileError) -> Bool {
    let cursor = cursors[index]
    try cursor.advance()
    if let head = cursor.current {
      heads[index] = head
      return true
    }
    cursors.remove(at: index)
    heads.remove(at: index)
    return false
  }
}
