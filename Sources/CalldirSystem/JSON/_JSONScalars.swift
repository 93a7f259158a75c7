/// The scalar syntax of JSON, shared by ``JSONParser`` (a whole document in
/// memory) and ``JSONTokenizer`` (a document streamed through a window):
/// strings with their escapes, surrogate pairs and UTF-8 check, the number
/// grammar, and how an unexpected character is shown. Both read from a
/// pointer and a count, so one decoding serves both.
enum _JSONScalars {
  /// A problem at byte `offset` of the buffer the routine was given.
  struct Failure: Error {
    var reason: JSONParseError.Reason
    var offset: Int
  }

  @inline(__always) static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  /// Decodes the string whose opening quote is at `index`; `index` ends
  /// past the closing quote.
  static func decodeString(
    _ p: UnsafePointer<UInt8>, _ count: Int, _ index: inout Int
  ) throws(Failure) -> String {
    let start = index
    index += 1
    // The common case, a string without escapes, decodes straight from the buffer.
    var scan = index
    while scan < count {
      let byte = p[scan]
      if byte == UInt8(ascii: "\"") {
        let bytes = UnsafeBufferPointer(start: p + index, count: scan - index)
        let string = String(decoding: bytes, as: UTF8.self)
        // Decoding replaces every invalid sequence, so the bytes differ
        // exactly when it had one (`String(validating:)` needs iOS 18).
        guard string.utf8.elementsEqual(bytes) else { throw Failure(reason: .invalidUTF8, offset: start) }
        index = scan + 1
        return string
      }
      if byte < 0x20 { throw Failure(reason: .controlCharacterInString, offset: scan) }
      if byte == UInt8(ascii: "\\") { break }
      scan += 1
    }
    var buffer: [UInt8] = []
    var segmentStart = index
    while true {
      guard index < count else { throw Failure(reason: .unexpectedEndOfInput, offset: index) }
      let byte = p[index]
      if byte == UInt8(ascii: "\"") {
        buffer.append(contentsOf: UnsafeBufferPointer(start: p + segmentStart, count: index - segmentStart))
        index += 1
        break
      }
      if byte < 0x20 { throw Failure(reason: .controlCharacterInString, offset: index) }
      if byte == UInt8(ascii: "\\") {
        buffer.append(contentsOf: UnsafeBufferPointer(start: p + segmentStart, count: index - segmentStart))
        try decodeEscape(p, count, &index, into: &buffer)
        segmentStart = index
        continue
      }
      index += 1
    }
    let string = String(decoding: buffer, as: UTF8.self)
    guard string.utf8.elementsEqual(buffer) else { throw Failure(reason: .invalidUTF8, offset: start) }
    return string
  }

  /// Decodes the escape whose backslash is at `index` into `buffer`.
  private static func decodeEscape(
    _ p: UnsafePointer<UInt8>, _ count: Int, _ index: inout Int, into buffer: inout [UInt8]
  ) throws(Failure) {
    let escapeStart = index
    index += 1
    guard index < count else { throw Failure(reason: .unexpectedEndOfInput, offset: index) }
    let byte = p[index]
    index += 1
    let simple: UInt8
    switch byte {
    case UInt8(ascii: "\""): simple = 0x22
    case UInt8(ascii: "\\"): simple = 0x5C
    case UInt8(ascii: "/"): simple = 0x2F
    case UInt8(ascii: "b"): simple = 0x08
    case UInt8(ascii: "f"): simple = 0x0C
    case UInt8(ascii: "n"): simple = 0x0A
    case UInt8(ascii: "r"): simple = 0x0D
    case UInt8(ascii: "t"): simple = 0x09
    case UInt8(ascii: "u"):
      let scalar = try decodeUnicodeEscape(p, count, &index, escapeStart: escapeStart)
      buffer.append(contentsOf: String(Character(scalar)).utf8)
      return
    default:
      throw Failure(reason: .invalidEscape, offset: escapeStart)
    }
    buffer.append(simple)
  }

