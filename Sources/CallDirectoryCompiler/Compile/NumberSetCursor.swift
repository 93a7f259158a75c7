/// Answers membership questions about a `NumberSet` for ascending queries
/// in amortized constant time (a merge walk).
struct NumberSetCursor {
  private let set: NumberSet
  private var singleIndex = 0
  private var rangeIndex = 0

  init(_ set: NumberSet) { self.set = set }

  /// Whether `value` is in the set; each call's value must be ≥ the last one's.
  mutating func contains(_ value: Int64) -> Bool {
    let singles = set.singles
    let ranges = set.ranges
    while singleIndex < singles.count && singles[singleIndex] < value { singleIndex += 1 }
    if singleIndex < singles.count && singles[singleIndex] == value { return true }
    while rangeIndex < ranges.count && ranges[rangeIndex].upperBound < value { rangeIndex += 1 }
    return rangeIndex < ranges.count && ranges[rangeIndex].contains(value)
  }
}
