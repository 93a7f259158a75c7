import CallDirectoryFormat
import Dispatch
import Synchronization

/// Decodes a ``NumberIterator`` on a background thread into a small ring of
/// chunks, so a consumer merging two streams decodes them on two cores.
///
/// Memory is constant (``slotCount`` chunks of ``chunkCapacity`` numbers).
/// Only the producer thread touches the iterator until ``stop()`` returns;
/// the semaphores order every hand-over of a chunk, which is why the class
/// may be `@unchecked Sendable`.
final class PrefetchingNumbers: @unchecked Sendable {
  static let slotCount = 3
  static let chunkCapacity = 1 << 16

  private let iterator: NumberIterator
  private let storage: UnsafeMutablePointer<Int64>
  private var counts = [Int](repeating: 0, count: PrefetchingNumbers.slotCount)
  private var errors = [(any Error)?](repeating: nil, count: PrefetchingNumbers.slotCount)
  /// Chunks decoded and not yet taken.
  private let ready = DispatchSemaphore(value: 0)
  /// Slots the producer may fill.
  private let free = DispatchSemaphore(value: PrefetchingNumbers.slotCount)
  private let done = DispatchGroup()
  private let stopping = Atomic<Bool>(false)
  private var stopped = false
  /// The slot the consumer holds (released when it asks for the next).
  private var held = -1
  private var takeSlot = 0
  private var ended = false

  /// Starts decoding `iterator` in the background.
  init(_ iterator: NumberIterator) {
    self.iterator = iterator
    storage = .allocate(capacity: PrefetchingNumbers.slotCount * PrefetchingNumbers.chunkCapacity)
    done.enter()
    DispatchQueue.global().async { [self] in
      produce()
      done.leave()
    }
  }

  deinit {
    stop()
    storage.deallocate()
  }

  /// The next decoded chunk (empty at the end). The buffer stays valid
  /// until the next call.
  /// - Throws: The iterator's error, in stream order.
  func next() throws -> UnsafeBufferPointer<Int64> {
    if ended { return UnsafeBufferPointer(start: nil, count: 0) }
    if held >= 0 {
      held = -1
      free.signal()
    }
    ready.wait()
    let slot = takeSlot
    takeSlot = (takeSlot + 1) % PrefetchingNumbers.slotCount
    if let error = errors[slot] {
      ended = true
      throw error
    }
    let count = counts[slot]
    if count == 0 { ended = true }
    held = slot
    return UnsafeBufferPointer(start: storage + slot * PrefetchingNumbers.chunkCapacity, count: count)
  }

  /// Stops the producer and waits for it; idempotent.
  func stop() {
    guard !stopped else { return }
    stopped = true
    stopping.store(true, ordering: .releasing)
    free.signal()
    done.wait()
  }

  private func produce() {
    var slot = 0
    while true {
      free.wait()
      if stopping.load(ordering: .acquiring) { return }
      let start = storage + slot * PrefetchingNumbers.chunkCapacity
      var filled = 0
      var failure: (any Error)?
      do {
        while filled < PrefetchingNumbers.chunkCapacity {
          let got = try iterator.next(
            into: UnsafeMutableBufferPointer(start: start + filled, count: PrefetchingNumbers.chunkCapacity - filled))
          if got == 0 { break }
          filled += got
        }
      } catch {
        failure = error
      }
      counts[slot] = filled
      errors[slot] = failure
      ready.signal()
      if filled == 0 || failure != nil { return }
      slot = (slot + 1) % PrefetchingNumbers.slotCount
    }
  }
}
