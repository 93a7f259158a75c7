#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Growable storage that a worker reuses from one piece of input to the
/// next: room is made without initializing it, for a read or a loop to
/// fill, and the hot loops write through a plain pointer.
package final class _GrowableBuffer<Element: BitwiseCopyable> {
  package private(set) var base: UnsafeMutablePointer<Element>
  package private(set) var capacity: Int
  /// Elements in use: `base[0..<count]`.
  package private(set) var count = 0

  package init(capacity: Int = 1 << 12) {
    self.capacity = max(16, capacity)
    base = .allocate(capacity: self.capacity)
  }

  deinit { base.deallocate() }

  package var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

  package func removeAll() { count = 0 }

  /// Appends a copy of `other`.
  package func append(_ other: UnsafeBufferPointer<Element>) {
    guard let source = other.baseAddress, !other.isEmpty else { return }
    reserve(other.count).update(from: source, count: other.count)
    count += other.count
  }

  /// Room for `extra` more elements after `count`, uninitialized; count
  /// what was written with ``grow(by:)``.
  package func reserve(_ extra: Int) -> UnsafeMutablePointer<Element> {
    if capacity - count < extra {
      let newCapacity = max(capacity * 2, count + extra)
      let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
      grown.update(from: base, count: count)
      base.deallocate()
      base = grown
      capacity = newCapacity
    }
    return base + count
  }

  /// Counts `written` more elements, written after ``reserve(_:)``.
  package func grow(by written: Int) { count += written }

  /// Keeps the first `kept` elements (no more than there are).
  package func truncate(to kept: Int) { count = min(count, max(0, kept)) }
}

extension _GrowableBuffer where Element == UInt8 {
  /// The index of the first `byte` in `range`, if any.
  package func firstIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
    guard !range.isEmpty, let found = memchr(base + range.lowerBound, Int32(byte), range.count) else { return nil }
    return UnsafeMutablePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
  }

  /// The index of the last `byte` in `range`, if any.
  package func lastIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
    var index = range.upperBound
    while index > range.lowerBound {
      index -= 1
      if base[index] == byte { return index }
    }
    return nil
  }
}

/// Bytes read from a source, reused piece after piece.
package typealias _ByteBuffer = _GrowableBuffer<UInt8>

@available(*, unavailable)
extension _GrowableBuffer: Sendable {}
