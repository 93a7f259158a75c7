import CalldirHost
import CalldirSystem

/// Sorting and deduplicating phone numbers in linear time, on every core.
enum RadixSort {
  /// Below this many values, one thread sorts alone.
  static let parallelThreshold = 1 << 20

  /// Sorts `values` ascending (all must be ≥ 0). Input already in order
  /// (either way, or as text) takes a pass or two; a large one is scattered
  /// into buckets by its top differing bits (``sortInBuckets(_:parts:)``);
  /// each bucket, and a small input, is sorted in the cache by the bytes
  /// where its values differ.
  /// - Complexity: O(n · k) for k differing byte positions (at most 8).
  /// - Parameter parts: How many stretches to work on concurrently (default:
  ///   one per core for large inputs).
  static func sort(_ values: inout [Int64], parts requestedParts: Int? = nil) {
    let count = values.count
    guard count > 1 else { return }
    // Lists often come in order already: sorted (database exports,
    // published snapshots), reversed, or sorted as text, which is sorted
    // within each number length. A pass or two instead of the radix passes.
    let cores = Parallel.coreCount
    let parts = max(1, min(count / 16, requestedParts ?? (count >= parallelThreshold ? cores : 1)))
    switch monotony(values, parts: parts) {
    case .ascending: return
    case .descending:
      reverse(&values, parts: parts)
      return
    case .neither:
      if TextOrder.sortIfOrderedByLength(&values, parts: requestedParts) { return }
    }
    if count < 256 {
      values.sort()
      return
    }
    if count >= bucketThreshold {
      sortInBuckets(&values, parts: parts)
      return
    }
    // Fewer values than that fit the cache: one core sorts them by the
    // bytes where they differ.
    var scratch = [Int64](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    values.withUnsafeMutableBufferPointer { values in
      scratch.withUnsafeMutableBufferPointer { scratch in
        guard let data = values.baseAddress, let spare = scratch.baseAddress else { return }
        sortRegion(data, scratch: spare, count: count, lowMask: .max, resultInPlace: true)
      }
    }
  }

  /// From this many values on, ``sortInBuckets(_:parts:)`` sorts.
  static let bucketThreshold = 1 << 16

  /// How many of the top differing bits pick a value's cell: 2^16 cells,
  /// counted in the cache, then joined into buckets of about
  /// ``bucketGoal`` values each, so that numbers crowding into a few
  /// countries' ranges still spread over many buckets.
  static let cellBits = 16

  /// About how many values a bucket gathers (its cells permitting): few
  /// enough to be sorted in the cache, many enough that the buckets' write
  /// positions stay in the cache and the TLB while values are scattered.
  static let bucketGoal = 1 << 15

  /// Sorts a large `values` (all ≥ 0) in two passes over memory and the
  /// rest in cache: the values' top 16 differing bits are counted, a
  /// stretch per core; adjacent cells are joined into buckets of about
  /// ``bucketGoal`` values; the values are scattered into the buckets;
  /// then each bucket is sorted by its remaining differing bytes where it
  /// sits, the buckets shared among the cores by size. (A
  /// least-significant-digit sort of the whole array goes over memory
  /// twice per byte, five bytes for phone numbers.)
  private static func sortInBuckets(_ values: inout [Int64], parts: Int) {
    let count = values.count
    var scratch = [Int64](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    values.withUnsafeMutableBufferPointer { values in
      scratch.withUnsafeMutableBufferPointer { scratch in
        guard let valuesBase = values.baseAddress, let scratchBase = scratch.baseAddress else { return }
        let source = SharedPointer(valuesBase)
        let target = SharedPointer(scratchBase)
        let stretches = Stretches(count: count, parts: parts)
        let bits = differingBits(source, stretches)
        guard bits != 0 else { return }  // every value is the same
        let key = CellKey(differing: bits)
        let cellCounts = key.countCells(source, stretches)
        defer { cellCounts.deallocate() }
        let layout = BucketLayout(cellCounts: cellCounts, cells: key.cells, parts: parts)
        defer { layout.deallocate() }
        layout.scatter(source, into: target, stretches, by: key)
        layout.sortBuckets(target, scratch: source, count: count, lowMask: key.lowMask)
      }
    }
  }

  /// Which cell a value falls in: its top ``cellBits`` differing bits (all
  /// of them, when fewer differ).
  struct CellKey: Sendable {
    /// The highest bit where values differ.
    let highest: Int
    let shift: UInt64
    let cells: Int
    let mask: UInt64

    init(differing bits: UInt64) {
      highest = 63 - bits.leadingZeroBitCount
      let topBits = min(cellBits, highest + 1)
      shift = UInt64(highest + 1 - topBits)
      cells = 1 << topBits
      mask = UInt64(cells - 1)
    }

    @inline(__always)
    func cell(of value: Int64) -> Int { Int((UInt64(bitPattern: value) >> shift) & mask) }

    /// The bits at and below the highest differing one: where a bucket's
    /// values still differ.
    var lowMask: UInt64 { highest == 63 ? UInt64.max : (UInt64(1) << UInt64(highest + 1)) &- 1 }

    /// Each stretch's values counted by cell: part p's counts at p × cells.
    func countCells(_ source: SharedPointer<Int64>, _ stretches: Stretches) -> SharedPointer<Int> {
      let cellCounts = SharedPointer<Int>(count: stretches.parts * cells)
      let cells = self.cells
      stretches.forEachConcurrently { part, range in
        let histogram = cellCounts.base + part * cells
        histogram.initialize(repeating: 0, count: cells)
        for index in range { histogram[cell(of: source.base[index])] &+= 1 }
      }
      return cellCounts
    }
  }

  /// Adjacent cells joined into buckets of about ``bucketGoal`` values, and
  /// where each part's values go in each bucket.
  struct BucketLayout: Sendable {
    let parts: Int
    let buckets: Int
    /// The bucket each cell joins.
    let bucketOfCell: SharedPointer<Int32>
    /// Part p's next slot in bucket b, at p × buckets + b.
    let positions: SharedPointer<Int>
    /// Where each bucket starts, then the end.
    let starts: [Int]

    init(cellCounts: SharedPointer<Int>, cells: Int, parts: Int) {
      self.parts = parts
      bucketOfCell = SharedPointer<Int32>(count: cells)
      buckets = Self.joinCells(cellCounts, cells: cells, parts: parts, into: bucketOfCell)
      positions = SharedPointer<Int>(count: parts * buckets)
      starts = Self.place(cellCounts, cells: cells, parts: parts, buckets: buckets, bucketOfCell, positions)
    }

    func deallocate() {
      bucketOfCell.deallocate()
      positions.deallocate()
    }

    /// Fills `bucketOfCell`, a bucket closed when the next cell would take
    /// it past the goal; returns the number of buckets.
    private static func joinCells(
      _ cellCounts: SharedPointer<Int>, cells: Int, parts: Int, into bucketOfCell: SharedPointer<Int32>
    ) -> Int {
      var bucketSizes: [Int] = [0]
      for cell in 0..<cells {
        var size = 0
        for part in 0..<parts { size += cellCounts.base[part * cells + cell] }
        if bucketSizes[bucketSizes.count - 1] > 0 && bucketSizes[bucketSizes.count - 1] + size > bucketGoal {
          bucketSizes.append(0)
        }
        bucketSizes[bucketSizes.count - 1] += size
        bucketOfCell.base[cell] = Int32(bucketSizes.count - 1)
      }
      return bucketSizes.count
    }

    /// Fills `positions` with part p's first slot in bucket b; returns
    /// where each bucket starts (then the end).
    private static func place(
      _ cellCounts: SharedPointer<Int>, cells: Int, parts: Int, buckets: Int, _ bucketOfCell: SharedPointer<Int32>,
      _ positions: SharedPointer<Int>
    ) -> [Int] {
      positions.base.initialize(repeating: 0, count: parts * buckets)
      for part in 0..<parts {
        for cell in 0..<cells {
          positions.base[part * buckets + Int(bucketOfCell.base[cell])] += cellCounts.base[part * cells + cell]
        }
      }
      var starts = [Int](repeating: 0, count: buckets + 1)
      var running = 0
      for bucket in 0..<buckets {
        starts[bucket] = running
        for part in 0..<parts {
          let size = positions.base[part * buckets + bucket]
          positions.base[part * buckets + bucket] = running
          running += size
        }
      }
      starts[buckets] = running
      return starts
    }

    /// Each stretch's values into their buckets in `target`.
    func scatter(
      _ source: SharedPointer<Int64>, into target: SharedPointer<Int64>, _ stretches: Stretches, by key: CellKey
    ) {
      let buckets = self.buckets
      let positions = self.positions
      let bucketOfCell = self.bucketOfCell
      stretches.forEachConcurrently { part, range in
        let next = positions.base + part * buckets
        let bucketOf = bucketOfCell.base
        for index in range {
          let value = source.base[index]
          let bucket = Int(bucketOf[key.cell(of: value)])
          target.base[next[bucket]] = value
          next[bucket] &+= 1
        }
      }
    }

    /// The buckets in `parts` groups of about equal size: each group's end.
    func groupEnds(count: Int) -> [Int] {
      var ends: [Int] = []
      var bucket = 0
      for group in 0..<parts {
        let goal = count / parts * (group + 1)
        while bucket < buckets, group == parts - 1 || starts[bucket + 1] <= goal { bucket += 1 }
        ends.append(bucket)
      }
      return ends
    }

    /// Sorts each bucket from `buckets` back into `scratch` (the values'
    /// own memory), a group of buckets per core.
    func sortBuckets(_ buckets: SharedPointer<Int64>, scratch: SharedPointer<Int64>, count: Int, lowMask: UInt64) {
      let groupEnds = groupEnds(count: count)
      let bucketStarts = starts
      Parallel.forEach(parts: parts) { group in
        for bucket in (group == 0 ? 0 : groupEnds[group - 1])..<groupEnds[group] {
          let start = bucketStarts[bucket]
          sortRegion(
            buckets.base + start, scratch: scratch.base + start, count: bucketStarts[bucket + 1] - start,
            lowMask: lowMask, resultInPlace: false)
        }
      }
    }
  }

  /// Values a region may hold and still be sorted by bytes in the cache.
  static let cachedRegion = 1 << 16

  /// Sorts the `count` values at `data`, alike but for their `lowMask`
  /// bits, with `scratch` (as large) to work in; the result ends in `data`
  /// when `resultInPlace`, else in `scratch`. One thread.
  ///
  /// A region too large for the cache (numbers of one country crowd into
  /// few top buckets) is scattered again by its next 8 differing bits, and
  /// its parts sorted the same way, until they fit.
  private static func sortRegion(
    _ data: UnsafeMutablePointer<Int64>, scratch: UnsafeMutablePointer<Int64>, count: Int, lowMask: UInt64,
    resultInPlace: Bool
  ) {
    let first = count > 0 ? UInt64(bitPattern: data[0]) : 0
    var bits: UInt64 = 0
    for index in 0..<count { bits |= (UInt64(bitPattern: data[index]) ^ first) & lowMask }
    if count <= cachedRegion || bits < 1 << 8 {
      sortBytes(data, scratch: scratch, count: count, differing: bits, resultInPlace: resultInPlace)
      return
    }
    let highest = 63 - bits.leadingZeroBitCount
    let shift = UInt64(highest + 1 - 8)
    withUnsafeTemporaryAllocation(of: Int.self, capacity: 257) { counts in
      guard let positions = counts.baseAddress else { return }
      positions.initialize(repeating: 0, count: 257)
      for index in 0..<count { positions[Int((UInt64(bitPattern: data[index]) >> shift) & 0xFF)] &+= 1 }
      var running = 0
      for digit in 0..<256 {
        let size = positions[digit]
        positions[digit] = running
        running += size
      }
      positions[256] = running
      var starts = [Int](UnsafeBufferPointer(start: positions, count: 257))
      for index in 0..<count {
        let value = data[index]
        let digit = Int((UInt64(bitPattern: value) >> shift) & 0xFF)
        scratch[positions[digit]] = value
        positions[digit] &+= 1
      }
      starts[256] = count
      // Each part is in `scratch` now; where it must end flips.
      for digit in 0..<256 where starts[digit + 1] > starts[digit] {
        sortRegion(
          scratch + starts[digit], scratch: data + starts[digit], count: starts[digit + 1] - starts[digit],
          lowMask: (1 << shift) &- 1, resultInPlace: !resultInPlace)
      }
    }
  }

  /// Sorts the `count` values at `data` by the bytes where they differ
  /// (`differing`), alternating with `scratch`; the result ends in `data`
  /// when `resultInPlace`, else in `scratch`. In cache for a region of
  /// ``cachedRegion`` values.
  private static func sortBytes(
    _ data: UnsafeMutablePointer<Int64>, scratch: UnsafeMutablePointer<Int64>, count: Int, differing bits: UInt64,
    resultInPlace: Bool
  ) {
    let out = resultInPlace ? data : scratch
    guard count > 1 else {
      if count == 1 { out[0] = data[0] }
      return
    }
    if count <= 32 {
      if !resultInPlace { scratch.update(from: data, count: count) }
      var small = UnsafeMutableBufferPointer(start: out, count: count)
      small.sort()
      return
    }
    var bytes: [UInt64] = []
    for byte in 0..<8 where (bits >> UInt64(byte * 8)) & 0xFF != 0 { bytes.append(UInt64(byte * 8)) }
    // Every byte's counts in one pass.
    withUnsafeTemporaryAllocation(of: Int.self, capacity: 256 * max(1, bytes.count)) { counts in
      guard let histograms = counts.baseAddress else { return }
      histograms.initialize(repeating: 0, count: 256 * bytes.count)
      bytes.withUnsafeBufferPointer { shifts in
        guard let shift = shifts.baseAddress else { return }
        let passes = shifts.count
        for index in 0..<count {
          let value = UInt64(bitPattern: data[index])
          var slot = 0
          while slot < passes {
            histograms[slot &* 256 &+ Int((value &>> shift[slot]) & 0xFF)] &+= 1
            slot &+= 1
          }
        }
      }
      // Each pass moves the values to the other buffer: start from the
      // one that makes the last pass end in `out`.
      var source = data
      var target = scratch
      if (bytes.count % 2 == 1) != (out == scratch) {
        scratch.update(from: data, count: count)
        swap(&source, &target)
      }
      for (slot, shift) in bytes.enumerated() {
        let positions = histograms + slot * 256
        var running = 0
        for digit in 0..<256 {
          let size = positions[digit]
          positions[digit] = running
          running += size
        }
        for index in 0..<count {
          let value = source[index]
          let digit = Int((UInt64(bitPattern: value) >> shift) & 0xFF)
          target[positions[digit]] = value
          positions[digit] &+= 1
        }
        swap(&source, &target)
      }
    }
  }

  /// The bits where not every value agrees with the first.
  private static func differingBits(_ values: SharedPointer<Int64>, _ stretches: Stretches) -> UInt64 {
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
    return bits
  }

  private enum Monotony { case ascending, descending, neither }

  /// Reverses `values`, each of `parts` stretches of its first half
  /// swapped with its mirror in the second half on its own core.
  static func reverse(_ values: inout [Int64], parts requestedParts: Int? = nil) {
    let count = values.count
    let parts = requestedParts ?? (count >= parallelThreshold ? Parallel.coreCount : 1)
    values.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      let shared = SharedPointer(base)
      Stretches(count: count / 2, parts: parts).forEachConcurrently { _, range in
        for index in range { swap(&shared.base[index], &shared.base[count &- 1 &- index]) }
      }
    }
  }

  /// Whether `values` never decrease, never increase, or neither; each of
  /// `parts` stretches (and the step into it) is checked on its own core,
  /// which stops at the first block that rules both out.
  private static func monotony(_ values: [Int64], parts: Int) -> Monotony {
    values.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress, buffer.count > 1 else { return .ascending }
      let input = SharedPointer(UnsafeMutablePointer(mutating: base))
      let stretches = Stretches(count: buffer.count, parts: parts)
      // Per part: whether it steps down, and up (1 or 0).
      let signs = SharedPointer<UInt64>(count: 2 * parts)
      defer { signs.deallocate() }
      stretches.forEachConcurrently { part, range in
        // The stretch's steps, and the step into it.
        let start = max(0, range.lowerBound - 1)
        let (rises, falls) = SourceOrder.numericSteps(input.base + start, count: range.upperBound - start)
        signs.base[2 * part] = falls ? 1 : 0
        signs.base[2 * part + 1] = rises ? 1 : 0
      }
      var falls: UInt64 = 0
      var rises: UInt64 = 0
      for part in 0..<parts {
        falls |= signs.base[2 * part]
        rises |= signs.base[2 * part + 1]
      }
      return falls == 0 ? .ascending : rises == 0 ? .descending : .neither
    }
  }

