/// A strict RFC 8259 JSON parser producing ``JSONValue``.
///
///     let config = try JSONParser.parse(text)
///     let region = config["region"]?.stringValue
///
/// The parser rejects trailing non-whitespace, duplicate object keys, raw
/// control characters in strings, lone UTF-16 surrogates and nesting deeper
/// than ``maxDepth``. A leading UTF-8 byte order mark is skipped. Errors carry
/// the line and column of the offending character.
public struct JSONParser: Sendable {
  /// The deepest nesting of arrays and objects accepted.
  public var maxDepth: Int

  /// Creates a parser.
  ///
  /// - Parameter maxDepth: The deepest nesting of arrays and objects accepted.
  public init(maxDepth: Int = 512) {
    self.maxDepth = maxDepth
  }

  /// Parses UTF-8 encoded JSON text.
  ///
  /// - Throws: ``JSONParseError`` with the position of the first problem.
  public func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
    var state = _JSONParserState(bytes: bytes, maxDepth: maxDepth)
    return try state.parseDocument()
  }

  /// Parses JSON text.
  ///
  /// - Throws: ``JSONParseError`` with the position of the first problem.
  public func parse(_ text: String) throws(JSONParseError) -> JSONValue {
    try parse(Array(text.utf8))
  }

  /// Parses UTF-8 encoded JSON text with the default depth limit.
  public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
    try JSONParser().parse(bytes)
  }

  /// Parses JSON text with the default depth limit.
  public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
    try JSONParser().parse(text)
  }
}

/// The cursor and recursive-descent routines behind ``JSONParser``.
struct _JSONParserState {
  private let bytes: [UInt8]
  private let maxDepth: Int
  private var index = 0
  private var depth = 0

  init(bytes: [UInt8], maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
  }

  mutating func parseDocument() throws(JSONParseError) -> JSONValue {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    skipWhitespace()
    let value = try parseValue()
    skipWhitespace()
    if index < bytes.count { throw error(.trailingCharacters) }
    return value
  }

  // MARK: Values

  private mutating func parseValue() throws(JSONParseError) -> JSONValue {
    guard let byte = peek() else { throw error(.unexpectedEndOfInput) }
    switch byte {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
    case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
    case UInt8(ascii: "n"): return try parseLiteral("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
    default: throw unexpectedCharacter()
    }
  }

  private mutating func parseObject() throws(JSONParseError) -> JSONValue {
    try enterContainer()
    index += 1
    var members: [(key: String, value: JSONValue)] = []
    var keys: Set<String> = []
    skipWhitespace()
    if peek() == UInt8(ascii: "}") {
      index += 1
      depth -= 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard let byte = peek() else { throw error(.unexpectedEndOfInput) }
      guard byte == UInt8(ascii: "\"") else { throw error(.expectedKey) }
      let keyStart = index
      let key = try parseString()
      guard keys.insert(key).inserted else { throw error(.duplicateKey(key), at: keyStart) }
      skipWhitespace()
      guard let colon = peek() else { throw error(.unexpectedEndOfInput) }
      guard colon == UInt8(ascii: ":") else { throw error(.expectedColon) }
      index += 1
      skipWhitespace()
      members.append((key: key, value: try parseValue()))
      skipWhitespace()
      guard let separator = peek() else { throw error(.unexpectedEndOfInput) }
      index += 1
      if separator == UInt8(ascii: ",") { continue }
      if separator == UInt8(ascii: "}") { break }
      index -= 1
      throw error(.expectedCommaOrObjectEnd)
    }
    depth -= 1
    return .object(members)
  }

  private mutating func parseArray() throws(JSONParseError) -> JSONValue {
    try enterContainer()
    index += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if peek() == UInt8(ascii: "]") {
      index += 1
      depth -= 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try parseValue())
      skipWhitespace()
      guard let separator = peek() else { throw error(.unexpectedEndOfInput) }
      index += 1
      if separator == UInt8(ascii: ",") { continue }
      if separator == UInt8(ascii: "]") { break }
      index -= 1
      throw error(.expectedCommaOrArrayEnd)
    }
    depth -= 1
    return .array(elements)
  }

  private mutating func enterContainer() throws(JSONParseError) {
    guard depth < maxDepth else { throw error(.tooDeeplyNested(limit: maxDepth)) }
    depth += 1
  }

  private mutating func parseLiteral(_ word: String, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
    for expected in word.utf8 {
      guard let byte = peek() else { throw error(.unexpectedEndOfInput) }
      guard byte == expected else { throw unexpectedCharacter() }
      index += 1
    }
    return value
  }

  // MARK: Numbers

  private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
    let start = index
    var isInteger = true
    if peek() == UInt8(ascii: "-") { index += 1 }
    guard let first = peek() else { throw error(.unexpectedEndOfInput) }
    if first == UInt8(ascii: "0") {
      index += 1
      if let next = peek(), isDigit(next) { throw error(.invalidNumber, at: start) }
    } else if isDigit(first) {
      skipDigits()
    } else {
      throw error(.invalidNumber, at: start)
    }
    if peek() == UInt8(ascii: ".") {
      isInteger = false
      index += 1
      guard let digit = peek(), isDigit(digit) else { throw error(.invalidNumber, at: start) }
      skipDigits()
    }
    if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
      isInteger = false
      index += 1
      if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { index += 1 }
      guard let digit = peek(), isDigit(digit) else { throw error(.invalidNumber, at: start) }
      skipDigits()
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    if isInteger, let value = Int64(text) { return .int(value) }
    guard let value = Double(text), value.isFinite else { throw error(.numberOutOfRange, at: start) }
    return .double(value)
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private mutating func skipDigits() {
    while let byte = peek(), isDigit(byte) { index += 1 }
  }

