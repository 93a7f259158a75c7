/// The union of ascending unique arrays.
enum SortedUnion {
  /// Merges ascending unique arrays into one, pairwise (log k passes of
  /// tight two-way merges); returns it and how many numbers were dropped
  /// because an earlier array held them too.
  static func merge(_ arrays: consuming [[Int64]]) -> (numbers: [Int64], repeats: Int) {
    var layer = arrays.filter { !$0.isEmpty }
    var repeats = 0
    guard !layer.isEmpty else { return ([], 0) }
    while layer.count > 1 {
      var next: [[Int64]] = []
      next.reserveCapacity((layer.count + 1) / 2)
      var index = 0
      while index + 1 < layer.count {
        let (merged, dropped) = mergeTwo(layer[index], layer[index + 1])
        repeats += dropped
        next.append(merged)
        index += 2
      }
      if index < layer.count { next.append(layer[index]) }
      layer = next
    }
    return (layer[0], repeats)
  }

  /// The union of two ascending unique arrays, and how many numbers both held.
  static func mergeTwo(_ left: [Int64], _ right: [Int64]) -> ([Int64], Int) {
    let result = [Int64](unsafeUninitializedCapacity: left.count + right.count) { buffer, initialized in
      initialized = 0
      left.withUnsafeBufferPointer { a in
        right.withUnsafeBufferPointer { b in
          var i = 0
          var j = 0
          var out = 0
          while i < a.count && j < b.count {
            let x = a[i]
            let y = b[j]
            if x < y {
              buffer[out] = x
              i += 1
            } else if y < x {
              buffer[out] = y
              j += 1
            } else {
              buffer[out] = x
              i += 1
              j += 1
            }
            out += 1
          }
          while i < a.count {
            buffer[out] = a[i]
            i += 1
            out += 1
          }
          while j < b.count {
            buffer[out] = b[j]
            j += 1
            out += 1
          }
          initialized = out
        }
      }
    }
    let repeats = left.count + right.count - result.count
    return (result, repeats)
  }
}
