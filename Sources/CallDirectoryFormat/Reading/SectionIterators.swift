/// Streams the numbers of one section (blocking numbers, delta removes and
/// adds, or the numbers of an identification section).
///
/// Memory use is constant (about 260 KiB) whatever the section size.
///
///     let numbers = try reader.blocking()
///     while let number = try numbers.next() { add(number) }
///
/// For speed, fill a buffer at a time with ``next(into:)``.
public final class NumberIterator {
  private let cursor: _SectionCursor
  private var one: Int64 = 0

  init(cursor: _SectionCursor) {
    self.cursor = cursor
  }

  /// The section being read.
  public var section: BlobSection { cursor.info.section }
  /// The number of entries in the section.
  public var count: UInt64 { cursor.info.entryCount }

  /// The next number, or `nil` after the last one.
  /// - Throws: `BlobError` on corrupt or truncated data (including a
  ///   section checksum mismatch detected at the end).
  public func next() throws -> Int64? {
    try withUnsafeMutablePointer(to: &one) { pointer in
      try cursor.next(numbers: pointer, labels: nil, capacity: 1) == 1 ? pointer.pointee : nil
    }
  }

  /// Fills `buffer` from the start with the next numbers.
  /// - Returns: How many numbers were written; 0 means the section is done.
  /// - Throws: `BlobError` on corrupt or truncated data.
  public func next(into buffer: UnsafeMutableBufferPointer<Int64>) throws -> Int {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    return try cursor.next(numbers: base, labels: nil, capacity: buffer.count)
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
/// Resolve label ids with ``BlobReader/label(_:)``.
public final class IdentificationIterator {
  private let cursor: _SectionCursor
  private var oneNumber: Int64 = 0
  private var oneLabel: UInt32 = 0

  init(cursor: _SectionCursor) {
    self.cursor = cursor
  }

  /// The section being read.
  public var section: BlobSection { cursor.info.section }
  /// The number of entries in the section.
  public var count: UInt64 { cursor.info.entryCount }

  /// The next entry, or `nil` after the last one.
  /// - Throws: `BlobError` on corrupt or truncated data.
  public func next() throws -> IdentificationRecord? {
    let got = try withUnsafeMutablePointer(to: &oneNumber) { number in
      try withUnsafeMutablePointer(to: &oneLabel) { label in
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
  ) throws -> Int {
    let capacity = min(numbers.count, labelIDs.count)
    guard let numberBase = numbers.baseAddress, let labelBase = labelIDs.baseAddress, capacity > 0
    else { return 0 }
    return try cursor.next(numbers: numberBase, labels: labelBase, capacity: capacity)
  }
}

@available(*, unavailable)
extension NumberIterator: Sendable {}

@available(*, unavailable)
extension IdentificationIterator: Sendable {}
