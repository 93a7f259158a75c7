/// Finds numbers in one number section: sorts the queries, routes each to
/// the one frame that may hold it (binary search over the frames' bases),
/// and decodes each frame that some query falls in exactly once, walking its
/// blocks alongside the queries.
struct _SectionMatcher {
  let index: _FrameIndex
  let frames: _FrameReader
  let labelLimit: UInt64

  /// For each of `numbers` (in any order, repeats allowed), `nil` if the
  /// section does not hold it, else its label id (0 in a section without
  /// labels). Numbers outside `1...BlobLimits.maxNumber` are never held.
  /// - Throws: `BlobError` if a frame that is read turns out invalid.
  /// - Complexity: O(k log k) for k numbers, plus one frame read and
  ///   decode per distinct frame the numbers fall in.
  func match(_ numbers: [Int64]) throws(BlobError) -> [UInt32?] {
    var results = [UInt32?](repeating: nil, count: numbers.count)
    guard !index.frames.isEmpty else { return results }
    var order = numbers.indices.filter { numbers[$0] >= 1 && numbers[$0] <= BlobLimits.maxNumber }
    if !zip(order, order.dropFirst()).allSatisfy({ numbers[$0] <= numbers[$1] }) {
      order.sort { numbers[$0] < numbers[$1] }
    }
    let hasLabels = index.info.section.carriesLabels
    var next = 0
    while next < order.count {
      let number = UInt64(numbers[order[next]])
      guard let position = index.frame(containing: number) else {
        next += 1
        continue
      }
      let upper = index.upperBound(ofFrame: position)
      var end = next
      while end < order.count && UInt64(numbers[order[end]]) <= upper { end += 1 }
      var query = next
      try frames.scan(position, of: index, labelLimit: labelLimit) { block in
        switch block {
        case .run(let first, let last, let label):
          while query < end && UInt64(numbers[order[query]]) < first { query += 1 }
          while query < end && UInt64(numbers[order[query]]) <= last {
            results[order[query]] = label
            query += 1
          }
        case .values(let values, let labels):
          guard let first = values.first, let last = values.last else { return }
          while query < end && numbers[order[query]] < first { query += 1 }
          while query < end && numbers[order[query]] <= last {
            let wanted = numbers[order[query]]
            let at = values._partitionPoint { $0 < wanted }
            if at < values.count && values[at] == wanted {
              results[order[query]] = hasLabels ? labels[at] : 0
            }
            query += 1
          }
        }
      }
      next = end
    }
    return results
  }
}
