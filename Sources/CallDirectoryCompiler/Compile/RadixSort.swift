import CalldirSystem

/// Sorting and deduplicating phone numbers in linear time, on every core.
enum RadixSort {
  /// Below this many values, one thread sorts alone.
  static let parallelThreshold = 1 << 20

  /// Sorts `values` ascending (all must be ≥ 0) with a least-significant-digit
  /// radix sort on bytes, skipping byte positions where every value agrees.
  /// Each pass counts and scatters stretches of the input on separate cores.
  /// - Complexity: O(n · k) for k differing byte positions (at most 8).
  /// - Parameter parts: How many stretches to work on concurrently (default:
  ///   one per core for large inputs).
  static func sort(_ values: inout [Int64], parts requestedParts: Int? = nil) {
    let count = values.count
    guard count > 1 else { return }
    // Lists often come in order already: sorted (database exports,
    // published snapshots), reversed, or sorted as text, which is sorted
    // within each number length. A pass or two instead of the radix passes.
    switch monotony(values) {
    case .ascending: return
    case .descending:
      values.reverse()
      return
    case .neither:
      if TextOrder.sortIfOrderedByLength(&values) { return }
    }
    if count < 256 {
      values.sort()
      return
    }
    let cores = Parallel.coreCount
    let parts = max(1, min(count / 16, requestedParts ?? (count >= parallelThreshold ? cores : 1)))
    var scratch = [Int64](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    let counts = SharedPointer<Int>(count: parts * 256)
    defer { counts.deallocate() }
    var inScratch = false
    values.withUnsafeMutableBufferPointer { values in
      scratch.withUnsafeMutableBufferPointer { scratch in
        guard let valuesBase = values.baseAddress, let scratchBase = scratch.baseAddress else { return }
        var source = SharedPointer(valuesBase)
        var target = SharedPointer(scratchBase)
        let stretches = Stretches(count: count, parts: parts)
        for byte in differingBytes(source, stretches) {
          let shift = UInt64(byte * 8)
          let (input, output) = (source, target)
          stretches.forEachConcurrently { part, range in
            let histogram = counts.base + part * 256
            histogram.initialize(repeating: 0, count: 256)
            for index in range { histogram[Int((UInt64(bitPattern: input.base[index]) >> shift) & 0xFF)] &+= 1 }
          }
          // Part p's first slot for bucket b: every value of smaller buckets,
          // plus bucket b's values in the parts before p.
          var running = 0
          for bucket in 0..<256 {
            for part in 0..<parts {
              let size = counts.base[part * 256 + bucket]
              counts.base[part * 256 + bucket] = running
              running += size
            }
          }
          stretches.forEachConcurrently { part, range in
            let positions = counts.base + part * 256
            for index in range {
              let value = input.base[index]
              let bucket = Int((UInt64(bitPattern: value) >> shift) & 0xFF)
              output.base[positions[bucket]] = value
              positions[bucket] &+= 1
            }
          }
          swap(&source, &target)
          inScratch.toggle()
        }
      }
    }
    if inScratch { swap(&values, &scratch) }
  }

  /// The byte positions where not every value has the same byte.
  private static func differingBytes(_ values: SharedPointer<Int64>, _ stretches: Stretches) -> [Int] {
    let differences = SharedPointer<UInt64>(count: stretches.parts)
    defer { differences.deallocate() }
    let first = values.base[0]
    stretches.forEachConcurrently { part, range in
      var bits: UInt64 = 0
      for index in range { bits |= UInt64(bitPattern: values.base[index] ^ first) }
      differences.base[part] = bits
    }
    var bits: UInt64 = 0
    for part in 0..<stretches.parts { bits |= differences.base[part] }
    return (0..<8).filter { (bits >> UInt64($0 * 8)) & 0xFF != 0 }
  }

  private enum Monotony { case ascending, descending, neither }

  /// Whether `values` never decrease, never increase, or neither; stops at
  /// the first pair that rules both out.
  private static func monotony(_ values: [Int64]) -> Monotony {
    values.withUnsafeBufferPointer { buffer in
      var ascending = true
      var descending = true
      var index = 1
      while index < buffer.count && (ascending || descending) {
        let previous = buffer[index - 1]
        let next = buffer[index]
        if next < previous { ascending = false }
        if next > previous { descending = false }
        index += 1
      }
      return ascending ? .ascending : descending ? .descending : .neither
    }
  }

  /// Sorts and removes duplicates; returns how many duplicates were removed.
  @discardableResult
  static func sortAndDeduplicate(_ values: inout [Int64]) -> Int {
    sort(&values)
    guard values.count > 1 else { return 0 }
    var write = 1
    values.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      // Branch-free: each value is written, and kept when it differs from
      // the last kept one (repeats come at any rate, so a branch on them
      // would be mispredicted often).
      var last = base[0]
      for read in 1..<buffer.count {
        let value = base[read]
        base[write] = value
        write &+= value != last ? 1 : 0
        last = value
      }
    }
    let removed = values.count - write
    values.removeLast(removed)
    return removed
  }
}

/// A pointer handed to the parts of one pass; each part touches its own slots.
private struct SharedPointer<Element>: @unchecked Sendable {
  let base: UnsafeMutablePointer<Element>

  init(_ base: UnsafeMutablePointer<Element>) { self.base = base }

  init(count: Int) { base = .allocate(capacity: count) }

  func deallocate() { base.deallocate() }
}

/// `count` indices cut into `parts` consecutive stretches.
private struct Stretches: Sendable {
  let count: Int
  let parts: Int

  /// Runs `body` for every stretch, on as many threads as there are parts.
  func forEachConcurrently(_ body: @Sendable (_ part: Int, _ range: Range<Int>) -> Void) {
    let length = (count + parts - 1) / parts
    let count = self.count
    Parallel.forEach(parts: parts) { part in
      body(part, min(count, part * length)..<min(count, (part + 1) * length))
    }
  }
}
