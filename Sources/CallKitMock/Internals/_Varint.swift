/// LEB128 varints and ZigZag, as in swift-protobuf's binary encoder.
enum _Varint {
  /// The most bytes a `UInt64` varint takes.
  static let maximumLength = 10

  /// Maps a signed value onto an unsigned one, small magnitudes first.
  static func zigZag(_ value: Int64) -> UInt64 {
    UInt64(bitPattern: (value << 1) ^ (value >> 63))
  }

  /// Inverts ``zigZag(_:)``.
  static func unZigZag(_ value: UInt64) -> Int64 {
    Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
  }

  /// Appends `value` to `bytes`.
  static func append(_ value: UInt64, to bytes: inout [UInt8]) {
    var remaining = value
    while remaining > 0x7F {
      bytes.append(UInt8(truncatingIfNeeded: remaining) | 0x80)
      remaining >>= 7
    }
    bytes.append(UInt8(remaining))
  }
}
