/// Unsigned LEB128 varints (seven bits per byte, low group first, the high
/// bit set while more bytes follow) and ZigZag for signed values, as
/// swift-protobuf's binary encoder writes them. The one varint codec of
/// calldir: blobs, spilled runs, the device's store and wire protocol.
public enum Varint {
  /// The most bytes a `UInt64` takes.
  public static let maximumLength = 10

  /// Appends the minimal encoding of `value`.
  @inline(__always)
  public static func append(_ value: UInt64, to bytes: inout [UInt8]) {
    var remaining = value
    while remaining > 0x7F {
      bytes.append(UInt8(truncatingIfNeeded: remaining) | 0x80)
      remaining >>= 7
    }
    bytes.append(UInt8(remaining))
  }

  /// Writes the minimal encoding of `value` at `pointer` (which has room
  /// for ``maximumLength`` bytes); returns the bytes written.
  @inline(__always)
  public static func write(_ value: UInt64, to pointer: UnsafeMutablePointer<UInt8>) -> Int {
    var remaining = value
    var count = 0
    while remaining >= 0x80 {
      pointer[count] = UInt8(truncatingIfNeeded: remaining) | 0x80
      count &+= 1
      remaining >>= 7
    }
    pointer[count] = UInt8(truncatingIfNeeded: remaining)
    return count &+ 1
  }

  /// The encoded size of `value` in bytes (1...10).
  @inline(__always)
  public static func size(_ value: UInt64) -> Int {
    let bits = 64 - (value | 1).leadingZeroBitCount
    return (bits + 6) / 7
  }

  /// Reads a varint from `bytes` at `position`, moving past it; nil when
  /// the bytes end first or the value does not fit in 64 bits (then
  /// `position` is unspecified).
  @inline(__always)
  public static func read(_ bytes: UnsafeRawBufferPointer, at position: inout Int) -> UInt64? {
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while position < bytes.count {
      let byte = bytes[position]
      position += 1
      if shift == 63 && byte > 1 { return nil }
      result |= UInt64(byte & 0x7F) << shift
      if byte & 0x80 == 0 { return result }
      shift += 7
      if shift > 63 { return nil }
    }
    return nil
  }

  /// Maps a signed value onto an unsigned one, small magnitudes first.
  public static func zigZag(_ value: Int64) -> UInt64 {
    UInt64(bitPattern: (value << 1) ^ (value >> 63))
  }

  /// Inverts ``zigZag(_:)``.
  public static func unZigZag(_ value: UInt64) -> Int64 {
    Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
  }
}
