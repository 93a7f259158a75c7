/// Ascending, disjoint ranges of numbers, appended in order; a range that
/// continues the last one joins it. The ``BlockingMerge``'s output: an
/// append is a few instructions (no copy-on-write check), since a merge
/// appends once per number only one side holds.
final class _RangeBuffer {
  private var storage: UnsafeMutablePointer<ClosedRange<Int64>>
  private var capacity: Int
  /// How many ranges it holds.
  private(set) var count = 0
  /// How many numbers the ranges hold.
  private(set) var numbers = 0

  init() {
    capacity = 1024
    storage = .allocate(capacity: capacity)
  }

  deinit {
    storage.deinitialize(count: count)
    storage.deallocate()
  }

  /// The ranges, ascending; valid until the next change.
  var ranges: UnsafeBufferPointer<ClosedRange<Int64>> { UnsafeBufferPointer(start: storage, count: count) }

  /// Appends `low...high`, above every range so far.
  @inline(__always)
  func append(_ low: Int64, _ high: Int64) {
    numbers &+= Int(high &- low) &+ 1
    if count > 0 && storage[count &- 1].upperBound &+ 1 == low {
      storage[count &- 1] = storage[count &- 1].lowerBound...high
      return
    }
    if count == capacity { grow() }
    (storage + count).initialize(to: low...high)
    count &+= 1
  }

  /// Empties it, keeping its storage.
  func removeAll() {
    storage.deinitialize(count: count)
    count = 0
    numbers = 0
  }

  /// Empties it and gives its storage back.
  func release() {
    removeAll()
    storage.deallocate()
    capacity = 16
    storage = .allocate(capacity: capacity)
  }

  private func grow() {
    let larger = UnsafeMutablePointer<ClosedRange<Int64>>.allocate(capacity: capacity * 2)
    larger.moveInitialize(from: storage, count: count)
    storage.deallocate()
    storage = larger
    capacity *= 2
  }
}

@available(*, unavailable)
extension _RangeBuffer: Sendable {}
