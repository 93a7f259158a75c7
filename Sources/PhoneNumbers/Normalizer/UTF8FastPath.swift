/// The allocation-free front end for the inputs most lists hold: ASCII text
/// whose number part is made of digits, a leading `+` and the separators
/// ` ()-./[]*`, with anything before the first `+` or digit (`Tel: `, `="`).
///
/// For such text libphonenumber's extraction steps reduce to a few facts,
/// gathered in one pass over the bytes:
///
/// - No `;` anywhere: no RFC 3966 `phone-context` and no `;isub=`.
/// - The candidate starts at the first `+` or digit. With no letter and no `#`
///   after it, trailing stripping (`[^\w#]` and `_`) ends it after the last
///   digit, and no `/x` second number can be cut off.
/// - With no letter, `#`, `,`, `;`, `~` or non-ASCII byte in it, no extension
///   can match anywhere, so viability is: exactly two digits, or leading pluses
///   and then only digits, separators and `*` with at least three digits.
/// - Without letters, the number's digits are its ASCII digits.
///
/// Anything else (non-ASCII bytes, letters or `#`/`,`/`~` after the start, `;`,
/// over 250 bytes) is handed over to the general path, which must agree with
/// this one wherever this one answers; `FastPathAgreementTests` checks that.
extension PhoneNumberNormalizer {
  /// The packed outcome for `bytes`, or `PackedOutcome.notHandled`.
  @inline(__always)
  func fastPackedOutcome(
    utf8 bytes: UnsafeBufferPointer<UInt8>, region: RegionMetadata?, national: UnsafeMutablePointer<Bool>? = nil
  ) -> Int64 {
    Self.fastPackedOutcome(utf8: bytes, hasRegion: region != nil) { digits, startsWithPlus in
      resolve(digits, startsWithPlus: startsWithPlus, region: region, national: national)
    }
  }

  /// ``fastPackedOutcome(utf8:region:national:)`` with the last step,
  /// from the number's digits and whether it starts with `+` to the
  /// packed outcome, left to `resolving` (``resolve(_:startsWithPlus:region:national:)``
  /// or a reader that remembers its answers); `hasRegion` tells whether
  /// there is a default region.
  @inline(__always)
  static func fastPackedOutcome(
    utf8 bytes: UnsafeBufferPointer<UInt8>, hasRegion: Bool,
    resolving: (UnsafeBufferPointer<UInt8>, Bool) -> Int64
  ) -> Int64 {
    let short = Self.shortFormattedPackedOutcome(utf8: bytes, hasRegion: hasRegion, resolving: resolving)
    if short != PackedOutcome.notHandled { return short }
    let count = bytes.count
    // libphonenumber refuses inputs over 250 characters; leave those to the
    // general path, which counts scalars.
    guard count <= 250 else { return PackedOutcome.notHandled }
    var start = 0
    while start < count {
      let byte = bytes[start]
      if byte &- 0x30 < 10 || byte == 0x2B { break }
      if byte >= 0x80 || byte == 0x3B { return PackedOutcome.notHandled }
      start += 1
    }
    // No `+` or digit at all: the candidate is empty.
    guard start < count else { return PackedOutcome.rejection(.notANumber) }

    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { digits -> Int64 in
      var digitCount = 0
      var lastDigit = -1
      // The first character that makes the body unviable: a plus after the
      // leading ones, or one that is neither digit nor separator nor `*`.
      var firstUnviable = Int.max
      var inLeadingPluses = true
      var index = start
      while index < count {
        let byte = bytes[index]
        if byte &- 0x30 < 10 {
          digits[digitCount] = byte &- 0x30
          digitCount &+= 1
          lastDigit = index
          inLeadingPluses = false
        } else {
          switch byte {
          case 0x2B:  // +
            if !inLeadingPluses && firstUnviable == Int.max { firstUnviable = index }
          case 0x20, 0x28, 0x29, 0x2A, 0x2D, 0x2E, 0x2F, 0x5B, 0x5D:  // space ( ) * - . / [ ]
            inLeadingPluses = false
          case 0x23, 0x2C, 0x3B, 0x7E, 0x41...0x5A, 0x61...0x7A, 0x80...0xFF:  // # , ; ~ letters non-ASCII
            return PackedOutcome.notHandled
          default:
            inLeadingPluses = false
            if firstUnviable == Int.max { firstUnviable = index }
          }
        }
        index &+= 1
      }
      // The candidate runs from `start` through the last digit.
      guard digitCount > 0 else { return PackedOutcome.rejection(.notANumber) }
      let length = lastDigit &+ 1 &- start
      let viable: Bool
      if length < 2 {
        viable = false
      } else if length == 2 && digitCount == 2 {
        viable = true
      } else {
        viable = firstUnviable > lastDigit && digitCount >= 3
      }
      guard viable else { return PackedOutcome.rejection(.notANumber) }
      let startsWithPlus = bytes[start] == 0x2B
      guard hasRegion || startsWithPlus else { return PackedOutcome.rejection(.missingDefaultRegion) }
      return resolving(UnsafeBufferPointer(rebasing: digits[0..<digitCount]), startsWithPlus)
    }
  }
}
