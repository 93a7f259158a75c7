import CalldirSystem

/// How a stretch of a source's numbers runs, in file order: whether it
/// ever rises or falls, as numbers and as text, and how many numbers of
/// each decimal length it holds.
///
/// The workers that parse a source sum up each piece they parse while its
/// numbers are in the cache (``summarize(_:count:)``); the pieces' sums
/// join in file order (``append(_:)``), so a source that came sorted,
/// reverse sorted or sorted as text is put in order without a pass of its
/// own to find out which. A piece that runs one way (either way, as numbers
/// or as text) loses its adjacent repeats on the way, and in such a source
/// every repeat is adjacent to its first occurrence: sorting it takes no
/// deduplication.
struct SourceOrder: Sendable {
  /// How many numbers the stretch holds.
  private(set) var count = 0
  private(set) var first: Int64 = 0
  private(set) var last: Int64 = 0
  /// Whether a step between neighbours goes up, or down (repeats do neither).
  private(set) var rises = false
  private(set) var falls = false
  /// The same for the numbers' text keys (``TextOrder/key(_:length:_:)``);
  /// a number too long for a key sets both.
  private(set) var textRises = false
  private(set) var textFalls = false
  private(set) var firstKey: Int64 = 0
  private(set) var lastKey: Int64 = 0
  /// How many numbers of each decimal length (complete when ``isTextOrdered``).
  private(set) var lengths = [Int](repeating: 0, count: TextOrder.lengths)

  /// Never falls: sorted ascending (and, repeats removed, strictly).
  var isAscending: Bool { !falls }
  /// Never rises.
  var isDescending: Bool { !rises }
  /// Sorted as text one way or the other.
  var isTextOrdered: Bool { !(textRises && textFalls) }
  /// Runs one way as numbers or as text: its adjacent repeats were removed.
  var isOrdered: Bool { isAscending || isDescending || isTextOrdered }

  /// Sums up the `count` numbers at `base` (all at least 1) and, when they
  /// run one way, removes their adjacent repeats in place.
  /// - Returns: The summary of the numbers kept, and how many there are
  ///   (at the front of `base`).
  static func summarize(_ base: UnsafeMutablePointer<Int64>, count: Int) -> (order: SourceOrder, kept: Int) {
    var order = SourceOrder()
    guard count > 0 else { return (order, 0) }
    (order.rises, order.falls) = numericSteps(base, count: count)
    let powers = PowersOfTen()
    var kept = count
    if !(order.rises && order.falls) {
      kept = removeAdjacentRepeats(base, count: count)
      let firstLength = powers.digitCount(base[0])
      if firstLength == powers.digitCount(base[kept - 1]) && firstLength < TextOrder.keyedLengths {
        // One length: text order is numeric order.
        order.lengths[firstLength] = kept
        (order.textRises, order.textFalls) = (order.rises, order.falls)
      } else {
        order.take(TextSummary(base, count: kept))
      }
    } else {
      // Counted as the numbers kept once their adjacent repeats go, so
      // that a text order is summed up in one pass.
      let text = TextSummary(base, count: count, countingRepeats: false)
      if !(text.rises && text.falls) {
        kept = removeAdjacentRepeats(base, count: count)
        order.take(text)
      } else {
        (order.textRises, order.textFalls) = (true, true)
      }
    }
    order.count = kept
    order.first = base[0]
    order.last = base[kept - 1]
    order.firstKey = Self.textKey(order.first, powers)
    order.lastKey = Self.textKey(order.last, powers)
    return (order, kept)
  }

  /// Adds the summary of the stretch that follows this one in the file.
  mutating func append(_ next: SourceOrder) {
    guard next.count > 0 else { return }
    guard count > 0 else {
      self = next
      return
    }
    rises = rises || next.rises || next.first > last
    falls = falls || next.falls || next.first < last
    textRises = textRises || next.textRises || next.firstKey > lastKey
    textFalls = textFalls || next.textFalls || next.firstKey < lastKey
    for length in lengths.indices { lengths[length] += next.lengths[length] }
    count += next.count
    last = next.last
    lastKey = next.lastKey
  }

  /// The summary of the stretch without its first number, a repeat of the
  /// number before the stretch. Its first number (and text key) stay: the
  /// step from the number before to the second number is the step from
  /// the first to the second, which the flags already hold.
  func droppingFirst() -> SourceOrder {
    var rest = self
    let length = PowersOfTen().digitCount(first)
    if length < TextOrder.lengths { rest.lengths[length] = max(0, rest.lengths[length] - 1) }
    rest.count -= 1
    return rest
  }

  /// The text key of `value`, or one that breaks text order (with the
  /// flags set by the summary) for a number too long to have one.
  private static func textKey(_ value: Int64, _ powers: PowersOfTen) -> Int64 {
    let length = powers.digitCount(value)
    return length < TextOrder.keyedLengths ? TextOrder.key(value, length: length, powers) : .max
  }

  /// Takes the text flags and length counts of a summary.
  private mutating func take(_ text: TextSummary) {
    (textRises, textFalls) = (text.rises, text.falls)
    lengths = text.counts
  }

  /// Whether some step between the `count` numbers at `base` (all at
  /// least 0) rises, and whether one falls; stops at the first block that
  /// shows both.
  static func numericSteps(_ base: UnsafePointer<Int64>, count: Int) -> (rises: Bool, falls: Bool) {
    var rises: UInt64 = 0
    var falls: UInt64 = 0
    var index = 1
    while index < count {
      let end = min(count, index &+ 1024)
      // Each step from the loaded pair, folded into two words without a
      // branch (the numbers are at least 0, so a difference's sign tells).
      while index < end {
        let step = base[index] &- base[index &- 1]
        falls |= UInt64(bitPattern: step)
        rises |= UInt64(bitPattern: 0 &- step)
        index &+= 1
      }
      if falls >> 63 != 0 && rises >> 63 != 0 { break }
    }
    return (rises >> 63 != 0, falls >> 63 != 0)
  }

  /// Removes repeats of the number just before, in place; returns how
  /// many numbers are left at the front.
  static func removeAdjacentRepeats(_ base: UnsafeMutablePointer<Int64>, count: Int) -> Int {
    var write = 1
    var last = base[0]
    for read in 1..<max(1, count) {
      let value = base[read]
      base[write] = value
      // Kept when it differs from the last one, without a branch.
      let difference = UInt64(bitPattern: value ^ last)
      write &+= Int(truncatingIfNeeded: (difference | (0 &- difference)) >> 63)
      last = value
    }
    return write
  }
}
