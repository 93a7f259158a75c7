import CalldirHost
import CalldirSystem

/// Lists sorted as text (`sort` without `-n`, most spreadsheet exports):
/// not numerically sorted when numbers differ in length (`+4930123` <
/// `+493012345` < `+49302` as text), but sorted within each length, since
/// numbers of one length compare as text and as numbers alike. And every
/// number of a length is below every longer one, so putting the lengths
/// one after another sorts the whole list.
enum TextOrder {
  /// Decimal lengths of values ≥ 0: 0 (for 0) to 19.
  static let lengths = 20

  /// When `values` (all ≥ 0) are in text order (sorted by their decimal
  /// digits as text), ascending or descending, sorts them numerically
  /// ascending, duplicates kept, and returns true; otherwise leaves them as
  /// they are and returns false, as soon as it can tell.
  ///
  /// Each of `parts` stretches is first summed up on its own core (how
  /// many values of each length, the text keys of its first and last
  /// values, which way they go), then, when the stretches agree, each
  /// scatters its values straight to their sorted places (each length
  /// written from its end when the list descends).
  /// - Complexity: O(n), two passes.
  static func sortIfOrderedByLength(_ values: inout [Int64], parts requestedParts: Int? = nil) -> Bool {
    let count = values.count
    let parts = max(1, min(count / 64, requestedParts ?? defaultParts(count)))
    let stretches = Stretches(count: count, parts: parts)
    let summaries = SharedPointer<TextSummary>(count: parts)
    defer {
      summaries.base.deinitialize(count: parts)
      summaries.deallocate()
    }
    values.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      let input = SharedPointer(UnsafeMutablePointer(mutating: base))
      stretches.forEachConcurrently { part, range in
        (summaries.base + part).initialize(to: TextSummary(input.base + range.lowerBound, count: range.count))
      }
    }
    guard let plan = ScatterPlan(summaries.base, parts: parts) else { return false }
    scatter(&values, parts: (0..<parts).map { stretches.range($0) }, counts: (0..<parts).map { summaries.base[$0].counts }, plan: plan)
    return true
  }

  /// A piece of a list as collected: where it ends in the list, how many
  /// numbers of each length it holds, and which way its lengths go.
  struct Piece: Equatable {
    /// The index just past the piece's last number.
    var end: Int
    /// How many numbers of each decimal length.
    var lengths: [Int]
    /// Each length's numbers lie together, in the order they came, the
    /// lengths longest first (a piece that falls as numbers) instead of
    /// shortest first.
    var lengthsFall = false
  }

  /// Lays out the `count` numbers at `base`, summed up as `order`, by
  /// length when they are in text order but not in numeric order: each
  /// length's numbers together, in the order they came, the lengths
  /// shortest first (through `scratch`, room for `count`). A piece in
  /// numeric order is so already (ascending: shortest first; descending:
  /// longest first) and stays as it is.
  /// - Returns: Whether the numbers were moved.
  static func layOutByLength(
    _ base: UnsafeMutablePointer<Int64>, count: Int, order: SourceOrder, scratch: UnsafeMutablePointer<Int64>
  ) -> Bool {
    guard order.isTextOrdered, !order.isAscending, !order.isDescending,
      order.lengths.lazy.filter({ $0 > 0 }).count > 1
    else { return false }
    scratch.update(from: base, count: count)
    var next = [Int](repeating: 0, count: lengths)
    var start = 0
    for length in 0..<lengths {
      next[length] = start
      start += order.lengths[length]
    }
    // Counts that do not add up would write out of place (and leave the
    // pieces' counts short of the list: ``sortedSlices(_:falling:pieces:)``
    // then declines).
    guard start == count else { return false }
    let powers = PowersOfTen()
    next.withUnsafeMutableBufferPointer { next in
      for index in 0..<count {
        let value = scratch[index]
        let length = powers.digitCount(value)
        base[next[length]] = value
        next[length] &+= 1
      }
    }
    return true
  }

  /// Where, in a piece laid out by length, the first of its numbers of
  /// `length` digits lies (relative to the piece's start).
  static func start(of length: Int, in lengths: [Int], falling: Bool) -> Int {
    falling ? lengths[(length + 1)...].reduce(0, +) : lengths[..<length].reduce(0, +)
  }

  /// `numbers`, known to be in text order (descending when `falling`) and
  /// cut into `pieces` that each lie by length, as sorted slices: each
  /// length's slice of every piece in turn, shortest length first (pieces
  /// taken from the last, their slices reversed in place, when the list
  /// falls). Nil when the pieces do not cover `numbers`.
  static func sortedSlices(_ numbers: consuming [Int64], falling: Bool, pieces: [Piece]) -> SortedSlices? {
    guard pieces.last?.end == numbers.count,
      pieces.reduce(0, { $0 + $1.lengths.reduce(0, +) }) == numbers.count
    else { return nil }
    var starts = [Int](repeating: 0, count: pieces.count)
    for index in pieces.indices.dropFirst() { starts[index] = pieces[index - 1].end }
    let order = falling ? Array(pieces.indices.reversed()) : Array(pieces.indices)
    var slices: [Range<Int>] = []
    for length in 0..<lengths {
      for index in order where pieces[index].lengths[length] > 0 {
        let piece = pieces[index]
        let lower = starts[index] + start(of: length, in: piece.lengths, falling: piece.lengthsFall)
        slices.append(lower..<(lower + piece.lengths[length]))
      }
    }
    if falling {
      numbers.withUnsafeMutableBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return }
        let shared = SharedPointer(base)
        let ranges = slices
        let parts = min(ranges.count, 4 * Parallel.coreCount)
        Parallel.forEach(parts: parts) { part in
          for index in stride(from: part, to: ranges.count, by: parts) {
            var slice = UnsafeMutableBufferPointer(start: shared.base + ranges[index].lowerBound, count: ranges[index].count)
            slice.reverse()
          }
        }
      }
    }
    return SortedSlices(numbers, slices: slices)
  }

  /// Two parts per core for large inputs (``scatter(_:parts:counts:plan:)``
  /// writes two at a time), one for small ones.
  private static func defaultParts(_ count: Int) -> Int {
    count >= RadixSort.parallelThreshold ? 2 * Parallel.coreCount : 1
  }

  /// Writes each of `parts` of `values` (with `counts[p]` values of each
  /// length) straight to the values' sorted places, two parts at a time
  /// per core, a value of each in turn: each part's next place of a length
  /// waits for its last write there, and two such chains overlap (each
  /// length written from its end when the list descends).
  private static func scatter(_ values: inout [Int64], parts: [Range<Int>], counts: [[Int]], plan: ScatterPlan) {
    let count = values.count
    let partCount = parts.count
    let positions = SharedPointer<Int>(count: partCount * lengths)
    defer { positions.deallocate() }
    plan.write(positions: positions.base, counts: counts)
    let step = plan.isFalling ? -1 : 1
    let sorted = [Int64](unsafeUninitializedCapacity: count) { out, initialized in
      guard let outBase = out.baseAddress else { return }
      let output = SharedPointer(outBase)
      values.withUnsafeBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return }
        let input = SharedPointer(UnsafeMutablePointer(mutating: base))
        Parallel.forEach(parts: (partCount + 1) / 2) { pair in
          let powers = PowersOfTen()
          @inline(__always) func put(_ index: Int, _ next: UnsafeMutablePointer<Int>) {
            let value = input.base[index]
            let length = powers.digitCount(value)
            output.base[next[length]] = value
            next[length] &+= step
          }
          let first = parts[2 * pair]
          let next = positions.base + 2 * pair * lengths
          guard 2 * pair + 1 < partCount else {
            for index in first { put(index, next) }
            return
          }
          let second = parts[2 * pair + 1]
          let otherNext = next + lengths
          let together = min(first.count, second.count)
          for offset in 0..<together {
            put(first.lowerBound &+ offset, next)
            put(second.lowerBound &+ offset, otherNext)
          }
          for index in (first.lowerBound + together)..<first.upperBound { put(index, next) }
          for index in (second.lowerBound + together)..<second.upperBound { put(index, otherNext) }
        }
      }
      initialized = count
    }
    values = sorted
  }

  /// The decimal digits of `value` (≥ 0; 0 for 0).
  @inline(__always)
  static func digitCount(_ value: Int64) -> Int { PowersOfTen().digitCount(value) }

  /// Numbers this long or longer have no text key: a list holding one is
  /// never taken for text order (the radix passes sort it).
  static let keyedLengths = 18

  /// A key of `value` (≥ 0, of `length` digits, fewer than
  /// ``keyedLengths``) that orders as its digits do as text: the digits
  /// padded with zeros to 17, times 32, plus their count (a prefix sorts
  /// before the longer number); below 2^62.
  @inline(__always)
  static func key(_ value: Int64, length: Int, _ powers: PowersOfTen) -> Int64 {
    (value &* powers.power(keyedLengths &- 1 &- length)) &<< 5 | Int64(length)
  }
}

