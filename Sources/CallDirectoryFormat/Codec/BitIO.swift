/// Appends bit fields least-significant-bit first to a byte array.
///
/// Bit `k` of the stream is bit `k % 8` of byte `k / 8`, so a field written
/// at bit offset `p` with width `w` is read back by loading the 64-bit
/// little-endian word at byte `p / 8`, shifting right by `p % 8` and masking
/// `w` bits (see ``_readBits(_:_:_:)``).
struct _BitWriter {
  private(set) var bytes: [UInt8]
  private var accumulator: UInt64 = 0
  private var filled = 0

  init(into bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// Writes the low `width` bits of `value` (`width` in 0...64).
  mutating func write(_ value: UInt64, width: Int) {
    guard width > 0 else { return }
    let masked = width == 64 ? value : value & ((1 << UInt64(width)) - 1)
    accumulator |= masked << UInt64(filled)
    let total = filled + width
    if total >= 64 {
      _appendLE(accumulator, to: &bytes)
      accumulator = filled == 0 ? 0 : masked >> UInt64(64 - filled)
      filled = total - 64
    } else {
      filled = total
    }
  }

  /// Pads with zero bits to a byte boundary and returns the bytes.
  mutating func finish() -> [UInt8] {
    var left = filled
    var acc = accumulator
    while left > 0 {
      bytes.append(UInt8(truncatingIfNeeded: acc))
      acc >>= 8
      left -= 8
    }
    accumulator = 0
    filled = 0
    return bytes
  }
}

/// Reads `width` (0...64) bits at bit offset `bitPosition` from `base`.
///
/// May load up to 16 bytes past the byte holding the first bit; callers keep
/// that much readable padding after every region they decode.
@inline(__always)
func _readBits(_ base: UnsafeRawPointer, _ bitPosition: Int, _ width: Int) -> UInt64 {
  let byte = bitPosition &>> 3
  let shift = UInt64(bitPosition & 7)
  var value = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: byte, as: UInt64.self)) &>> shift
  if shift != 0 && Int(shift) &+ width > 64 {
    let next = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: byte &+ 8, as: UInt64.self))
    value |= next &<< (64 &- shift)
  }
  return width >= 64 ? value : value & ((1 &<< UInt64(width)) &- 1)
}

/// Loads a little-endian 64-bit word at a byte offset (unaligned).
@inline(__always)
func _loadWord(_ base: UnsafeRawPointer, _ byteOffset: Int) -> UInt64 {
  UInt64(littleEndian: base.loadUnaligned(fromByteOffset: byteOffset, as: UInt64.self))
}

/// Bits needed to represent `value` (0 for 0).
@inline(__always)
func _bitWidth(_ value: UInt64) -> Int {
  64 - value.leadingZeroBitCount
}
