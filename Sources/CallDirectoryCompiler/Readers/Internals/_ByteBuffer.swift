#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Growable bytes that a worker reuses from one piece of input to the
/// next: room is made without zeroing it, for a read to fill.
final class _ByteBuffer {
  private(set) var base: UnsafeMutablePointer<UInt8>
  private(set) var capacity: Int
  /// Bytes in use: `base[0..<count]`.
  private(set) var count = 0

  init(capacity: Int = 1 << 16) {
    self.capacity = max(16, capacity)
    base = .allocate(capacity: self.capacity)
  }

  deinit { base.deallocate() }

  var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

  func removeAll() { count = 0 }

  /// Appends a copy of `other`.
  func append(_ other: UnsafeBufferPointer<UInt8>) {
    guard let source = other.baseAddress, !other.isEmpty else { return }
    reserve(other.count).update(from: source, count: other.count)
    count += other.count
  }

  /// Room for `extra` more bytes after `count`, uninitialized; commit what
  /// was written with ``grow(by:)``.
  func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
    if capacity - count < extra {
      let newCapacity = max(capacity * 2, count + extra)
      let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
      grown.update(from: base, count: count)
      base.deallocate()
      base = grown
      capacity = newCapacity
    }
    return base + count
  }

  /// Counts `written` more bytes, written after ``reserve(_:)``.
  func grow(by written: Int) { count += written }

  /// The index of the first `byte` in `range`, if any.
  func firstIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
    guard !range.isEmpty, let found = memchr(base + range.lowerBound, Int32(byte), range.count) else { return nil }
    return UnsafeMutablePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
  }

  /// The index of the last `byte` in `range`, if any.
  func lastIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
    var index = range.upperBound
    while index > range.lowerBound {
      index -= 1
      if base[index] == byte { return index }
    }
    return nil
  }
}

@available(*, unavailable)
extension _ByteBuffer: Sendable {}
