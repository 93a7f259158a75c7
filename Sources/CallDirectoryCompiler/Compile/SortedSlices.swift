import CalldirSystem

/// Ascending unique numbers held as slices of one array, in order: the
/// slices one after another ascend, though the array as a whole need not.
///
/// A list sorted as text is sorted by taking each length's numbers in turn
/// (``TextOrder``); when its pieces were laid out by length as they were
/// parsed, those numbers already lie in slices, and the list is handed on as
/// the slices in order instead of being copied into a sorted array.
struct SortedSlices: Sendable {
  /// The numbers, of which `slices` hold the sorted ones.
  private(set) var numbers: [Int64]
  /// Slices of `numbers`: not empty, none overlapping; ascending one after another.
  private(set) var slices: [Range<Int>]

  /// `sorted` (ascending, unique) as a single slice.
  init(_ sorted: [Int64] = []) {
    numbers = sorted
    slices = sorted.isEmpty ? [] : [0..<sorted.count]
  }

  /// The numbers of `slices` of `numbers`, in the slices' order (which must
  /// ascend, each number once); empty slices are left out, and a slice
  /// that starts where the one before ends joins it.
  init(_ numbers: [Int64], slices: some Sequence<Range<Int>>) {
    self.numbers = numbers
    self.slices = []
    for slice in slices where !slice.isEmpty {
      if let last = self.slices.last, last.upperBound == slice.lowerBound {
        self.slices[self.slices.count - 1] = last.lowerBound..<slice.upperBound
      } else {
        self.slices.append(slice)
      }
    }
  }

  /// How many numbers the slices hold.
  var count: Int { slices.reduce(0) { $0 + $1.count } }

  var isEmpty: Bool { slices.isEmpty }

  /// Calls `body` with each slice in order.
  func forEachSlice(_ body: (UnsafeBufferPointer<Int64>) throws -> Void) rethrows {
    try numbers.withUnsafeBufferPointer { all in
      for slice in slices { try body(UnsafeBufferPointer(rebasing: all[slice])) }
    }
  }

  /// Empties the slices and gives their array's memory, emptied, for reuse.
  mutating func takeBuffer() -> [Int64] {
    var buffer: [Int64] = []
    swap(&buffer, &numbers)
    slices = []
    buffer.removeAll(keepingCapacity: true)
    return buffer
  }

  /// The numbers in one ascending array: `numbers` itself when one slice
  /// covers it, otherwise a copy.
  func contiguous() -> [Int64] {
    if slices.count == 1 && slices[0] == numbers.indices { return numbers }
    if slices.isEmpty { return [] }
    return [Int64](unsafeUninitializedCapacity: count) { buffer, initialized in
      initialized = 0
      forEachSlice { slice in
        guard let source = slice.baseAddress, let target = buffer.baseAddress else { return }
        (target + initialized).initialize(from: source, count: slice.count)
        initialized += slice.count
      }
    }
  }
}
