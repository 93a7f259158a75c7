/// What one source gave the snapshot, beyond its line counts.
public struct SourceContribution: Sendable, Hashable {
  /// Distinct numbers the source lists (ranges counted number by number).
  public var numbers = 0
  /// Numbers the source lists more than once (repeated lines, singles its
  /// own ranges cover, overlapping ranges).
  public var duplicates = 0
  /// Entries no other source of its list gives: for a blocking or
  /// identification source, entries of the snapshot only it lists; for an
  /// allow source, blocking numbers only it removes.
  public var unique = 0

  public init(numbers: Int = 0, duplicates: Int = 0, unique: Int = 0) {
    self.numbers = numbers
    self.duplicates = duplicates
    self.unique = unique
  }
}

/// Counts what each blocking and allow source contributed, in one
/// ascending sweep over every source's numbers as disjoint intervals
/// (runs of consecutive numbers and ranges cost one step, whatever their
/// length), in memory or from spilled runs alike.
///
/// At each stretch of numbers the sweep knows how many blocking and how
/// many allow sources cover it: a stretch covered by one blocking source
/// and no allow source is unique to that source; a listed stretch covered
/// by one allow source is a removal unique to that allow source.
struct ContributionSweep {
  let block: [SourceNumbers]
  let allow: [SourceNumbers]

  /// Whether the lists have more than one source between them; with one
  /// blocking source and no allowlist, ``soleSource(entries:)`` answers
  /// without a sweep.
  var isNeeded: Bool { block.count > 1 || !allow.isEmpty }

  /// The contribution of a sole blocking source, from the compile's counts.
  func soleSource(entries: Int) -> [Int: SourceContribution] {
    guard let source = block.first else { return [:] }
    return [source.source: SourceContribution(
      numbers: entries, duplicates: Self.repeats(of: source, distinct: entries), unique: entries)]
  }

  /// Sweeps every source; the runs are read, not consumed.
  func run() throws(CompileError) -> [Int: SourceContribution] {
    let sources = block + allow
    var streams: [_IntervalStream] = []
    for source in sources { streams.append(try _IntervalStream(source)) }
    let isBlock = sources.indices.map { $0 < block.count }
    var unique = [Int](repeating: 0, count: sources.count)
    var heads: [ClosedRange<Int64>?] = []
    for stream in streams { heads.append(try stream.next()) }

    var position = heads.compactMap { $0?.lowerBound }.min() ?? 0
    while true {
      var end = Int64.max
      var blockCount = 0
      var allowCount = 0
      var soleBlock = -1
      var soleAllow = -1
      var anyHead = false
      var nextStart = Int64.max
      for (index, head) in heads.enumerated() {
        guard let head else { continue }
        anyHead = true
        if head.lowerBound <= position {
          end = min(end, head.upperBound)
          if isBlock[index] {
            blockCount += 1
            soleBlock = index
          } else {
            allowCount += 1
            soleAllow = index
          }
        } else {
          nextStart = min(nextStart, head.lowerBound)
        }
      }
      guard anyHead else { break }
      if blockCount + allowCount == 0 {
        position = nextStart
        continue
      }
      if nextStart != Int64.max { end = min(end, nextStart - 1) }
      let length = Int(end - position) + 1
      if blockCount > 0 {
        if allowCount == 0, blockCount == 1 { unique[soleBlock] += length }
        if allowCount == 1 { unique[soleAllow] += length }
      }
      for index in heads.indices {
        if let head = heads[index], head.lowerBound <= position, head.upperBound == end {
          heads[index] = try streams[index].next()
        }
      }
      guard end < Int64.max else { break }
      position = end + 1
    }

    var result: [Int: SourceContribution] = [:]
    for (index, source) in sources.enumerated() {
      let distinct = streams[index].distinct
      result[source.source] = SourceContribution(
        numbers: distinct, duplicates: Self.repeats(of: source, distinct: distinct), unique: unique[index])
    }
    return result
  }

  /// Numbers a source listed beyond its distinct ones.
  private static func repeats(of source: SourceNumbers, distinct: Int) -> Int {
    let (listed, overflow) = source.added.addingReportingOverflow(source.rangeNumbers)
    return overflow ? Int.max : max(0, listed - distinct)
  }
}

/// One source's numbers as ascending, disjoint, non-adjacent intervals:
/// its runs merged, its ranges merged, consecutive numbers joined.
private final class _IntervalStream {
  private let singles: MergedRuns
  private let ranges: MergedRangeRuns
  private var range: ClosedRange<Int64>?
  private var single: Int64?
  private var pending: ClosedRange<Int64>?
  /// Distinct numbers delivered so far (saturating).
  private(set) var distinct = 0

  init(_ source: SourceNumbers) throws(CompileError) {
    singles = try MergedRuns(source.runs, bufferBytes: 1 << 20)
    ranges = try MergedRangeRuns(source.rangeRuns)
    single = try singles.next()
    range = try ranges.next()
  }

  /// The next interval, nil at the end.
  func next() throws(CompileError) -> ClosedRange<Int64>? {
    while let piece = try nextPiece() {
      guard let current = pending else {
        pending = piece
        continue
      }
      if piece.lowerBound <= current.upperBound + 1 {
        pending = current.lowerBound...max(current.upperBound, piece.upperBound)
      } else {
        pending = piece
        return deliver(current)
      }
    }
    guard let last = pending else { return nil }
    pending = nil
    return deliver(last)
  }

  private func deliver(_ interval: ClosedRange<Int64>) -> ClosedRange<Int64> {
    let (sum, overflow) = distinct.addingReportingOverflow(Int(interval.upperBound - interval.lowerBound) + 1)
    distinct = overflow ? Int.max : sum
    return interval
  }

  /// The next single or range, whichever starts first.
  private func nextPiece() throws(CompileError) -> ClosedRange<Int64>? {
    switch (single, range) {
    case (nil, nil):
      return nil
    case (let value?, let range?) where value < range.lowerBound:
      single = try singles.next()
      return value...value
    case (_, let current?):
      range = try ranges.next()
      return current
    case (let value?, nil):
      single = try singles.next()
      return value...value
    }
  }
}