  // MARK: Strings

  /// Parses a string starting at the opening quote.
  private mutating func parseString() throws(JSONParseError) -> String {
    let start = index
    index += 1
    var buffer: [UInt8] = []
    var segmentStart = index
    while true {
      guard let byte = peek() else { throw error(.unexpectedEndOfInput) }
      if byte == UInt8(ascii: "\"") {
        buffer.append(contentsOf: bytes[segmentStart..<index])
        index += 1
        break
      }
      if byte < 0x20 { throw error(.controlCharacterInString) }
      if byte == UInt8(ascii: "\\") {
        buffer.append(contentsOf: bytes[segmentStart..<index])
        try parseEscape(into: &buffer)
        segmentStart = index
        continue
      }
      index += 1
    }
    // Not `String(validating:as:)`, which needs iOS 18 / macOS 15: the
    // device side parses JSON too and runs on iOS 15. Decoding replaces
    // every invalid sequence, so the bytes differ exactly when it had one.
    let string = String(decoding: buffer, as: UTF8.self)
    guard string.utf8.elementsEqual(buffer) else {
      throw error(.invalidUTF8, at: start)
    }
    return string
  }

  private mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONParseError) {
    let escapeStart = index
    index += 1
    guard let byte = peek() else { throw error(.unexpectedEndOfInput) }
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
      let scalar = try parseUnicodeEscape(escapeStart: escapeStart)
      buffer.append(contentsOf: String(Character(scalar)).utf8)
      return
    default:
      throw error(.invalidEscape, at: escapeStart)
    }
    buffer.append(simple)
  }

  /// Parses the `XXXX` of a `\uXXXX` escape (and a following low surrogate escape).
  private mutating func parseUnicodeEscape(escapeStart: Int) throws(JSONParseError) -> Unicode.Scalar {
    let high = try parseHex4(escapeStart: escapeStart)
    switch high {
    case 0xD800...0xDBFF:
      let lowStart = index
      guard peek() == UInt8(ascii: "\\"), peek(at: index + 1) == UInt8(ascii: "u") else {
        throw error(.unpairedSurrogate, at: escapeStart)
      }
      index += 2
      let low = try parseHex4(escapeStart: lowStart)
      guard (0xDC00...0xDFFF).contains(low) else { throw error(.unpairedSurrogate, at: escapeStart) }
      let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
      guard let scalar = Unicode.Scalar(value) else { throw error(.unpairedSurrogate, at: escapeStart) }
      return scalar
    case 0xDC00...0xDFFF:
      throw error(.unpairedSurrogate, at: escapeStart)
    default:
      guard let scalar = Unicode.Scalar(high) else { throw error(.invalidUnicodeEscape, at: escapeStart) }
      return scalar
    }
  }

  private mutating func parseHex4(escapeStart: Int) throws(JSONParseError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = peek() else { throw error(.unexpectedEndOfInput) }
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw error(.invalidUnicodeEscape, at: escapeStart)
      }
      value = value << 4 | UInt32(digit)
      index += 1
    }
    return value
  }

  // MARK: Cursor and errors

  private func peek() -> UInt8? {
    index < bytes.count ? bytes[index] : nil
  }

  private func peek(at position: Int) -> UInt8? {
    position < bytes.count ? bytes[position] : nil
  }

  private mutating func skipWhitespace() {
    while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
      index += 1
    }
  }

  private func unexpectedCharacter() -> JSONParseError {
    var decoder = UTF8()
    var iterator = bytes[index...].makeIterator()
    let shown: String
    if case .scalarValue(let scalar) = decoder.decode(&iterator), scalar.value >= 0x20, scalar.value != 0x7F {
      shown = "'\(Character(scalar))'"
    } else {
      shown = Self.describe(byte: bytes[index])
    }
    return error(.unexpectedCharacter(shown))
  }

  /// `U+001F` for an ASCII control character, `byte 0xFF` for a byte that is not valid UTF-8.
  private static func describe(byte: UInt8) -> String {
    let hex = String(byte, radix: 16, uppercase: true)
    let padded = hex.count < 2 ? "0" + hex : hex
    return byte < 0x80 ? "U+00" + padded : "byte 0x" + padded
  }

  private func error(_ reason: JSONParseError.Reason) -> JSONParseError {
    error(reason, at: index)
  }

  /// Builds an error at byte `offset`, converting it to a line and a scalar column.
  private func error(_ reason: JSONParseError.Reason, at offset: Int) -> JSONParseError {
    let end = min(offset, bytes.count)
    var line = 1
    var lineStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? min(3, end) : 0
    for position in 0..<end where bytes[position] == 0x0A {
      line += 1
      lineStart = position + 1
    }
    // Count scalars: every byte that is not a UTF-8 continuation byte starts one.
    let column = 1 + bytes[lineStart..<end].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    return JSONParseError(line: line, column: column, reason: reason)
  }
}

