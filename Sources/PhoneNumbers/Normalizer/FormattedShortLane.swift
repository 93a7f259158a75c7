/// The byte fast path for the shapes most lists are written in, 8 to 16
/// bytes of digits, `+` and the separators ` ()*-./` only (`(212) 555-1234`,
/// `212-555-1234`, `+1 212 555 1234`, `12125551234`): the sixteen bytes are
/// classified eight at a time with word arithmetic, instead of a branch
/// per byte that mispredicts wherever digits and separators alternate.
///
/// It answers only where the byte loop of
/// ``PhoneNumberNormalizer/fastPackedOutcome(utf8:region:national:)``
/// would see exactly the same facts (every byte digit, separator or a
/// single `+` at the start of the candidate) and hands those facts to the
/// same viability rule and ``PhoneNumberNormalizer/resolve(_:startsWithPlus:region:national:)``;
/// any other byte, or a `+` anywhere else, leaves the line to the loop.
/// `FastPathAgreementTests` checks it against the general path.
extension PhoneNumberNormalizer {
  /// The packed outcome for `bytes`, or `PackedOutcome.notHandled`, its
  /// last step left to `resolving` as in ``fastPackedOutcome(utf8:hasRegion:resolving:)``
  /// (`hasRegion`: whether there is a default region).
  @inline(__always)
  static func shortFormattedPackedOutcome(
    utf8 bytes: UnsafeBufferPointer<UInt8>, hasRegion: Bool,
    resolving: (UnsafeBufferPointer<UInt8>, Bool) -> Int64
  ) -> Int64 {
    let count = bytes.count
    guard count >= 8 && count <= 16, let base = bytes.baseAddress else { return PackedOutcome.notHandled }
    // The bytes in two words, padded with spaces past the end (a space is
    // a separator, after any digit: it changes nothing). Both loads stay
    // inside the text.
    let raw = UnsafeRawPointer(base)
    let spaces: UInt64 = 0x2020_2020_2020_2020
    let low = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
    var high = spaces
    if count > 8 {
      let tail = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
      let shift = UInt64(8 &* (16 &- count))
      high = shift == 0 ? tail : tail >> shift | spaces << (64 &- shift)
    }
    let lowClasses = Self.byteClasses(low)
    let highClasses = Self.byteClasses(high)
    guard lowClasses.allowed && highClasses.allowed else { return PackedOutcome.notHandled }
    let digitBits = lowClasses.digits | highClasses.digits << 8
    let plusBits = lowClasses.pluses | highClasses.pluses << 8
    guard digitBits != 0 else { return PackedOutcome.notHandled }
    let start = (digitBits | plusBits).trailingZeroBitCount
    // A `+` other than the candidate's first character: the loop decides.
    guard plusBits & ~(1 << UInt32(start)) == 0 else { return PackedOutcome.notHandled }
    let lastDigit = 15 &- (digitBits.leadingZeroBitCount &- 16)
    let digitCount = digitBits.nonzeroBitCount
    // As the loop: two digits alone, or at least three among separators.
    let length = lastDigit &+ 1 &- start
    let viable = length >= 2 && ((length == 2 && digitCount == 2) || (length > 2 && digitCount >= 3))
    guard viable else { return PackedOutcome.rejection(.notANumber) }
    let startsWithPlus = plusBits != 0
    guard hasRegion || startsWithPlus else { return PackedOutcome.rejection(.missingDefaultRegion) }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { digits -> Int64 in
      guard let target = digits.baseAddress else { return PackedOutcome.notHandled }
      // Every byte written at the next digit's place, the place moving on
      // past digits only: no branch per byte.
      var index = 0
      var word = low
      for position in 0..<8 {
        target[index] = UInt8(truncatingIfNeeded: word) &- 0x30
        index &+= Int(truncatingIfNeeded: digitBits >> UInt32(position) & 1)
        word >>= 8
      }
      word = high
      for position in 8..<16 {
        target[index & 15] = UInt8(truncatingIfNeeded: word) &- 0x30
        index &+= Int(truncatingIfNeeded: digitBits >> UInt32(position) & 1)
        word >>= 8
      }
      return resolving(UnsafeBufferPointer(start: target, count: digitCount), startsWithPlus)
    }
  }

  /// Which of the eight bytes of `word` are ASCII digits and which are `+`
  /// (bit i for byte i), and whether every byte is a digit, `+` or one of
  /// ` ()*-./`.
  @inline(__always)
  static func byteClasses(_ word: UInt64) -> (digits: UInt32, pluses: UInt32, allowed: Bool) {
    let highBits: UInt64 = 0x8080_8080_8080_8080
    let lowSeven: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    let ones: UInt64 = 0x0101_0101_0101_0101
    /// The high bit of each byte of `x` that is zero.
    func zeroBytes(_ x: UInt64) -> UInt64 { ~(((x & lowSeven) &+ lowSeven) | x) & highBits }
    let highNibbles = word & 0xF0F0_F0F0_F0F0_F0F0
    let lowNibbles = word & 0x0F0F_0F0F_0F0F_0F0F
    let inThree = zeroBytes(highNibbles ^ (ones &* 0x30))
    let inTwo = zeroBytes(highNibbles ^ (ones &* 0x20))
    let atMostNine = ~(lowNibbles &+ (ones &* 0x76)) & highBits
    let atLeastEight = (lowNibbles &+ (ones &* 0x78)) & highBits
    let digits = inThree & atMostNine
    let space = inTwo & zeroBytes(lowNibbles)
    let plus = inTwo & zeroBytes(lowNibbles ^ (ones &* 0x0B))
    let comma = zeroBytes(lowNibbles ^ (ones &* 0x0C))
    // ( ) * - . /: 0x28 to 0x2F but for + and ,.
    let separators = inTwo & atLeastEight & ~plus & ~comma
    let allowed = (digits | space | plus | separators) == highBits
    return (gather(digits), gather(plus), allowed)
  }

  /// The high bits of the eight bytes of `flags` as bits 0 to 7 (byte i's
  /// at bit i).
  @inline(__always)
  static func gather(_ flags: UInt64) -> UInt32 {
    UInt32(truncatingIfNeeded: ((flags >> 7) &* 0x0102_0408_1020_4080) >> 56)
  }
}
