/// Room for the numbers and label ids of one bitmap or Elias–Fano block
/// (``BlobLimits/maxBlockEntries`` each), owned for the life of a reader.
final class _BlockBuffer {
  let numbers: UnsafeMutablePointer<Int64>
  let labels: UnsafeMutablePointer<UInt32>

  init() {
    numbers = .allocate(capacity: BlobLimits.maxBlockEntries)
    labels = .allocate(capacity: BlobLimits.maxBlockEntries)
  }

  deinit {
    numbers.deallocate()
    labels.deallocate()
  }
}

@available(*, unavailable)
extension _BlockBuffer: Sendable {}
