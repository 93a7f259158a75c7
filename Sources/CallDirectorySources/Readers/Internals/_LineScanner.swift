#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A run of whole lines cut from an input by ``_LineChunker``.
///
/// `bytes` holds complete lines, each ending in LF, except that the last
/// piece of the input may end with a line that has none. When
/// `endsWithTooLongLine` is set, one more line follows these bytes: a line
/// longer than the limit, whose bytes were dropped but for the first
/// ``_LineText/maximumBytes`` (`tooLongStart`), kept for the rejects report.
package struct _LinePiece {
  package var bytes: UnsafeBufferPointer<UInt8>
  package var endsWithTooLongLine: Bool
  package var tooLongStart = UnsafeBufferPointer<UInt8>(start: nil, count: 0)

  package init(
    bytes: UnsafeBufferPointer<UInt8>, endsWithTooLongLine: Bool,
    tooLongStart: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0)
  ) {
    self.bytes = bytes
    self.endsWithTooLongLine = endsWithTooLongLine
    self.tooLongStart = tooLongStart
  }
}

/// Cuts an input into pieces of whole lines, so the lines of one piece can
/// be parsed without the others (on another core, say).
///
/// Skips a UTF-8 BOM and rejects UTF-16/32 ones. A line whose bytes exceed
/// `maxLineBytes + 1` before its LF is too long whatever its ending; it is
/// reported through ``_LinePiece/endsWithTooLongLine`` and dropped. Shorter
/// lines are cut whole; ``_forEachLine(in:firstLine:maxLineBytes:onLine:onTooLong:)``
/// applies the exact limit (after removing a CR).
package final class _LineChunker {
  private let input: _ByteInput
  private let maxLineBytes: Int
  private var position: Int
  private var discarding = false
  private var finished = false

  package init(_ input: _ByteInput, maxLineBytes: Int = _maxRecordBytes) throws(SourceError) {
    self.input = input
    self.maxLineBytes = maxLineBytes
    position = try input.skipByteOrderMark()
  }

  /// The next piece, or nil at the end. The bytes stay valid until the next call.
  package func next() throws(SourceError) -> _LinePiece? {
    guard !finished else { return nil }
    while true {
      let start = input.base + position
      let available = input.end - position
      if discarding {
        if let found = memchr(start, 0x0A, available) {
          position += UnsafeRawPointer(found) - UnsafeRawPointer(start) + 1
          discarding = false
          continue
        }
        position = input.end
      } else if input.isEOF {
        finished = true
        position = input.end
        return available > 0 ? _LinePiece(bytes: UnsafeBufferPointer(start: start, count: available), endsWithTooLongLine: false) : nil
      } else if let length = Self.lengthThroughLastNewline(start, available) {
        position += length
        return _LinePiece(bytes: UnsafeBufferPointer(start: start, count: length), endsWithTooLongLine: false)
      } else if available > maxLineBytes + 1 {
        discarding = true
        position = input.end
        return _LinePiece(
          bytes: UnsafeBufferPointer(start: start, count: 0), endsWithTooLongLine: true,
          tooLongStart: UnsafeBufferPointer(start: start, count: min(available, _LineText.maximumBytes)))
      }
      if input.isEOF {
        finished = true
        return nil
      }
      try input.refill(keepingFrom: position)
      position = 0
    }
  }

  /// The length of `start[0..<count]` up to and including its last LF.
  private static func lengthThroughLastNewline(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int? {
    var index = count
    while index > 0 {
      index -= 1
      if start[index] == 0x0A { return index + 1 }
    }
    return nil
  }
}

/// Calls `onLine` for each line of `piece` (without its LF or CRLF),
/// numbering from `firstLine`; a line longer than `maxLineBytes` goes to
/// `onTooLong` instead, with its first bytes.
///
/// - Returns: The number of lines the piece holds.
@inline(__always)
func _forEachLine(
  in piece: _LinePiece,
  firstLine: Int,
  maxLineBytes: Int = _maxRecordBytes,
  onLine: (UnsafePointer<UInt8>, Int, Int) throws -> Void,
  onTooLong: (Int, UnsafeBufferPointer<UInt8>) throws -> Void
) rethrows -> Int {
  var lineNumber = firstLine
  if let base = piece.bytes.baseAddress {
    let end = base + piece.bytes.count
    var cursor = base
    while cursor < end {
      let newline = memchr(cursor, 0x0A, end - cursor).map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) } ?? end
      var length = newline - cursor
      if length > 0, newline[-1] == 0x0D { length -= 1 }
      if length > maxLineBytes {
        try onTooLong(lineNumber, UnsafeBufferPointer(start: cursor, count: min(length, _LineText.maximumBytes)))
      } else {
        try onLine(cursor, length, lineNumber)
      }
      lineNumber += 1
      cursor = newline + 1
    }
  }
  if piece.endsWithTooLongLine {
    try onTooLong(lineNumber, piece.tooLongStart)
    lineNumber += 1
  }
  return lineNumber - firstLine
}

/// Calls `onLine` for each physical line of `input`, without its LF or CRLF.
///
/// Skips a UTF-8 BOM. A line longer than `maxLineBytes` is reported once
/// through `onTooLong` (with its first bytes) and dropped. The pointer passed to `onLine` is only
/// valid during the call.
///
/// - Returns: The number of physical lines.
@inline(__always)
func _forEachLine(
  _ input: _ByteInput,
  maxLineBytes: Int = _maxRecordBytes,
  onLine: (UnsafePointer<UInt8>, Int, Int) throws -> Void,
  onTooLong: (Int, UnsafeBufferPointer<UInt8>) throws -> Void
) throws -> Int {
  let chunker = try _LineChunker(input, maxLineBytes: maxLineBytes)
  var lines = 0
  while let piece = try chunker.next() {
    lines += try _forEachLine(
      in: piece, firstLine: lines + 1, maxLineBytes: maxLineBytes, onLine: onLine, onTooLong: onTooLong)
  }
  return lines
}

/// The first line feed in `start..<end`, or `end`: eight bytes at a time
/// (most lines of a number list are a dozen bytes long, too short for a
/// call to `memchr` to pay).
@inline(__always)
package func _nextLineFeed(from start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>) -> UnsafePointer<UInt8> {
  var cursor = start
  while end - cursor >= 8 {
    let word = UInt64(littleEndian: UnsafeRawPointer(cursor).loadUnaligned(as: UInt64.self)) ^ 0x0A0A_0A0A_0A0A_0A0A
    // The lowest byte that was a line feed is the lowest zero byte: its
    // high bit is the lowest set here (bits above it may be set falsely).
    let zeros = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    if zeros != 0 { return cursor + (zeros.trailingZeroBitCount &>> 3) }
    cursor += 8
  }
  while cursor < end, cursor.pointee != _ASCII.lineFeed { cursor += 1 }
  return cursor
}
