/// Streams the numbers of one section (blocking numbers, delta removes and
/// adds, or the numbers of an identification section).
///
/// Memory use is constant (about 260 KiB) whatever the section size.
///
///     let numbers = try reader.blocking()
///     while let number = try numbers.next() { add(number) }
///
/// For speed, fill a buffer at a time with ``next(into:)``. To walk the
/// section in O(runs) rather than O(numbers), take ``nextChunk()``: a run
/// of consecutive numbers, which the blob stores in a few bytes however
/// long it is, comes back as one range instead of being expanded.
///
///     while let chunk = try numbers.nextChunk() {
///       switch chunk {
///       case .run(let range): addRange(range)              // O(1)
///       case .numbers(let buffer): for n in buffer { add(n) }
///       }
///     }
///
/// The three calls may be mixed; each continues where the last one stopped.
public final class NumberIterator {
  private let cursor: _SectionCursor
  private var one: Int64 = 0
  private var chunkBuffer: UnsafeMutablePointer<Int64>?

  /// The most numbers a ``NumberChunk/numbers(_:)`` chunk holds.
  public static let chunkCapacity = 4096

  init(cursor: _SectionCursor) {
    self.cursor = cursor
  }

  deinit {
    chunkBuffer?.deallocate()
  }

  /// The section being read.
  public var section: BlobSection { cursor.info.section }
  /// The number of entries in the section.
  public var count: UInt64 { cursor.info.entryCount }
  /// The number of entries returned so far (a run counts all its numbers).
  public var delivered: UInt64 { cursor.delivered }

  /// The next number, or `nil` after the last one.
  /// - Throws: `BlobError` on corrupt or truncated data (including a
  ///   section checksum mismatch detected at the end).
  public func next() throws(BlobError) -> Int64? {
    try withUnsafeMutablePointer(to: &one) { (pointer) throws(BlobError) -> Int64? in
      try cursor.next(numbers: pointer, labels: nil, capacity: 1) == 1 ? pointer.pointee : nil
    }
  }

  /// Fills `buffer` from the start with the next numbers.
  /// - Returns: How many numbers were written; 0 means the section is done.
  /// - Throws: `BlobError` on corrupt or truncated data.
  public func next(into buffer: UnsafeMutableBufferPointer<Int64>) throws(BlobError) -> Int {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    return try cursor.next(numbers: base, labels: nil, capacity: buffer.count)
  }

  /// The next piece of the section: a whole run block as a range, or up to
  /// ``chunkCapacity`` numbers of other blocks; `nil` after the last one.
  ///
  /// Every frame is checked as by ``next(into:)`` (its CRC before any of
  /// its numbers, the section's count and checksum at the end).
  /// - Returns: A chunk whose buffer stays valid until the next call on
  ///   this iterator; consecutive chunks may join (a run can follow numbers
  ///   that end just below it).
  /// - Throws: `BlobError` on corrupt or truncated data.
  /// - Complexity: O(1) for a run, whatever its length.
  public func nextChunk() throws(BlobError) -> NumberChunk? {
    let buffer = chunkBuffer ?? .allocate(capacity: NumberIterator.chunkCapacity)
    chunkBuffer = buffer
    switch try cursor.nextChunk(numbers: buffer, labels: nil, capacity: NumberIterator.chunkCapacity) {
    case .run(let first, let count, _):
      return .run(Int64(bitPattern: first)...Int64(bitPattern: first &+ (count &- 1)))
    case .values(let count):
      return .numbers(UnsafeBufferPointer(start: buffer, count: count))
    case .end:
      return nil
    }
  }
}

/// A piece of a number section from ``NumberIterator/nextChunk()``.
public enum NumberChunk {
  /// Every number of the range: a run block, returned without expanding it.
  case run(ClosedRange<Int64>)
  /// Strictly ascending numbers, valid until the next call on the iterator.
  case numbers(UnsafeBufferPointer<Int64>)

  /// How many numbers the chunk holds.
  public var count: UInt64 {
    switch self {
    case .run(let range): UInt64(range.upperBound - range.lowerBound) + 1
    case .numbers(let buffer): UInt64(buffer.count)
    }
  }
}

/// One identification entry as stored: the number and its label id.
public struct IdentificationRecord: Sendable, Hashable {
  /// The phone number.
  public var number: Int64
  /// The index of the label in the blob's label dictionary.
  public var labelID: UInt32

  /// Creates a record.
  public init(number: Int64, labelID: UInt32) {
    self.number = number
    self.labelID = labelID
  }
}

