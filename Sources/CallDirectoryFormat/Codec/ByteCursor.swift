import CalldirSystem

/// A bounds-checked forward reader over a byte region: the one place that
/// reads block headers from a frame's payload.
///
/// Reads return `nil` instead of running past ``end``; varints are read
/// with ``Varint/read(_:at:)`` (LEB128, at most 64 bits).
struct _ByteCursor {
  let base: UnsafeRawPointer
  let end: Int
  var position: Int

  init(base: UnsafeRawPointer, position: Int = 0, end: Int) {
    self.base = base
    self.position = position
    self.end = end
  }

  var remaining: Int { end - position }

  /// Reads one byte.
  mutating func readByte() -> UInt8? {
    guard position < end else { return nil }
    let byte = base.load(fromByteOffset: position, as: UInt8.self)
    position += 1
    return byte
  }

  /// Reads a varint; `nil` if truncated or longer than 64 bits.
  @inline(__always)
  mutating func readVarint() -> UInt64? {
    Varint.read(UnsafeRawBufferPointer(start: base, count: end), at: &position)
  }
}