/// Powers of ten 10^0…10^18 (and Int64.max past them) behind a plain
/// pointer: what telling a value's decimal length needs, without a global
/// array's checks in a hot loop. Copy it into a local before the loop.
struct PowersOfTen {
  private nonisolated(unsafe) static let shared: UnsafeMutablePointer<Int64> = {
    let table = UnsafeMutablePointer<Int64>.allocate(capacity: 20)
    var power: Int64 = 1
    for exponent in 0..<19 {
      table[exponent] = power
      power = power &* 10
    }
    table[19] = .max
    return table
  }()

  private let table = UnsafePointer(shared)

  /// 10^`exponent` (0…18).
  @inline(__always)
  func power(_ exponent: Int) -> Int64 {
    table[exponent]
  }

  /// The decimal digits of `value` (≥ 0; 0 for 0): log10 estimated from
  /// the bit length (bits · 1233 / 4096), then corrected by one compare.
  @inline(__always)
  func digitCount(_ value: Int64) -> Int {
    let bits = 64 &- value.leadingZeroBitCount
    let estimate = (bits &* 1233) &>> 12
    return estimate &+ (value >= power(estimate) ? 1 : 0)
  }
}

/// What one stretch holds: how many values of each decimal length, and
/// the text keys (``TextOrder/key(_:length:_:)``) of its first and last values and
/// whether they rise or fall anywhere in between.
struct TextSummary {
  /// How many values the stretch holds.
  let count: Int
  /// How many values of each length (repeats of the value just before
  /// left out when the summary was asked to leave them out).
  var counts = [Int](repeating: 0, count: TextOrder.lengths)
  var firstKey: Int64 = 0
  var lastKey: Int64 = 0
  var rises = false
  var falls = false