/// Streams the entries of an identification section (or delta
/// identification adds) as numbers with label ids.
///
/// Resolve label ids with ``BlobReader/label(_:)``. Like
/// ``NumberIterator``, it reads an entry, a buffer or a chunk at a time;
/// ``nextChunk()`` returns a run of consecutive numbers sharing one label
/// as one range.
public final class IdentificationIterator {
  private let cursor: _SectionCursor
  private var oneNumber: Int64 = 0
  private var oneLabel: UInt32 = 0
  private var chunkNumbers: UnsafeMutablePointer<Int64>?
  private var chunkLabels: UnsafeMutablePointer<UInt32>?

  init(cursor: _SectionCursor) {
    self.cursor = cursor
  }

  deinit {
    chunkNumbers?.deallocate()
    chunkLabels?.deallocate()
  }

  /// The section being read.
  public var section: BlobSection { cursor.info.section }
  /// The number of entries in the section.
  public var count: UInt64 { cursor.info.entryCount }
  /// The number of entries returned so far (a run counts all its entries).
  public var delivered: UInt64 { cursor.delivered }

  /// The next entry, or `nil` after the last one.
  /// - Throws: `BlobError` on corrupt or truncated data.
  public func next() throws(BlobError) -> IdentificationRecord? {
    let got = try withUnsafeMutablePointer(to: &oneNumber) { (number) throws(BlobError) -> Int in
      try withUnsafeMutablePointer(to: &oneLabel) { (label) throws(BlobError) -> Int in
        try cursor.next(numbers: number, labels: label, capacity: 1)
      }
    }
    return got == 1 ? IdentificationRecord(number: oneNumber, labelID: oneLabel) : nil
  }

  /// Fills `numbers` and `labelIDs` from the start with the next entries.
  /// - Returns: How many entries were written (at most the smaller buffer's
  ///   count); 0 means the section is done.
  /// - Throws: `BlobError` on corrupt or truncated data.
  public func next(
    numbers: UnsafeMutableBufferPointer<Int64>, labelIDs: UnsafeMutableBufferPointer<UInt32>
  ) throws(BlobError) -> Int {
    let capacity = min(numbers.count, labelIDs.count)
    guard let numberBase = numbers.baseAddress, let labelBase = labelIDs.baseAddress, capacity > 0
    else { return 0 }
    return try cursor.next(numbers: numberBase, labels: labelBase, capacity: capacity)
  }

  /// The next piece of the section: a whole run block (consecutive numbers
  /// with one label) as a range, or up to ``NumberIterator/chunkCapacity``
  /// entries of other blocks; `nil` after the last one.
  /// - Returns: A chunk whose buffers stay valid until the next call on
  ///   this iterator.
  /// - Throws: `BlobError` on corrupt or truncated data.
  /// - Complexity: O(1) for a run, whatever its length.
  public func nextChunk() throws(BlobError) -> IdentificationChunk? {
    let capacity = NumberIterator.chunkCapacity
    let numbers = chunkNumbers ?? .allocate(capacity: capacity)
    let labels = chunkLabels ?? .allocate(capacity: capacity)
    chunkNumbers = numbers
    chunkLabels = labels
    switch try cursor.nextChunk(numbers: numbers, labels: labels, capacity: capacity) {
    case .run(let first, let count, let label):
      return .run(Int64(bitPattern: first)...Int64(bitPattern: first &+ (count &- 1)), labelID: label)
    case .values(let count):
      return .entries(
        numbers: UnsafeBufferPointer(start: numbers, count: count),
        labelIDs: UnsafeBufferPointer(start: labels, count: count))
    case .end:
      return nil
    }
  }
}

/// A piece of an identification section from
/// ``IdentificationIterator/nextChunk()``.
public enum IdentificationChunk {
  /// Every number of the range, each with the label `labelID`: a run
  /// block, returned without expanding it.
  case run(ClosedRange<Int64>, labelID: UInt32)
  /// Strictly ascending numbers and their label ids (`labelIDs[i]` for
  /// `numbers[i]`), valid until the next call on the iterator.
  case entries(numbers: UnsafeBufferPointer<Int64>, labelIDs: UnsafeBufferPointer<UInt32>)

  /// How many entries the chunk holds.
  public var count: UInt64 {
    switch self {
    case .run(let range, _): UInt64(range.upperBound - range.lowerBound) + 1
    case .entries(let numbers, _): UInt64(numbers.count)
    }
  }
}

@available(*, unavailable)
extension NumberIterator: Sendable {}

@available(*, unavailable)
extension IdentificationIterator: Sendable {}
