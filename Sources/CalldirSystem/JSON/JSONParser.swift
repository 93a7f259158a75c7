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
    let isInteger = try shared { (p, count, index) throws(_JSONScalars.Failure) in
      try _JSONScalars.scanNumber(p, count, &index)
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    if isInteger, let value = Int64(text) { return .int(value) }
    guard let value = Double(text), value.isFinite else { throw error(.numberOutOfRange, at: start) }
    return .double(value)
  }

  /// Runs one of the shared scalar routines (``_JSONScalars``) at the
  /// cursor, moving it past what the routine read.
  private mutating func shared<Result>(
    _ body: (UnsafePointer<UInt8>, Int, inout Int) throws(_JSONScalars.Failure) -> Result
  ) throws(JSONParseError) -> Result {
    var cursor = index
    let outcome: Result
    do {
      outcome = try bytes.withUnsafeBufferPointer { (buffer) throws(_JSONScalars.Failure) -> Result in
        // The cursor is on a character, so the buffer is not empty.
        guard let base = buffer.baseAddress else { throw _JSONScalars.Failure(reason: .unexpectedEndOfInput, offset: 0) }
        return try body(base, buffer.count, &cursor)
      }
    } catch {
      throw self.error(error.reason, at: error.offset)
    }
    index = cursor
    return outcome
  }

  // MARK: Strings

  /// Parses a string starting at the opening quote.
  private mutating func parseString() throws(JSONParseError) -> String {
    try shared { (p, count, index) throws(_JSONScalars.Failure) in try _JSONScalars.decodeString(p, count, &index) }
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
    let shown = bytes.withUnsafeBufferPointer { buffer in
      buffer.baseAddress.map { _JSONScalars.shownCharacter($0, buffer.count, at: index) } ?? ""
    }
    return error(.unexpectedCharacter(shown))
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