  /// Sums up `count` values from `start`, stopping early (rising and
  /// falling) as soon as a block of them shows neither order. Unless
  /// `countingRepeats`, a value equal to the one before it is left out of
  /// ``counts`` (what the stretch keeps once its adjacent repeats go).
  init(_ start: UnsafePointer<Int64>, count: Int, countingRepeats: Bool = true) {
    self.count = count
    guard count > 0 else { return }
    // Four tallies taken in turn, so that a value's count does not wait
    // for the one before it when both have the same length.
    let lengths = TextOrder.lengths
    let tallies = UnsafeMutablePointer<Int>.allocate(capacity: 4 * lengths)
    defer { tallies.deallocate() }
    tallies.initialize(repeating: 0, count: 4 * lengths)
    let powers = PowersOfTen()
    // Added to each value's tally bit: 1 counts every value.
    let everyValue = countingRepeats ? 1 : 0
    var rises: UInt64 = 0
    var falls: UInt64 = 0
    var previous: Int64 = 0
    var index = 0
    scan: while index < count {
      let end = min(count, index &+ 1024)
      while index < end {
        let value = start[index]
        let length = powers.digitCount(value)
        guard length < TextOrder.keyedLengths else {
          (rises, falls) = (1 << 63, 1 << 63)
          break scan
        }
        let key = TextOrder.key(value, length: length, powers)
        if index == 0 { (firstKey, previous) = (key, key) }
        // The signs of the step either way, without a branch.
        let step = key &- previous
        falls |= UInt64(bitPattern: step)
        rises |= UInt64(bitPattern: 0 &- step)
        // 1 when the value differs from the one before (the first does).
        let change = step | (index == 0 ? 1 : 0)
        let differs = Int(truncatingIfNeeded: UInt64(bitPattern: change | (0 &- change)) >> 63)
        tallies[(index & 3) &* lengths &+ length] &+= differs | everyValue
        previous = key
        index &+= 1
      }
      if rises >> 63 != 0 && falls >> 63 != 0 { break }
    }
    for length in 0..<lengths {
      counts[length] = tallies[length] + tallies[lengths + length] + tallies[2 * lengths + length]
        + tallies[3 * lengths + length]
    }
    lastKey = previous
    self.rises = rises >> 63 != 0
    self.falls = falls >> 63 != 0
  }
}

/// Where each stretch's values of each length go, when the stretches
/// together are in text order one way.
private struct ScatterPlan {
  /// The values are in descending text order (written from the end).
  let isFalling: Bool
  /// Where each length's values start in the sorted output.
  let starts: [Int]
  /// How many values each length has.
  let totals: [Int]

  /// The plan for values with `totals` values of each length.
  init(totals: [Int], isFalling: Bool) {
    self.isFalling = isFalling
    self.totals = totals
    var running = 0
    starts = totals.map { total in
      defer { running += total }
      return running
    }
  }

  /// The plan for stretches summed up in `summaries`, or nil when their
  /// keys rise and fall (within a stretch or across two).
  init?(_ summaries: UnsafePointer<TextSummary>, parts: Int) {
    var rises = false
    var falls = false
    var totals = [Int](repeating: 0, count: TextOrder.lengths)
    var previous: Int64? = nil
    for part in 0..<parts where summaries[part].count > 0 {
      let summary = summaries[part]
      rises = rises || summary.rises
      falls = falls || summary.falls
      if let previous {
        rises = rises || summary.firstKey > previous
        falls = falls || summary.firstKey < previous
      }
      previous = summary.lastKey
      for length in 0..<TextOrder.lengths { totals[length] += summary.counts[length] }
    }
    guard !(rises && falls) else { return nil }
    self.init(totals: totals, isFalling: falls)
  }

  /// Fills `positions` (parts × lengths: where part p writes its first
  /// value of each length), part p holding `counts[p]` values of each.
  func write(positions: UnsafeMutablePointer<Int>, counts: [[Int]]) {
    for length in 0..<TextOrder.lengths {
      var done = 0
      for part in counts.indices {
        positions[part * TextOrder.lengths + length] =
          isFalling ? starts[length] + totals[length] - 1 - done : starts[length] + done
        done += counts[part][length]
      }
    }
  }
}
