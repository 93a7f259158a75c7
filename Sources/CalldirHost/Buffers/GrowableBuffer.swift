#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Growable storage owned by one thread at a time and reused from one
/// piece of work to the next (a worker's bytes read, a job's output, its
/// numbers): room is made without initializing it, for a read or a loop to
/// fill, and the hot loops write through ``base`` and move ``count``.
///
/// Buffers that threads fill side by side keep their hot fields (``base``,
/// ``count``) on cache lines of their own, so that one thread's writes do
/// not stall another's.
///
///     let output = ByteBuffer()
///     let room = output.reserve(24)   // room for 24 more bytes after count
///     output.count += write(to: room)
public final class GrowableBuffer<Element: BitwiseCopyable> {
  private let leadingPadding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
  /// The storage: `base[0..<count]` in use, room up to ``capacity``.
  public private(set) var base: UnsafeMutablePointer<Element>
  /// How many elements fit before the storage must grow.
  public private(set) var capacity: Int
  /// Elements in use, `base[0..<count]`: raise it past what was written
  /// after ``reserve(_:)``, lower it to drop elements at the end.
  public var count = 0
  private let trailingPadding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

  /// Empty storage with room for `capacity` elements (at least 16).
  public init(capacity: Int = 1 << 12) {
    self.capacity = max(16, capacity)
    base = .allocate(capacity: self.capacity)
  }

  deinit { base.deallocate() }

  /// The elements in use.
  @inlinable public var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

  /// Drops every element, keeping the storage.
  @inlinable public func removeAll() { count = 0 }

  /// Keeps the first `kept` elements (no more than there are).
  @inlinable public func truncate(to kept: Int) { count = min(count, max(0, kept)) }

  /// Counts `written` more elements, written after ``reserve(_:)``.
  @inlinable public func grow(by written: Int) { count &+= written }

  /// Room for `extra` more elements after ``count``, uninitialized (the
  /// storage doubles, or more, when it must grow).
  @inlinable @discardableResult
  public func reserve(_ extra: Int) -> UnsafeMutablePointer<Element> {
    if capacity &- count < extra { makeRoom(count + extra) }
    return base + count
  }

  /// Appends a copy of `other`.
  @inlinable public func append(_ other: UnsafeBufferPointer<Element>) {
    guard let source = other.baseAddress, !other.isEmpty else { return }
    reserve(other.count).update(from: source, count: other.count)
    count &+= other.count
  }

  @usableFromInline func makeRoom(_ needed: Int) {
    var newCapacity = capacity * 2
    while newCapacity < needed { newCapacity *= 2 }
    let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
    grown.update(from: base, count: count)
    base.deallocate()
    base = grown
    capacity = newCapacity
  }
}

/// Bytes: read from an input, or written for an output.
public typealias ByteBuffer = GrowableBuffer<UInt8>

extension GrowableBuffer where Element == UInt8 {
  /// The index of the first `byte` in `range`, if any.
  public func firstIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
    guard !range.isEmpty, let found = memchr(base + range.lowerBound, Int32(byte), range.count) else { return nil }
    return UnsafeMutablePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
  }

  /// The index of the last `byte` in `range`, if any.
  public func lastIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
    var index = range.upperBound
    while index > range.lowerBound {
      index -= 1
      if base[index] == byte { return index }
    }
    return nil
  }
}

@available(*, unavailable)
extension GrowableBuffer: Sendable {}
