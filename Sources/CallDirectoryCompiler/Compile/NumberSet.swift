/// A set of phone numbers held as sorted unique singles plus sorted, disjoint
/// inclusive ranges, so that expanded prefixes (`33162######`) never need to
/// be materialized.
public struct NumberSet: Sendable, Equatable {
  /// Ascending, unique; none lies inside `ranges`.
  public private(set) var singles: [Int64]
  /// Ascending, disjoint and not adjacent.
  public private(set) var ranges: [ClosedRange<Int64>]

  /// The empty set.
  public init() {
    singles = []
    ranges = []
  }

  /// Builds a set from unsorted singles and ranges (duplicates and overlaps allowed).
  public init(singles unsortedSingles: consuming [Int64], ranges unsortedRanges: [ClosedRange<Int64>]) {
    var singles = unsortedSingles
    RadixSort.sortAndDeduplicate(&singles)
    self.init(sortedUniqueSingles: singles, ranges: unsortedRanges)
  }

  /// Builds a set from ascending unique singles and ranges (overlaps allowed).
  init(sortedUniqueSingles: consuming [Int64], ranges unsortedRanges: [ClosedRange<Int64>]) {
    self.init(sortedUniqueSingles: sortedUniqueSingles, joinedRanges: Self.merged(unsortedRanges))
  }

  /// Builds a set from ascending unique singles and ascending, disjoint,
  /// non-adjacent ranges (as ``merged(_:)`` gives them).
  init(sortedUniqueSingles: consuming [Int64], joinedRanges ranges: [ClosedRange<Int64>]) {
    var singles = sortedUniqueSingles
    // Drop singles that a range covers, compacting in place.
    if !ranges.isEmpty {
      var kept = 0
      var rangeIndex = 0
      for index in singles.indices {
        let value = singles[index]
        while rangeIndex < ranges.count && ranges[rangeIndex].upperBound < value { rangeIndex += 1 }
        if rangeIndex < ranges.count && ranges[rangeIndex].contains(value) { continue }
        singles[kept] = value
        kept += 1
      }
      singles.removeLast(singles.count - kept)
    }
    self.singles = singles
    self.ranges = ranges
  }

  /// How many numbers of the set lie in `bounds`. - Complexity: O(log n).
  public func count(in bounds: ClosedRange<Int64>) -> Int {
    var total = Self.upperBound(singles, bounds.upperBound) - Self.lowerBound(singles, bounds.lowerBound)
    var index = Self.firstRange(endingAtOrAfter: bounds.lowerBound, in: ranges)
    while index < ranges.count && ranges[index].lowerBound <= bounds.upperBound {
      let lower = max(ranges[index].lowerBound, bounds.lowerBound)
      let upper = min(ranges[index].upperBound, bounds.upperBound)
      total += Int(upper - lower) + 1
      index += 1
    }
    return total
  }

  /// The first index whose value is ≥ `value`.
  package static func lowerBound(_ values: [Int64], _ value: Int64) -> Int {
    values.partitionPoint { $0 < value }
  }

  /// The first index whose value is > `value`.
  package static func upperBound(_ values: [Int64], _ value: Int64) -> Int {
    values.partitionPoint { $0 <= value }
  }

  /// The first range that ends at or after `value`.
  private static func firstRange(endingAtOrAfter value: Int64, in ranges: [ClosedRange<Int64>]) -> Int {
    ranges.partitionPoint { $0.upperBound < value }
  }

  /// Sorts ranges and merges overlapping or adjacent ones.
  static func merged(_ input: [ClosedRange<Int64>]) -> [ClosedRange<Int64>] {
    var result = input
    RangeRun.sortAndJoin(&result)
    return result
  }

  /// How many numbers the set holds.
  public var count: Int {
    singles.count + ranges.reduce(0) { $0 + Int($1.upperBound - $1.lowerBound) + 1 }
  }

  public var isEmpty: Bool { singles.isEmpty && ranges.isEmpty }

  /// Whether `value` is in the set. - Complexity: O(log n).
  public func contains(_ value: Int64) -> Bool {
    let single = Self.lowerBound(singles, value)
    if single < singles.count && singles[single] == value { return true }
    let range = Self.firstRange(endingAtOrAfter: value, in: ranges)
    return range < ranges.count && ranges[range].contains(value)
  }

