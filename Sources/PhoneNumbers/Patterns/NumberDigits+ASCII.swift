/// Numbers up to 16 digits written as ASCII eight digits at a time, in a
/// few multiplications per word instead of a division per digit: how the
/// batch normalizer prints the numbers it did not copy from the input.
extension NumberDigits {
  /// The eight ASCII digits of `value` (below 100 000 000, zero-padded),
  /// the first digit in the lowest byte: halves, then pairs, then digits,
  /// split in parallel lanes by multiplying with reciprocals.
  @inline(__always)
  static func eightASCIIDigits(_ value: UInt64) -> UInt64 {
    // Lanes of 32 bits: the first four digits low, the last four high.
    let high = value / 10_000
    var word = high | (value &- high &* 10_000) << 32
    // Lanes of 16 bits: x / 100 is (x * 10486) >> 20 for x < 10 000.
    let hundreds = (word &* 10_486) >> 20 & 0x0000_007F_0000_007F
    word = hundreds | (word &- hundreds &* 100) << 16
    // Lanes of 8 bits: x / 10 is (x * 103) >> 10 for x < 100.
    let tens = (word &* 103) >> 10 & 0x000F_000F_000F_000F
    word = tens | (word &- tens &* 10) << 8
    return word | 0x3030_3030_3030_3030
  }

  /// Writes the decimal digits of `value` as ASCII at `target` and returns
  /// how many; `target` must have room for 24 bytes (bytes past the digits
  /// may be overwritten).
  @inline(__always)
  static func writeASCII(_ value: UInt64, to target: UnsafeMutableRawPointer) -> Int {
    let digits = count(value)
    guard value < 10_000_000_000_000_000 else {
      return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer -> Int in
        guard let scratch = buffer.baseAddress else { return 0 }
        let first = write(value, into: scratch)
        for index in first..<capacity { target.storeBytes(of: scratch[index] | 0x30, toByteOffset: index &- first, as: UInt8.self) }
        return capacity &- first
      }
    }
    let low = eightASCIIDigits(value % 100_000_000)
    guard digits > 8 else {
      // The last `digits` bytes of the low word, moved down.
      target.storeBytes(of: low >> UInt64(8 &* (8 &- digits)), as: UInt64.self)
      return digits
    }
    let high = eightASCIIDigits(value / 100_000_000)
    // 9 to 16 digits: the last `digits - 8` bytes of the high word, then
    // the low word.
    let skip = UInt64(8 &* (16 &- digits))
    target.storeBytes(of: skip == 0 ? high : high >> skip, as: UInt64.self)
    target.storeBytes(of: low, toByteOffset: digits &- 8, as: UInt64.self)
    return digits
  }
}
