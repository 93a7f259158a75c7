#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import CalldirHost

/// A run of whole lines cut from an input by ``_LineChunker``
/// (``LineBlock``): when `endsWithTooLongLine` is set, one more line
/// follows its bytes, a line longer than the limit, whose bytes were
/// dropped but for the first ``_LineText/maximumBytes`` (`tooLongStart`),
/// kept for the rejects report.
package typealias _LinePiece = LineBlock

/// Cuts a source into pieces of whole lines (``LineBlockReader``), so the
/// lines of one piece can be parsed without the others (on another core,
/// say).
///
/// Skips a UTF-8 BOM and rejects UTF-16/32 ones. A line whose bytes exceed
/// `maxLineBytes + 1` before its LF is too long whatever its ending; it is
/// reported through ``LineBlock/endsWithTooLongLine`` and dropped. Shorter
/// lines are cut whole; ``_forEachLine(in:firstLine:maxLineBytes:onLine:onTooLong:)``
/// applies the exact limit (after removing a CR).
package final class _LineChunker {
  private let blocks: LineBlockReader<_ByteInput>

  package init(_ input: _ByteInput, maxLineBytes: Int = _maxRecordBytes) throws(SourceError) {
    blocks = LineBlockReader(
      input, startingAt: try input.skipByteOrderMark(), maxLineBytes: maxLineBytes + 1,
      tooLongLines: .report(keepingFirst: _LineText.maximumBytes))
  }

  /// The next piece, or nil at the end. The bytes stay valid until the next call.
  package func next() throws(SourceError) -> _LinePiece? {
    try blocks.next()
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

/// The first line feed in `start..<end`, or `end`
/// (``LineBlock/nextLineFeed(from:end:)``).
@inline(__always)
package func _nextLineFeed(from start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>) -> UnsafePointer<UInt8> {
  LineBlock.nextLineFeed(from: start, end: end)
}
