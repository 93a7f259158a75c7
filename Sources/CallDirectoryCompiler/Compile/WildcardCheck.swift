import CallDirectorySources

/// Recognizes number fields that are really patterns: regular expressions
/// (`+5695977.*`, `^\+4121\d{6}$`, `[0-9]{10}`) and wildcards
/// (`0800****`, `+4121560????`, `+1 800 555 XXXX`, `33162######`).
///
/// Such a line must never be read as one number: libphonenumber turns
/// `XXXX` into the keypad digits `9999` and cuts `.*` off, so the list
/// would block a number nobody meant. The compiler rejects them with a
/// reason that points to the `patterns` format instead.
enum WildcardCheck {
  /// Why `text` (a record's raw number field) is a pattern rather than a
  /// number, or nil when it looks like a number.
  static func reason(for text: UnsafeBufferPointer<UInt8>) -> String? {
    guard mayHoldPattern(text) else { return nil }
    let bytes = Array(text)
    if let token = regularExpressionToken(bytes, alternation: true) {
      return "looks like a regular expression ('\(token)'); " + advice
    }
    if let token = wildcardToken(bytes) {
      return "looks like a wildcard pattern ('\(token)'); " + advice
    }
    return nil
  }

  /// Why `text` is a wildcard pattern, or nil; with `alternation`, a `|`
  /// makes it a regular expression first. The other constructs of a
  /// regular expression are not looked for (``regularExpressionReason(for:alternation:)``).
  static func wildcardReason(for text: UnsafeBufferPointer<UInt8>, alternation: Bool = false) -> String? {
    guard mayHoldPattern(text) else { return nil }
    if alternation && text.contains(UInt8(ascii: "|")) { return "looks like a regular expression ('|'); " + advice }
    return wildcardToken(Array(text)).map { "looks like a wildcard pattern ('\($0)'); " + advice }
  }

  /// Why `text` is a regular expression, or nil; with `alternation` false
  /// a `|` is not taken for one (it more often joins several numbers,
  /// which ``CellCheck`` tells apart first).
  static func regularExpressionReason(for text: UnsafeBufferPointer<UInt8>, alternation: Bool) -> String? {
    guard mayHoldPattern(text) else { return nil }
    return regularExpressionToken(Array(text), alternation: alternation).map {
      "looks like a regular expression ('\($0)'); " + advice
    }
  }

  /// A fast screen: whether `text` holds any byte a pattern, or a second
  /// number after a `/` (``CellCheck``), needs. Plain numbers (digits, `+`,
  /// spaces, dashes, parentheses) never do.
  @inline(__always)
  static func mayHoldPattern(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = text.baseAddress else { return false }
    let count = text.count
    guard count >= 8 else {
      for byte in text
      where byte >= 0x3A || byte == 0x23 || byte == 0x24 || byte == 0x2A || byte == 0x2E || byte == 0x2F {
        return true
      }
      return false
    }
    // Eight bytes at a time, the last word overlapping the one before.
    var offset = 0
    while true {
      let word = UInt64(littleEndian: UnsafeRawPointer(base + min(offset, count &- 8)).loadUnaligned(as: UInt64.self))
      if holdsPatternByte(word) { return true }
      offset &+= 8
      if offset >= count { return false }
    }
  }

  /// Whether any byte of `word` is one ``mayHoldPattern(_:)`` looks for:
  /// 0x3A or above, `#`, `$`, `*`, `.` or `/`.
  @inline(__always)
  private static func holdsPatternByte(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    // A byte below 0x80 reaches 0x80 when 0x46 is added exactly when it is
    // 0x3A or above; a byte from 0x80 has its high bit already.
    let large = (((word & ~highs) &+ 0x46 &* ones) | word) & highs
    @inline(__always) func hasByte(_ byte: UInt64) -> UInt64 {
      let difference = word ^ (byte &* ones)
      return (difference &- ones) & ~difference & highs
    }
    return large | hasByte(0x23) | hasByte(0x24) | hasByte(0x2A) | hasByte(0x2E) | hasByte(0x2F) != 0
  }

  /// The same for every line, so that rejects group by reason; the
  /// rejects report shows each line's text next to it.
  private static let advice = "wildcards need format 'patterns' (one '#' per digit, e.g. 33162######)"

