extension RandomAccessCollection {
  /// The first index whose element is not `isBelow`, for a collection in
  /// which every element that is comes first (a binary search).
  /// - Complexity: O(log n) calls of `isBelow`.
  func _partitionPoint(_ isBelow: (Element) -> Bool) -> Index {
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