  /// Sorts and removes duplicates; returns how many duplicates were removed.
  @discardableResult
  static func sortAndDeduplicate(_ values: inout [Int64]) -> Int {
    sort(&values)
    let count = values.count
    guard count > 1 else { return 0 }
    // Each core compacts a stretch in place; the stretches are then moved
    // together, the first value of each dropped when the stretch before
    // ends with it.
    let parts = count >= parallelThreshold ? Parallel.coreCount : 1
    let stretches = Stretches(count: count, parts: parts)
    let kept = SharedPointer<Int>(count: parts)
    defer { kept.deallocate() }
    var write = 0
    values.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      let shared = SharedPointer(base)
      stretches.forEachConcurrently { part, range in
        kept.base[part] = range.isEmpty ? 0 : SourceOrder.removeAdjacentRepeats(shared.base + range.lowerBound, count: range.count)
      }
      for part in 0..<parts {
        let range = stretches.range(part)
        var start = range.lowerBound
        var length = kept.base[part]
        if length > 0, write > 0, base[start] == base[write &- 1] {
          start &+= 1
          length &-= 1
        }
        if start != write { (base + write).update(from: base + start, count: length) }
        write &+= length
      }
    }
    let removed = count - write
    values.removeLast(removed)
    return removed
  }
}