  /// The first regular-expression construct in `bytes`, if any (`|` only
  /// with `alternation`).
  private static func regularExpressionToken(_ bytes: [UInt8], alternation: Bool) -> String? {
    for (token, tokenBytes) in regularExpressionTokens where contains(bytes, tokenBytes) {
      if token == "|" && !alternation { continue }
      if token == ".+" && !holdsRepeatedWildcard(bytes) { continue }
      return token
    }
    if bytes.first(where: { !_isBlank($0) }) == UInt8(ascii: "^") { return "^" }
    if bytes.last(where: { !_isBlank($0) }) == UInt8(ascii: "$") { return "$" }
    // A character class such as [0-9] or [2-9], or a repetition such as {6}.
    for (open, close) in [(UInt8(ascii: "["), UInt8(ascii: "]")), (UInt8(ascii: "{"), UInt8(ascii: "}"))] {
      guard let start = bytes.firstIndex(of: open),
        let end = bytes[start...].firstIndex(of: close), end > start + 1
      else { continue }
      let inside = bytes[(start + 1)..<end]
      if inside.allSatisfy({ _isDigit($0) || $0 == _ASCII.hyphen || $0 == _ASCII.comma }) {
        return String(decoding: bytes[start...end], as: UTF8.self)
      }
    }
    return nil
  }

  /// The constructs of a regular expression looked for, in order, with
  /// their bytes.
  private static let regularExpressionTokens = ["\\d", "\\D", ".*", ".+", ".?", ".{", "(?", "|"].map { ($0, Array($0.utf8)) }

  /// Whether `needle` occurs in `bytes`.
  private static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return false }
      return CellRules.firstOccurrence(of: needle, in: base, 0, buffer.count) != nil
    }
  }

  /// Whether `bytes` hold a `.+` that is a regular expression's "one or
  /// more of anything": not the period of an abbreviation before an
  /// international number (`Tel.+49 30 1234567`, `T.+44 20 7946 0018`,
  /// `Тел.+7 495 123-45-67`, `T.+８１ ３ …`), which follows a letter and
  /// comes before a digit, a space or a parenthesis (any non-ASCII byte
  /// counts as either).
  private static func holdsRepeatedWildcard(_ bytes: [UInt8]) -> Bool {
    var index = 0
    while index + 1 < bytes.count {
      if bytes[index] == UInt8(ascii: "."), bytes[index + 1] == UInt8(ascii: "+") {
        let afterLetter = index > 0 && (_isLetter(bytes[index - 1]) || bytes[index - 1] >= 0x80)
        let next = index + 2 < bytes.count ? bytes[index + 2] : 0
        let beforeNumber = _isDigit(next) || _isBlank(next) || next == UInt8(ascii: "(") || next >= 0x80
        if !(afterLetter && beforeNumber) { return true }
      }
      index += 1
    }
    return false
  }

  /// The first wildcard run in `bytes`: `#`, `*` or `?` anywhere, or two or
  /// more `X`/`x` that end the field and follow a digit or separator. A
  /// `#` that libphonenumber reads as an extension's mark (one, after a
  /// space and before the digits that end the field: `+44 20 7946 0018 #99`)
  /// is none.
  private static func wildcardToken(_ bytes: [UInt8]) -> String? {
    for wildcard in [_ASCII.hash, UInt8(ascii: "*"), UInt8(ascii: "?")] {
      guard let start = bytes.firstIndex(of: wildcard), !(wildcard == _ASCII.hash && marksExtension(bytes, at: start))
      else { continue }
      let end = bytes[start...].firstIndex(where: { $0 != wildcard }) ?? bytes.endIndex
      return String(decoding: bytes[start..<end], as: UTF8.self)
    }
    var end = bytes.count
    while end > 0, _isBlank(bytes[end - 1]) { end -= 1 }
    var start = end
    while start > 0, bytes[start - 1] | 0x20 == UInt8(ascii: "x") { start -= 1 }
    guard end - start >= 2, start == 0 || !_isLetter(bytes[start - 1]) else { return nil }
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }

  /// Whether the `#` at `index` is the field's only one and marks an
  /// extension: it follows a blank and comes before one or more digits,
  /// which end the field but for blanks.
  private static func marksExtension(_ bytes: [UInt8], at index: Int) -> Bool {
    guard index > 0, _isBlank(bytes[index - 1]) else { return false }
    var end = bytes.count
    while end > index + 1, _isBlank(bytes[end - 1]) { end -= 1 }
    return end > index + 1 && bytes[(index + 1)..<end].allSatisfy(_isDigit)
  }
}
