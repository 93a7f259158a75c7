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
/// ranges at a time (a value, so that a merge moves it on in place).
struct RangeRunCursor {
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
  mutating func advance() throws(CompileError) {
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
  /// Each open cursor's front range, as a binary min-heap by lower end
  /// (ties by cursor, so the order is total).
  private var heap: [(range: ClosedRange<Int64>, cursor: Int)] = []

  /// Opens every run with an equal share of `bufferBytes`.
  init(_ runs: [RangeRun], bufferBytes: Int = 1 << 20) throws(CompileError) {
    let share = max(64 << 10, bufferBytes / max(1, runs.count))
    for run in runs {
      let cursor = try RangeRunCursor(run, bufferBytes: share)
      if let head = cursor.current {
        cursors.append(cursor)
        push((head, cursors.count - 1))
      }
    }
  }

  /// The next joined range in ascending order, nil at the end.
  func next() throws(CompileError) -> ClosedRange<Int64>? {
    guard let first = heap.first else { return nil }
    let lower = first.range.lowerBound
    var upper = first.range.upperBound
    try replaceTop(first.cursor)
    // Every front range that starts at or before one past the union so far joins it.
    while let top = heap.first, top.range.lowerBound <= upper || top.range.lowerBound - 1 == upper {
      if top.range.upperBound > upper { upper = top.range.upperBound }
      try replaceTop(top.cursor)
    }
    return lower...upper
  }

  /// Moves the top's cursor on and puts its next range in the top's place
  /// (or removes the top when the cursor ended).
  private func replaceTop(_ index: Int) throws(CompileError) {
    try cursors[index].advance()
    if let head = cursors[index].current {
      heap[0] = (head, index)
    } else {
      let last = heap.removeLast()
      guard !heap.isEmpty else { return }
      heap[0] = last
    }
    siftDown(0)
  }

  private func isBelow(_ a: (range: ClosedRange<Int64>, cursor: Int), _ b: (range: ClosedRange<Int64>, cursor: Int)) -> Bool {
    a.range.lowerBound != b.range.lowerBound ? a.range.lowerBound < b.range.lowerBound : a.cursor < b.cursor
  }

  private func push(_ entry: (range: ClosedRange<Int64>, cursor: Int)) {
    heap.append(entry)
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard isBelow(heap[child], heap[parent]) else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private func siftDown(_ start: Int) {
    var parent = start
    while true {
      let left = 2 * parent + 1
      guard left < heap.count else { return }
      var smallest = left
      if left + 1 < heap.count && isBelow(heap[left + 1], heap[left]) { smallest = left + 1 }
      guard isBelow(heap[smallest], heap[parent]) else { return }
      heap.swapAt(smallest, parent)
      parent = smallest
    }
  }
}
