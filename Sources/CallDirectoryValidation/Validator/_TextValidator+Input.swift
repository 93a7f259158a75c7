#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CalldirSystem

extension _TextValidator {
  /// Validates every line of `input`, front to back, from the bytes it
  /// has buffered on: complete lines go to ``consume(_:_:)`` straight from
  /// the input's window, a line longer than the limit is reported and
  /// skipped, and the last line may lack its line feed.
  ///
  /// Memory stays bounded: the window never keeps more than one partial
  /// line of at most ``ValidationOptions/maxLineLength`` bytes plus one read.
  /// - Throws: ``FileError`` when reading fails.
  mutating func consumeLines(of input: ChunkedInput) throws(FileError) {
    var start = 0  // first byte of the window not yet consumed
    var scanFrom = 0  // first byte of the window not yet searched for a line feed
    var skipping = false  // inside a line that was too long
    while true {
      let base = input.base
      let end = input.end
      if skipping {
        if let newline = memchr(base + scanFrom, 0x0A, end - scanFrom) {
          start = UnsafeMutablePointer(newline.assumingMemoryBound(to: UInt8.self)) - base + 1
          scanFrom = start
          skipping = false
        } else {
          start = end
          scanFrom = end
        }
      }
      if !skipping {
        if let last = Self.lastLineFeed(in: base, from: scanFrom, to: end) {
          consume(base + start, base + last + 1)
          start = last + 1
        }
        scanFrom = end
        if end - start > maxLineLength {
          skipLongLine()
          skipping = true
          start = end
        }
      }
      if input.isEOF { break }
      let kept = start
      try input.refill(keepingFrom: kept)
      scanFrom -= kept
      start = 0
    }
    let rest = input.end - start
    guard !skipping, rest > 0 else { return }
    // The last line has no line feed: consume it with one appended.
    let line = UnsafeMutablePointer<UInt8>.allocate(capacity: rest + 1)
    defer { line.deallocate() }
    line.update(from: input.base + start, count: rest)
    line[rest] = 0x0A
    consume(line, line + rest + 1)
  }

  /// The position of the last LF in `base[from..<to]`.
  private static func lastLineFeed(in base: UnsafeMutablePointer<UInt8>, from: Int, to: Int) -> Int? {
    var index = to - 1
    while index >= from {
      if base[index] == 0x0A { return index }
      index -= 1
    }
    return nil
  }
}