  /// The set without the numbers of `other`; also returns how many were removed.
  public func subtracting(_ other: NumberSet) -> (result: NumberSet, removed: Int) {
    guard !other.isEmpty, !isEmpty else { return (self, 0) }
    var removed = 0
    let singles = self.singles.filter { value in
      let hit = other.contains(value)
      if hit { removed += 1 }
      return !hit
    }
    // Cut each range by the other set's ranges and by its singles that
    // fall in one (only those: an allowlist may be long).
    var cuts: [ClosedRange<Int64>] = other.ranges
    let ranges = self.ranges
    cuts.append(contentsOf: other.singles.lazy.filter { value in
      let index = Self.firstRange(endingAtOrAfter: value, in: ranges)
      return index < ranges.count && ranges[index].contains(value)
    }.map { $0...$0 })
    cuts = Self.merged(cuts)
    // Each cut splits at most one range in two.
    var kept: [ClosedRange<Int64>] = []
    kept.reserveCapacity(ranges.count + cuts.count)
    var cutIndex = 0
    for range in ranges {
      var lower = range.lowerBound
      while cutIndex < cuts.count && cuts[cutIndex].upperBound < lower { cutIndex += 1 }
      var index = cutIndex
      while lower <= range.upperBound {
        guard index < cuts.count, cuts[index].lowerBound <= range.upperBound else {
          kept.append(lower...range.upperBound)
          break
        }
        let cut = cuts[index]
        if cut.lowerBound > lower { kept.append(lower...(cut.lowerBound - 1)) }
        let cutEnd = min(cut.upperBound, range.upperBound)
        removed += Int(cutEnd - max(cut.lowerBound, lower)) + 1
        if cut.upperBound >= range.upperBound { break }
        lower = cut.upperBound + 1
        index += 1
      }
    }
    var result = NumberSet()
    result.singles = singles
    result.ranges = kept
    return (result, removed)
  }

  /// Walks the set in ascending order in bulk: `singles` gets each maximal
  /// stretch of singles between two ranges as one buffer, `range` each
  /// range, interleaved in order (for writers with a bulk append).
  public func forEachChunk(
    singles singlesBody: (UnsafeBufferPointer<Int64>) throws -> Void,
    range rangeBody: (ClosedRange<Int64>) throws -> Void
  ) rethrows {
    try singles.withUnsafeBufferPointer { all in
      var start = 0
      for range in ranges {
        let end = Self.lowerBound(singles, range.lowerBound)
        if end > start { try singlesBody(UnsafeBufferPointer(rebasing: all[start..<end])) }
        try rangeBody(range)
        start = end
      }
      if all.count > start { try singlesBody(UnsafeBufferPointer(rebasing: all[start..<all.count])) }
    }
  }

  /// Calls `body` with every number in ascending order.
  public func forEach(_ body: (Int64) throws -> Void) rethrows {
    var rangeIndex = 0
    for value in singles {
      while rangeIndex < ranges.count && ranges[rangeIndex].upperBound < value {
        try emit(ranges[rangeIndex], body)
        rangeIndex += 1
      }
      try body(value)
    }
    while rangeIndex < ranges.count {
      try emit(ranges[rangeIndex], body)
      rangeIndex += 1
    }
  }

  private func emit(_ range: ClosedRange<Int64>, _ body: (Int64) throws -> Void) rethrows {
    var value = range.lowerBound
    while true {
      try body(value)
      if value == range.upperBound { break }
      value += 1
    }
  }
}

extension RandomAccessCollection {
  /// The first index whose element is not `isBelow`, for a collection
  /// where every element that is comes first (a binary search).
  package func partitionPoint(_ isBelow: (Element) -> Bool) -> Index {
    var low = startIndex
    var count = self.count
    while count > 0 {
      let half = count / 2
      let middle = index(low, offsetBy: half)
      if isBelow(self[middle]) {
        low = index(after: middle)
        count -= half + 1
      } else {
        count = half
      }
    }
    return low
  }
}
