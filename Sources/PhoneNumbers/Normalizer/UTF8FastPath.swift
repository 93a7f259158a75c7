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
/// - An extension that ends the text (` ext. 45`, ` x123`, `-503#`), found
///   by the general path's own matcher, is stripped when the number before
///   it is such text, viable as it stands (nothing but separators after its
///   last digit): libphonenumber then reads that number alone.
///
/// Anything else (non-ASCII bytes, other letters or `#`/`,`/`~` after the
/// start, `;`, a `/` or `\` with an extension, over 250 bytes) is handed
/// over to the general path, which must agree with this one wherever this
/// one answers; `FastPathAgreementTests` checks that.
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

    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { buffer -> Int64 in
      guard let digits = buffer.baseAddress else { return PackedOutcome.notHandled }
      var scan = _NumberScan(bytes, from: start, to: count, digits: digits)
      if scan.firstLabel != nil {
        // An extension after the number (` ext. 45`, ` x123`, `,,55`) is
        // stripped when what comes before it is viable as it stands:
        // nothing past its last digit but separators (the extension keeps
        // the candidate from being trimmed there) and three digits or more.
        guard let end = Self.extensionStart(in: bytes, from: start) else {
          return PackedOutcome.notHandled
        }
        scan = _NumberScan(bytes, from: start, to: end, digits: digits)
        guard scan.firstLabel == nil, scan.firstUnviable == Int.max, scan.digitCount >= 3 else {
          return PackedOutcome.notHandled
        }
      }
      let (digitCount, lastDigit, firstUnviable) = (scan.digitCount, scan.lastDigit, scan.firstUnviable)
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
      return resolving(UnsafeBufferPointer(start: digits, count: digitCount), startsWithPlus)
    }
  }

  /// Where the extension that ends `bytes` starts (libphonenumber's
  /// `_EXTN_PATTERN.search` on the candidate from `start`); nil when there
  /// is none, or the text is not plain enough for the candidate to be all
  /// of it from `start`: a `;` (RFC 3966 parameters), a `/` or `\` (a
  /// second number cut off at `/ x`), or a non-ASCII byte.
  @inline(never)
  private static func extensionStart(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    let count = bytes.count - start
    return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: count) { scalars -> Int? in
      for index in 0..<count {
        let byte = bytes[start &+ index]
        guard byte < 0x80, byte != 0x3B, byte != 0x2F, byte != 0x5C else { return nil }
        scalars[index] = UInt32(byte)
      }
      return ExtensionMatcher.start(in: UnsafeBufferPointer(scalars)).map { start + $0 }
    }
  }
}

/// One pass over the bytes of a candidate, `bytes[start..<end]`, as
/// ``PhoneNumberNormalizer/fastPackedOutcome(utf8:hasRegion:resolving:)``
/// reads it: its ASCII digits (as values, to `digits`), where the last one
/// is, the first byte that makes it unviable (a `+` after the leading ones,
/// or one that is neither digit nor separator nor `*`), and the first byte
/// that may belong to an extension or needs the general path (a letter,
/// `#`, `,`, `;`, `~` or non-ASCII byte), where the pass stops.
struct _NumberScan {
  var digitCount = 0
  var lastDigit = -1
  var firstUnviable = Int.max
  var firstLabel: Int?

  @inline(__always)
  init(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, digits: UnsafeMutablePointer<UInt8>) {
    var inLeadingPluses = true
    var index = start
    while index < end {
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
          firstLabel = index
          return
        default:
          inLeadingPluses = false
          if firstUnviable == Int.max { firstUnviable = index }
        }
      }
      index &+= 1
    }
  }
}
