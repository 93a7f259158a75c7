/// The shortest path through the normalizer, for the line most large lists
/// are made of: `+` and the digits of an E.164 number, nothing else.
///
/// For such text every extraction step of libphonenumber's `parse` is a
/// no-op and the default region plays no part; what is left is reading the
/// calling code (the first 1 to 3 digits that are one), then the national
/// number must not start with the region's national prefix (else it may be
/// stripped) and its length must be possible. When all of that holds, the
/// number is its digits; when anything else is the case, this path gives
/// no answer and ``PhoneNumberNormalizer/normalize(utf8:region:)`` decides,
/// which agrees with this path wherever it answers (`FastPathAgreementTests`).
extension PhoneNumberNormalizer {
  /// The E.164 number `text` is, when it is exactly `+` and 3 to 15 digits
  /// that libphonenumber keeps as written; nil otherwise (then ask
  /// ``normalize(utf8:region:)``, whatever the region).
  @inline(__always)
  public func exactE164(utf8 text: UnsafeBufferPointer<UInt8>) -> Int64? {
    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: ExactE164Split.wordCount) { words -> Int64? in
      guard let words = words.baseAddress else { return nil }
      let number = exactE164Number(utf8: text, digitWords: words)
      return number >= 0 ? number : nil
    }
  }

  /// ``exactE164(utf8:)`` as a plain value (-1 for no answer), with what
  /// the path learned on the way: `digitWords` (``ExactE164Split/wordCount``
  /// words) receives the digits as values 0–9 and where the calling code
  /// ends (see ``ExactE164Split``), only when a number is returned. The
  /// result stays in registers (an optional struct returned through
  /// memory stalled the batch loop on store forwarding).
  @inline(__always)
  func exactE164Number(utf8 text: UnsafeBufferPointer<UInt8>, digitWords words: UnsafeMutablePointer<UInt64>)
    -> Int64
  {
    let count = text.count
    guard count >= 4 && count <= 16, let base = text.baseAddress, base[0] == 0x2B else { return -1 }
    // The digits right-aligned in two words padded with ASCII zeros,
    // checked and read eight at a time; leading zeros change neither test
    // nor value. Both loads stay inside the text.
    let zeros: UInt64 = 0x3030_3030_3030_3030
    let digitCount = count &- 1
    let first = 16 &- digitCount
    let raw = UnsafeRawPointer(base)
    var high = zeros
    var low = zeros
    if digitCount >= 8 {
      low = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
      let leading = digitCount &- 8
      if leading > 0 {
        // The first `leading` digits, moved to the top of the word.
        let shift = UInt64(8 &* (8 &- leading))
        let start = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 1, as: UInt64.self))
        high = start << shift | zeros & (1 << shift &- 1)
      }
    } else {
      // Three to seven digits, into the top bytes one by one.
      var word: UInt64 = 0
      for index in 1..<count { word = word >> 8 | UInt64(base[index]) << 56 }
      low = word | zeros & (1 << UInt64(8 &* (8 &- digitCount)) &- 1)
    }
    guard Self.areEightDigits(high), Self.areEightDigits(low) else { return -1 }
    let value = Int64(Self.eightDigitValue(high) &* 100_000_000 &+ Self.eightDigitValue(low))
    words[0] = (high &- zeros).littleEndian
    words[1] = (low &- zeros).littleEndian
    let digits = UnsafeMutableRawPointer(words).assumingMemoryBound(to: UInt8.self) + first
    guard digits[0] != 0 else { return -1 }
    let mains = plan.mainCores.cores
    var code = 0
    for length in 1...3 {
      code = code &* 10 &+ Int(digits[length &- 1])
      guard let main = mains[code] else { continue }
      let national = UnsafeBufferPointer(start: digits + length, count: digitCount &- length)
      guard national.count >= 2, main.pointee.nationalPrefixCannotStart(national) else { return -1 }
      switch main.pointee.lengthCheck(national.count) {
      case .possible, .possibleLocalOnly:
        words[2] = ExactE164Split.pack(callingCode: code, callingCodeDigitCount: length, digitCount: digitCount)
        return value
      case .tooShort, .tooLong, .invalidLength: return -1
      }
    }
    return -1
  }

  /// Whether each of the eight bytes of `word` is an ASCII digit.
  @inline(__always)
  static func areEightDigits(_ word: UInt64) -> Bool {
    // High nibbles 3, and adding 6 to each byte keeps them 3 (no byte past 9).
    (word & 0xF0F0_F0F0_F0F0_F0F0) | (((word &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0) >> 4)
      == 0x3333_3333_3333_3333
  }

  /// The value of eight ASCII digits loaded little-endian (the first digit
  /// in the lowest byte): pairs, then quadruples, then the whole.
  @inline(__always)
  static func eightDigitValue(_ word: UInt64) -> UInt64 {
    // (In Swift, >> binds tighter than &*.)
    var value = ((word & 0x0F0F_0F0F_0F0F_0F0F) &* 2561) >> 8
    value = ((value & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16
    return (((value & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32) & 0xFFFF_FFFF
  }
}

/// How ``PhoneNumberNormalizer/exactE164Number(utf8:digitWords:)`` split
/// the number it answered, read from the words it filled: the digits as
/// values 0–9 right-aligned in the first two, and in the third the calling
/// code, its length and the digit count.
struct ExactE164Split {
  /// The words the path fills.
  static let wordCount = 3

  let words: UnsafeMutablePointer<UInt64>

  @inline(__always)
  static func pack(callingCode: Int, callingCodeDigitCount: Int, digitCount: Int) -> UInt64 {
    UInt64(callingCode) | UInt64(callingCodeDigitCount) << 16 | UInt64(digitCount) << 24
  }

  /// The calling code (1 to 999).
  @inline(__always)
  var callingCode: Int { Int(truncatingIfNeeded: words[2] & 0xFFFF) }

  /// How many digits the calling code has (1 to 3).
  @inline(__always)
  var callingCodeDigitCount: Int { Int(truncatingIfNeeded: words[2] >> 16 & 0xFF) }

  /// The national significant number's digits (values 0–9).
  @inline(__always)
  var nationalNumber: UnsafeBufferPointer<UInt8> {
    let split = words[2]
    let codeDigits = Int(truncatingIfNeeded: split >> 16 & 0xFF)
    let digitCount = min(Int(truncatingIfNeeded: split >> 24 & 0xFF), 16)
    let digits = UnsafeRawPointer(words).assumingMemoryBound(to: UInt8.self)
    let start = min(16 &- digitCount &+ codeDigits, 16)
    return UnsafeBufferPointer(start: digits + start, count: 16 &- start)
  }
}

extension RegionCore {
  /// Whether the region's national prefix for parsing cannot match at the
  /// start of `national` (non-empty), so that stripping leaves it as it is.
  @inline(__always)
  func nationalPrefixCannotStart(_ national: UnsafeBufferPointer<UInt8>) -> Bool {
    let screen = nationalPrefixScreen
    switch screen.kind {
    case .none: return true
    case .literal: return screen.literalMatchEnd(national) < 0
    case .pattern: return screen.excludes(national)
    }
  }
}
