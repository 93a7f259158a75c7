#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Calls `onLine` for each physical line of `input`, without its LF or CRLF.
///
/// Skips a UTF-8 BOM. A line longer than `maxLineBytes` is reported once
/// through `onTooLong` and dropped. The pointer passed to `onLine` is only
/// valid during the call.
///
/// - Returns: The number of physical lines.
@inline(__always)
func _forEachLine(
  _ input: _ByteInput,
  maxLineBytes: Int = _maxRecordBytes,
  onLine: (UnsafePointer<UInt8>, Int, Int) throws -> Void,
  onTooLong: (Int) throws -> Void
) throws -> Int {
  var pos = try input.skipByteOrderMark()
  var lineNumber = 1
  var discarding = false
  while true {
    let base = input.base
    let end = base + input.end
    var cursor = base + pos
    while cursor < end {
      guard let found = memchr(cursor, 0x0A, end - cursor) else { break }
      let newline = found.assumingMemoryBound(to: UInt8.self)
      if discarding {
        discarding = false
      } else {
        var length = newline - cursor
        if length > 0, newline[-1] == 0x0D { length -= 1 }
        if length > maxLineBytes {
          try onTooLong(lineNumber)
        } else {
          try onLine(UnsafePointer(cursor), length, lineNumber)
        }
      }
      lineNumber += 1
      cursor = newline + 1
    }
    pos = cursor - base
    if input.isEOF {
      if pos < input.end {
        if !discarding {
          var length = input.end - pos
          if cursor[length - 1] == 0x0D { length -= 1 }
          if length > maxLineBytes {
            try onTooLong(lineNumber)
          } else {
            try onLine(UnsafePointer(cursor), length, lineNumber)
          }
        }
        lineNumber += 1
      }
      return lineNumber - 1
    }
    if !discarding, input.end - pos > maxLineBytes {
      try onTooLong(lineNumber)
      discarding = true
    }
    if discarding { pos = input.end }
    try input.refill(keepingFrom: pos)
    pos = 0
  }
}
