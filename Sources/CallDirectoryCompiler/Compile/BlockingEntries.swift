/// The blocking numbers of a compiled snapshot: a ``NumberSet`` in memory,
/// single numbers in sorted slices (no ranges, nothing allowed), or, when a
/// build passed its memory limit, sorted runs on disk that are merged (and
/// cut by the allowlists) each time they are walked.
public struct BlockingEntries: Sendable {
  enum Storage: Sendable {
    case memory(NumberSet)
    case slices(SortedSlices)
    case spilled(SpilledBlocking)
  }

  let storage: Storage

  init(storage: Storage) { self.storage = storage }

  /// Entries held in memory.
  init(_ set: NumberSet) { storage = .memory(set) }

  /// The set, when it is held in memory.
  public var inMemory: NumberSet? {
    switch storage {
    case .memory(let set): set
    case .slices(let slices): NumberSet(sortedUniqueSingles: slices.contiguous(), ranges: [])
    case .spilled: nil
    }
  }

  /// Walks the entries in ascending order in bulk: `singles` gets runs of
  /// single numbers, `range` whole ranges, interleaved in order.
  public func forEachChunk(
    singles: (UnsafeBufferPointer<Int64>) throws -> Void,
    range: (ClosedRange<Int64>) throws -> Void
  ) throws {
    switch storage {
    case .memory(let set): try set.forEachChunk(singles: singles, range: range)
    case .slices(let slices): try slices.forEachSlice(singles)
    case .spilled(let spilled): _ = try spilled.walk(singles: singles, range: range)
    }
  }

  /// Calls `body` with every number in ascending order.
  public func forEach(_ body: (Int64) throws -> Void) throws {
    try forEachChunk(
      singles: { buffer in for number in buffer { try body(number) } },
      range: { range in for number in range { try body(number) } })
  }
}

/// Blocking numbers spilled as sorted runs, with the ranges and the
/// allowlist applied while they are merged.
struct SpilledBlocking: Sendable {
  /// What one walk counted.
  struct Counts {
    /// Entries delivered.
    var entries = 0
    /// Numbers the allowlists removed.
    var allowed = 0
    /// Single numbers a listed range already covers.
    var covered = 0
    /// Numbers in more than one run.
    var repeats = 0
  }

  let runs: [SortedRun]
  /// The blocking sources' range runs, joined on each walk.
  let ranges: [RangeRun]
  let allowRuns: [SortedRun]
  /// The allow sources' range runs.
  let allowRanges: [RangeRun]
  /// Keeps the run files until the last copy is gone.
  let files: SpillFiles

  /// Walks `(runs ∪ ranges) − (allowRuns ∪ allowRanges)` in ascending order.
  func walk(
    singles singlesBody: (UnsafeBufferPointer<Int64>) throws -> Void,
    range rangeBody: (ClosedRange<Int64>) throws -> Void
  ) throws -> Counts {
    var counts = Counts()
    let numbers = try MergedRuns(runs)
    let ranges = try MergedRangeRuns(self.ranges)
    var cuts = AllowCursor(numbers: try MergedRuns(allowRuns), ranges: try MergedRangeRuns(allowRanges))
    let capacity = 1 << 16
    var pending: [Int64] = []
    pending.reserveCapacity(capacity)
    func flush() throws {
      guard !pending.isEmpty else { return }
      try pending.withUnsafeBufferPointer { try singlesBody($0) }
      counts.entries += pending.count
      pending.removeAll(keepingCapacity: true)
    }
    func emit(_ range: ClosedRange<Int64>) throws {
      // The range minus every cut that overlaps it.
      var lower = range.lowerBound
      while lower <= range.upperBound {
        guard let cut = try cuts.firstCut(endingAtOrAfter: lower), cut.lowerBound <= range.upperBound else {
          try flush()
          try rangeBody(lower...range.upperBound)
          counts.entries += Int(range.upperBound - lower) + 1
          return
        }
        if cut.lowerBound > lower {
          try flush()
          try rangeBody(lower...(cut.lowerBound - 1))
          counts.entries += Int(cut.lowerBound - lower)
        }
        counts.allowed += Int(min(cut.upperBound, range.upperBound) - max(cut.lowerBound, lower)) + 1
        if cut.upperBound >= range.upperBound { return }
        lower = cut.upperBound + 1
      }
    }
    var range = try ranges.next()
    while let number = try numbers.next() {
      while let current = range, current.upperBound < number {
        try emit(current)
        range = try ranges.next()
      }
      if let range, range.contains(number) {
        counts.covered += 1
      } else if try cuts.contains(number) {
        counts.allowed += 1
      } else {
        pending.append(number)
        if pending.count == capacity { try flush() }
      }
    }
    while let current = range {
      try emit(current)
      range = try ranges.next()
    }
    try flush()
    counts.repeats = numbers.repeats
    return counts
  }
}

/// Answers ascending questions about the allowlist: single numbers from
/// merged runs, plus joined ranges.
private struct AllowCursor {
  let numbers: MergedRuns
  let ranges: MergedRangeRuns
  private var head: Int64?
  private var range: ClosedRange<Int64>?
  private var started = false

  init(numbers: MergedRuns, ranges: MergedRangeRuns) {
    self.numbers = numbers
    self.ranges = ranges
  }

  /// Moves past singles and ranges that end before `value`.
  private mutating func skip(below value: Int64) throws {
    if !started {
      head = try numbers.next()
      range = try ranges.next()
      started = true
    }
    while let current = head, current < value { head = try numbers.next() }
    while let current = range, current.upperBound < value { range = try ranges.next() }
  }

  /// Whether the allowlist holds `value` (values must not decrease).
  mutating func contains(_ value: Int64) throws -> Bool {
    try skip(below: value)
    return head == value || range?.contains(value) == true
  }

  /// The first allowed single (as `n...n`) or range that ends at or after
  /// `value`, whichever starts first (values must not decrease).
  mutating func firstCut(endingAtOrAfter value: Int64) throws -> ClosedRange<Int64>? {
    try skip(below: value)
    switch (head, range) {
    case (nil, nil): return nil
    case (let single?, nil): return single...single
    case (nil, let range?): return range
    case (let single?, let range?): return single < range.lowerBound ? single...single : range
    }
  }
}
