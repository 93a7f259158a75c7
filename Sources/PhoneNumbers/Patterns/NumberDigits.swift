/// The decimal digits of a positive 64-bit number as values 0–9, most
/// significant first: how the classifier reads an E.164 number and how the
/// batch normalizer writes one (adding "0").
///
/// Eight digits at a time from three independent blocks, so the divisions
/// by constants run side by side instead of one long chain of `/ 100`.
enum NumberDigits {
  /// The space ``write(_:into:)`` needs.
  static let capacity = 24

  /// Writes the digits of `value` (1 or more) into the last positions of
  /// `buffer` (``capacity`` bytes) and returns the index of the first one.
  @inline(__always)
  static func write(_ value: UInt64, into buffer: UnsafeMutablePointer<UInt8>) -> Int {
    let low = UInt32(truncatingIfNeeded: value % 100_000_000)
    let rest = value / 100_000_000
    let middle = UInt32(truncatingIfNeeded: rest % 100_000_000)
    let high = UInt32(truncatingIfNeeded: rest / 100_000_000)
    writeEight(high, to: buffer)
    writeEight(middle, to: buffer + 8)
    writeEight(low, to: buffer + 16)
    return capacity - count(value)
  }

  /// How many decimal digits `value` has (1 for 0).
  @inline(__always)
  static func count(_ value: UInt64) -> Int {
    // log10 from log2 (1233 / 4096 ≈ log10 2), then one correction.
    let bits = 64 - (value | 1).leadingZeroBitCount
    let estimate = (bits &* 1233) >> 12
    return max(1, estimate &+ (value >= powersOfTen[estimate] ? 1 : 0))
  }

  private static let powersOfTen: [UInt64] = (0..<20).map { power in
    (0..<power).reduce(UInt64(1)) { value, _ in value &* 10 }
  }

  /// 10 to the power `power` (0 to 19).
  @inline(__always)
  static func powerOfTen(_ power: Int) -> UInt64 {
    powersOfTen[min(max(power, 0), 19)]
  }

  @inline(__always)
  private static func writeEight(_ value: UInt32, to buffer: UnsafeMutablePointer<UInt8>) {
    writeFour(value / 10_000, to: buffer)
    writeFour(value % 10_000, to: buffer + 4)
  }

  @inline(__always)
  private static func writeFour(_ value: UInt32, to buffer: UnsafeMutablePointer<UInt8>) {
    let high = UInt16(truncatingIfNeeded: value / 100)
    let low = UInt16(truncatingIfNeeded: value % 100)
    buffer[0] = UInt8(truncatingIfNeeded: high / 10)
    buffer[1] = UInt8(truncatingIfNeeded: high % 10)
    buffer[2] = UInt8(truncatingIfNeeded: low / 10)
    buffer[3] = UInt8(truncatingIfNeeded: low % 10)
  }
}
