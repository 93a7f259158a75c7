/// Lists sorted as text (`sort` without `-n`, most spreadsheet exports):
/// not numerically sorted when numbers differ in length (`+4930123` <
/// `+493012345` < `+49302` as text), but sorted within each length, since
/// numbers of one length compare as text and as numbers alike. And every
/// number of a length is below every longer one, so putting the lengths
/// one after another sorts the whole list.
enum TextOrder {
  /// When each length's numbers in `values` (all ≥ 0) are ascending, or
  /// each descending (a list sorted as text, either way round), sorts
  /// `values` ascending, duplicates kept, and returns true; otherwise
  /// leaves them as they are and returns false, as soon as it can tell.
  /// - Complexity: O(n), two passes.
  static func sortIfOrderedByLength(_ values: inout [Int64]) -> Bool {
    var counts = [Int](repeating: 0, count: 20)
    var ascending = [Bool](repeating: true, count: 20)
    var descending = [Bool](repeating: true, count: 20)
    var last = [Int64](repeating: 0, count: 20)
    let ordered = values.withUnsafeBufferPointer { buffer -> Bool in
      for value in buffer {
        let length = digitCount(value)
        if counts[length] > 0 {
          let previous = last[length]
          if value < previous { ascending[length] = false }
          if value > previous { descending[length] = false }
          if !ascending[length] && !descending[length] { return false }
        }
        counts[length] &+= 1
        last[length] = value
      }
      return true
    }
    guard ordered else { return false }
    var starts = [Int](repeating: 0, count: 20)
    var position = 0
    for length in 0..<20 {
      starts[length] = position
      position += counts[length]
    }
    let count = values.count
    let sorted = [Int64](unsafeUninitializedCapacity: count) { out, initialized in
      var next = starts
      for value in values {
        let length = digitCount(value)
        out[next[length]] = value
        next[length] &+= 1
      }
      for length in 0..<20 where !ascending[length] {
        var run = UnsafeMutableBufferPointer(rebasing: out[starts[length]..<(starts[length] + counts[length])])
        run.reverse()
      }
      initialized = count
    }
    values = sorted
    return true
  }

  /// The decimal digits of `value` (≥ 0; 0 for 0).
  @inline(__always)
  static func digitCount(_ value: Int64) -> Int {
    let bits = 64 &- value.leadingZeroBitCount
    let estimate = (bits &* 1233) &>> 12
    return estimate &+ (value >= powersOfTen[estimate] ? 1 : 0)
  }

  private static let powersOfTen: [Int64] = (0..<19).map { exponent in
    var power: Int64 = 1
    for _ in 0..<exponent { power *= 10 }
    return power
  }
}
