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
    let count = text.count
    guard count >= 4 && count <= 16, let base = text.baseAddress, base[0] == 0x2B else { return nil }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { buffer -> Int64? in
      let digits = buffer.baseAddress!
      var value: Int64 = 0
      for index in 1..<count {
        let digit = base[index] &- 0x30
        guard digit < 10 else { return nil }
        digits[index &- 1] = digit
        value = value &* 10 &+ Int64(digit)
      }
      guard digits[0] != 0 else { return nil }
      let mains = plan.mainCores.cores
      var code = 0
      for length in 1...3 {
        code = code &* 10 &+ Int(digits[length &- 1])
        guard let main = mains[code] else { continue }
        let national = UnsafeBufferPointer(start: digits + length, count: count &- 1 &- length)
        guard national.count >= 2, main.pointee.nationalPrefixCannotStart(national) else { return nil }
        switch main.pointee.lengthCheck(national.count) {
        case .possible, .possibleLocalOnly: return value
        case .tooShort, .tooLong, .invalidLength: return nil
        }
      }
      return nil
    }
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
