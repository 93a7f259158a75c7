/// Splits a snapshot across Call Directory extensions with stable numeric
/// boundaries: shard k holds the numbers from its lower bound up to the next
/// shard's lower bound, minus one.
///
/// The previous version's boundaries are kept while every shard fits the
/// limit; a shard that outgrows it is split at value boundaries that leave
/// each part about 80% full, so the other shards, and most numbers of the
/// split one, stay where they are. Shards are never merged.
struct ShardPlanner {
  /// The most entries (blocking plus identification) one extension holds.
  let limit: Int
  /// A new part's target fill, leaving room to grow before the next split.
  var fill: Double = 0.8

  /// The lower bounds of the shards (the first is always 1), ascending.
  func boundaries(
    blocking: NumberSet, identification: [LabeledNumber], previous: [Int64]
  ) -> [Int64] {
    let identificationNumbers = identification.map(\.number)
    func entries(_ bounds: ClosedRange<Int64>) -> Int {
      blocking.count(in: bounds)
        + NumberSet.upperBound(identificationNumbers, bounds.upperBound)
        - NumberSet.lowerBound(identificationNumbers, bounds.lowerBound)
    }
    let target = max(1, min(limit, Int(Double(limit) * fill)))
    var lowers = previous.first == 1 ? previous : [1]
    var result: [Int64] = []
    for (index, lower) in lowers.enumerated() {
      let upper = index + 1 < lowers.count ? lowers[index + 1] - 1 : Int64.max - 1
      result.append(lower)
      guard entries(lower...upper) > limit else { continue }
      // Cut the shard into parts of about `target` entries each.
      var start = lower
      while entries(start...upper) > limit {
        // The smallest value v with at least `target` entries in start...v.
        var low = start
        var high = upper
        while low < high {
          let middle = low + (high - low) / 2
          if entries(start...middle) >= target { high = middle } else { low = middle + 1 }
        }
        guard low < upper else { break }
        start = low + 1
        result.append(start)
      }
    }
    lowers = result
    return lowers
  }
}
