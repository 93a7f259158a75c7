#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

import CalldirSystem
import UnicodeText

/// UTF-8 converted from a source's raw bytes piece by piece (a source's
/// `encoding`), so that readers see UTF-8 without the file being loaded.
///
/// Same contract as ``ChunkedInput``: the unconsumed bytes are
/// `base[0..<end]` after each ``refill(keepingFrom:raw:)``, which appends at
/// least one byte or sets ``isEOF``.
final class _TranscodedBuffer {
  private let transcoder: TextTranscoder
  private let chunkSize: Int
  private(set) var base: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  private(set) var end = 0
  private(set) var isEOF = false
  /// The first raw byte not yet given to the converter.
  private var rawPosition = 0

  init(transcoder: TextTranscoder, chunkSize: Int) {
    self.transcoder = transcoder
    self.chunkSize = max(chunkSize, 16)
    capacity = self.chunkSize * 4
    base = .allocate(capacity: capacity)
  }

  deinit {
    base.deallocate()
  }

  /// Moves `base[keep..<end]` to the front and converts more of `raw`.
  func refill(keepingFrom keep: Int, raw: ChunkedInput) throws(FileError) {
    let remaining = end - keep
    if keep > 0, remaining > 0 { memmove(base, base + keep, remaining) }
    end = remaining
    let before = end
    while end == before, !isEOF {
      // One raw chunk converts to at most 4 bytes per byte (UTF-8 from any
      // single- or multibyte set); keep that much room.
      reserve(chunkSize * 4)
      if rawPosition >= raw.end, !raw.isEOF {
        try raw.refill(keepingFrom: rawPosition)
        rawPosition = 0
      }
      let flush = raw.isEOF
      let input = UnsafeBufferPointer(start: raw.base + rawPosition, count: raw.end - rawPosition)
      let output = UnsafeMutableBufferPointer(start: base + end, count: capacity - end)
      do {
        let step = try transcoder.convert(input, into: output, flush: flush)
        rawPosition += step.consumed
        end += step.produced
        if flush, !step.needsMoreRoom, rawPosition >= raw.end { isEOF = true }
      } catch {
        // The input ended inside a multibyte sequence: one U+FFFD.
        reserve(3)
        for byte: UInt8 in [0xEF, 0xBF, 0xBD] {
          base[end] = byte
          end += 1
        }
        isEOF = true
      }
    }
  }

  /// Grows the buffer so that `room` bytes fit after `end`.
  private func reserve(_ room: Int) {
    guard capacity - end < room else { return }
    let newCapacity = max(capacity * 2, end + room)
    let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    grown.update(from: base, count: end)
    base.deallocate()
    base = grown
    capacity = newCapacity
  }
}
