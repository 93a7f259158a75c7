/// Sorting and deduplicating phone numbers in linear time.
enum RadixSort {
  /// Sorts `values` ascending (all must be ≥ 0) with a least-significant-digit
  /// radix sort on bytes, skipping byte positions where every value agrees.
  /// - Complexity: O(n · k) for k differing byte positions (at most 8).
  static func sort(_ values: inout [Int64]) {
    let count = values.count
    guard count > 1 else { return }
    if count < 256 {
      values.sort()
      return
    }
    var scratch = [Int64](repeating: 0, count: count)
    var histograms = [Int](repeating: 0, count: 8 * 256)
    values.withUnsafeBufferPointer { source in
      histograms.withUnsafeMutableBufferPointer { counts in
        for value in source {
          var key = UInt64(bitPattern: value)
          for byte in 0..<8 {
            counts[byte &* 256 &+ Int(key & 0xFF)] &+= 1
            key >>= 8
          }
        }
      }
    }
    var inScratch = false
    for byte in 0..<8 {
      let base = byte * 256
      // A byte position where all values share one byte value needs no pass.
      if histograms[base..<base + 256].contains(count) { continue }
      var offsets = [Int](repeating: 0, count: 256)
      var running = 0
      for bucket in 0..<256 {
        offsets[bucket] = running
        running += histograms[base + bucket]
      }
      let shift = UInt64(byte * 8)
      if inScratch {
        scatter(from: scratch, into: &values, offsets: &offsets, shift: shift)
      } else {
        scatter(from: values, into: &scratch, offsets: &offsets, shift: shift)
      }
      inScratch.toggle()
    }
    if inScratch { values = scratch }
  }

  private static func scatter(from source: [Int64], into target: inout [Int64], offsets: inout [Int], shift: UInt64) {
    source.withUnsafeBufferPointer { input in
      target.withUnsafeMutableBufferPointer { output in
        offsets.withUnsafeMutableBufferPointer { positions in
          for value in input {
            let bucket = Int((UInt64(bitPattern: value) >> shift) & 0xFF)
            output[positions[bucket]] = value
            positions[bucket] &+= 1
          }
        }
      }
    }
  }

  /// Sorts and removes duplicates; returns how many duplicates were removed.
  @discardableResult
  static func sortAndDeduplicate(_ values: inout [Int64]) -> Int {
    sort(&values)
    guard values.count > 1 else { return 0 }
    var write = 1
    values.withUnsafeMutableBufferPointer { buffer in
      for read in 1..<buffer.count where buffer[read] != buffer[write - 1] {
        buffer[write] = buffer[read]
        write += 1
      }
    }
    let removed = values.count - write
    values.removeLast(removed)
    return removed
  }
}
