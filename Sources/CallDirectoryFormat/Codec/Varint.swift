/// LEB128 unsigned varints: 7 bits per byte, low group first, high bit = more.
enum _Varint {
  /// Appends the minimal encoding of `value`.
  static func append(_ value: UInt64, to out: inout [UInt8]) {
    var v = value
    while v > 0x7F {
      out.append(UInt8(truncatingIfNeeded: v) | 0x80)
      v >>= 7
    }
    out.append(UInt8(v))
  }

  /// The encoded size of `value` in bytes (1...10).
  static func size(_ value: UInt64) -> Int {
    let bits = 64 - (value | 1).leadingZeroBitCount
    return (bits + 6) / 7
  }
}

/// A bounds-checked forward reader over a byte region.
///
/// Reads return `nil` instead of running past ``end``.
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
  mutating func readVarint() -> UInt64? {
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while position < end {
      let byte = base.load(fromByteOffset: position, as: UInt8.self)
      position += 1
      if shift == 63 && byte > 1 { return nil }
      result |= UInt64(byte & 0x7F) << shift
      if byte & 0x80 == 0 { return result }
      shift += 7
      if shift > 63 { return nil }
    }
    return nil
  }
}