  /// The `XXXX` of a `\uXXXX` escape (and a following low surrogate escape).
  private static func decodeUnicodeEscape(
    _ p: UnsafePointer<UInt8>, _ count: Int, _ index: inout Int, escapeStart: Int
  ) throws(Failure) -> Unicode.Scalar {
    let high = try hex4(p, count, &index, escapeStart: escapeStart)
    switch high {
    case 0xD800...0xDBFF:
      let lowStart = index
      guard index + 1 < count, p[index] == UInt8(ascii: "\\"), p[index + 1] == UInt8(ascii: "u") else {
        throw Failure(reason: .unpairedSurrogate, offset: escapeStart)
      }
      index += 2
      let low = try hex4(p, count, &index, escapeStart: lowStart)
      guard (0xDC00...0xDFFF).contains(low) else { throw Failure(reason: .unpairedSurrogate, offset: escapeStart) }
      let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
      guard let scalar = Unicode.Scalar(value) else { throw Failure(reason: .unpairedSurrogate, offset: escapeStart) }
      return scalar
    case 0xDC00...0xDFFF:
      throw Failure(reason: .unpairedSurrogate, offset: escapeStart)
    default:
      guard let scalar = Unicode.Scalar(high) else { throw Failure(reason: .invalidUnicodeEscape, offset: escapeStart) }
      return scalar
    }
  }

  private static func hex4(
    _ p: UnsafePointer<UInt8>, _ count: Int, _ index: inout Int, escapeStart: Int
  ) throws(Failure) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard index < count else { throw Failure(reason: .unexpectedEndOfInput, offset: index) }
      let byte = p[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw Failure(reason: .invalidUnicodeEscape, offset: escapeStart)
      }
      value = value << 4 | UInt32(digit)
      index += 1
    }
    return value
  }

  /// Scans the number starting at `index` (`-` or a digit); `index` ends
  /// past it.
  ///
  /// - Returns: Whether it is an integer (no fraction, no exponent).
  static func scanNumber(_ p: UnsafePointer<UInt8>, _ count: Int, _ index: inout Int) throws(Failure) -> Bool {
    let start = index
    var isInteger = true
    func skipDigits() { while index < count, isDigit(p[index]) { index += 1 } }
    if index < count, p[index] == UInt8(ascii: "-") { index += 1 }
    guard index < count else { throw Failure(reason: .unexpectedEndOfInput, offset: index) }
    let first = p[index]
    if first == UInt8(ascii: "0") {
      index += 1
      if index < count, isDigit(p[index]) { throw Failure(reason: .invalidNumber, offset: start) }
    } else if isDigit(first) {
      skipDigits()
    } else {
      throw Failure(reason: .invalidNumber, offset: start)
    }
    if index < count, p[index] == UInt8(ascii: ".") {
      isInteger = false
      index += 1
      guard index < count, isDigit(p[index]) else { throw Failure(reason: .invalidNumber, offset: start) }
      skipDigits()
    }
    if index < count, p[index] == UInt8(ascii: "e") || p[index] == UInt8(ascii: "E") {
      isInteger = false
      index += 1
      if index < count, p[index] == UInt8(ascii: "+") || p[index] == UInt8(ascii: "-") { index += 1 }
      guard index < count, isDigit(p[index]) else { throw Failure(reason: .invalidNumber, offset: start) }
      skipDigits()
    }
    return isInteger
  }

  /// The character at `index` as an error shows it: `'x'`, `U+001F` for
  /// an ASCII control character, `byte 0xFF` for a byte that is not UTF-8.
  static func shownCharacter(_ p: UnsafePointer<UInt8>, _ count: Int, at index: Int) -> String {
    var decoder = UTF8()
    var iterator = UnsafeBufferPointer(start: p + index, count: min(4, count - index)).makeIterator()
    if case .scalarValue(let scalar) = decoder.decode(&iterator), scalar.value >= 0x20, scalar.value != 0x7F {
      return "'\(Character(scalar))'"
    }
    let byte = p[index]
    let hex = String(byte, radix: 16, uppercase: true)
    let padded = hex.count < 2 ? "0" + hex : hex
    return byte < 0x80 ? "U+00" + padded : "byte 0x" + padded
  }

  /// Unicode scalars in `p[lower..<upper]`: bytes that are not UTF-8
  /// continuation bytes.
  static func scalarCount(_ p: UnsafePointer<UInt8>, _ lower: Int, _ upper: Int) -> Int {
    var count = 0
    var index = lower
    while index < upper {
      if p[index] & 0xC0 != 0x80 { count += 1 }
      index += 1
    }
    return count
  }
}
