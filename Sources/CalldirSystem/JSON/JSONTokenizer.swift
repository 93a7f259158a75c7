/// Bytes a ``JSONTokenizer`` reads through: `base[0..<end]` are at hand,
/// and ``refill(keepingFrom:)`` moves `base[keep..<end]` to the front and
/// appends what comes next, setting ``isEOF`` once nothing does.
public protocol JSONByteWindow: AnyObject {
  /// The bytes at hand start here.
  var base: UnsafeMutablePointer<UInt8> { get }
  /// How many bytes are at hand.
  var end: Int { get }
  /// Whether the stream has no more bytes.
  var isEOF: Bool { get }
  /// Drops `base[0..<keep]`, moves the rest to the front and appends more.
  func refill(keepingFrom keep: Int) throws
}

/// A ``JSONByteWindow`` over bytes in memory, handing out at most
/// `chunkSize` new bytes per refill (tests cut documents anywhere with it).
public final class JSONMemoryWindow: JSONByteWindow {
  private let bytes: [UInt8]
  private let chunkSize: Int
  private var given = 0
  private var capacity: Int
  public private(set) var base: UnsafeMutablePointer<UInt8>
  public private(set) var end = 0
  public private(set) var isEOF = false

  /// Creates a window; nothing is at hand before the first refill.
  public init(_ bytes: [UInt8], chunkSize: Int = 1 << 16) {
    self.bytes = bytes
    self.chunkSize = max(1, chunkSize)
    capacity = self.chunkSize
    base = .allocate(capacity: capacity)
  }

  deinit { base.deallocate() }

  public func refill(keepingFrom keep: Int) {
    let kept = end - keep
    if keep > 0, kept > 0 { (base).update(from: base + keep, count: kept) }
    end = kept
    let count = min(chunkSize, bytes.count - given)
    guard count > 0 else {
      isEOF = true
      return
    }
    if capacity - end < count {
      capacity = max(capacity * 2, end + count)
      let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
      grown.update(from: base, count: end)
      base.deallocate()
      base = grown
    }
    bytes.withUnsafeBufferPointer { buffer in
      if let source = buffer.baseAddress { (base + end).update(from: source + given, count: count) }
    }
    given += count
    end += count
  }
}

/// One token of a JSON document.
public enum JSONToken: Equatable, Sendable {
  case objectStart
  case objectEnd
  case arrayStart
  case arrayEnd
  /// An object member's name (the `:` after it is consumed with it).
  case key(String)
  case string(String)
  /// A number as written.
  case number(String)
  case bool(Bool)
  case null
}

/// A streaming JSON reader: tokens, or whole values (``JSONNode``), from a
/// document read through a ``JSONByteWindow``, with the line of each.
///
/// The tokenizer checks the whole grammar as ``JSONParser`` does (and
/// shares its string, escape and number decoding), but holds only the
/// token at hand and a stack of one bit per open container, so a document
/// of any size streams in bounded memory: nesting deeper than
/// ``maxDepth`` and a token longer than ``maxTokenBytes`` are errors, not
/// growth. Duplicate keys are not checked (that needs every key of an
/// object). Errors are ``JSONParseError``s with the line and the column
/// (in Unicode scalars) of the problem; an error of the window (a failed
/// read) is rethrown as is.
///
///     let tokenizer = JSONTokenizer(window: JSONMemoryWindow(bytes))
///     while let token = try tokenizer.next() { … }   // nil: the document ended
public final class JSONTokenizer {
  /// The deepest nesting of arrays and objects accepted.
  public let maxDepth: Int
  /// The longest string or number token accepted, in bytes.
  public let maxTokenBytes: Int

  private let window: any JSONByteWindow
  private var base: UnsafeMutablePointer<UInt8>
  private var end: Int
  private var index: Int
  /// The stream offset of `base[0]`.
  private var dropped = 0
  /// The line at the cursor, and where it starts (a buffer index, negative
  /// when it started before `base[0]`; then `droppedColumns` scalars of it
  /// were dropped).
  public private(set) var line = 1
  private var lineStart: Int
  private var droppedColumns = 0
  /// The stream offset of the last line feed, if any.
  private var lastLineFeed = -1
  /// The line where the last token returned started.
  public private(set) var tokenLine = 1
  private var tokenStart = 0
  /// One entry per open container: true for an object.
  private var containers: [Bool] = []
  private var state = State.value

  private enum State {
    case value, valueOrArrayEnd, keyOrObjectEnd, key, commaOrEnd, done
  }

  /// Creates a tokenizer reading from `base[start...]` of the window (past
  /// a byte-order mark, say).
  public init(window: any JSONByteWindow, start: Int = 0, maxDepth: Int = 512, maxTokenBytes: Int = 16 << 20) {
    self.window = window
    self.maxDepth = maxDepth
    self.maxTokenBytes = maxTokenBytes
    base = window.base
    end = window.end
    index = min(start, window.end)
    lineStart = index
  }

  /// What the grammar expects at the cursor, for messages: `a value`,
  /// `',' or ']'`, `a string key or '}'`, `the end of the document`, …
  public var expected: String {
    switch state {
    case .value: "a value"
    case .valueOrArrayEnd: "a value or ']'"
    case .keyOrObjectEnd: "a string key or '}'"
    case .key: "a string key"
    case .commaOrEnd: containers.last == true ? "',' or '}'" : "',' or ']'"
    case .done: "the end of the document"
    }
  }

  /// Open containers at the cursor.
  public var depth: Int { containers.count }
  /// The stream offset of the cursor.
  public var offset: Int { dropped + index }
  /// Physical lines read so far (a final line feed ends the last line
  /// rather than starting one).
  public var physicalLines: Int { lastLineFeed == offset - 1 ? line - 1 : line }

  // MARK: Tokens

  /// The next token; nil once the document ended (after checking that only
  /// whitespace follows it).
  ///
  /// - Throws: ``JSONParseError``, or what the window throws.
  public func next() throws -> JSONToken? {
    while true {
      try skipWhitespace()
      tokenStart = index
      tokenLine = line
      switch state {
      case .done:
        if index < end { throw failure(.trailingCharacters, at: index) }
        return nil
      case .commaOrEnd:
        guard index < end else { throw failure(.unexpectedEndOfInput, at: index) }
        let isObject = containers[containers.count - 1]
        let byte = base[index]
        if byte == UInt8(ascii: ",") {
          index += 1
          state = isObject ? .key : .value
          continue
        }
        if byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
          return close()
        }
        throw failure(isObject ? .expectedCommaOrObjectEnd : .expectedCommaOrArrayEnd, at: index)
      case .keyOrObjectEnd, .key:
        guard index < end else { throw failure(.unexpectedEndOfInput, at: index) }
        if base[index] == UInt8(ascii: "}"), state == .keyOrObjectEnd { return close() }
        guard base[index] == UInt8(ascii: "\"") else { throw failure(.expectedKey, at: index) }
        let key = try string()
        try skipWhitespace()
        guard index < end else { throw failure(.unexpectedEndOfInput, at: index) }
        guard base[index] == UInt8(ascii: ":") else { throw failure(.expectedColon, at: index) }
        index += 1
        state = .value
        return .key(key)
      case .valueOrArrayEnd, .value:
        guard index < end else { throw failure(.unexpectedEndOfInput, at: index) }
        if state == .valueOrArrayEnd, base[index] == UInt8(ascii: "]") { return close() }
        return try value()
      }
    }
  }

  /// The value token at the cursor.
  private func value() throws -> JSONToken {
    let token: JSONToken
    switch base[index] {
    case UInt8(ascii: "{"):
      try open(object: true)
      state = .keyOrObjectEnd
      return .objectStart
    case UInt8(ascii: "["):
      try open(object: false)
      state = .valueOrArrayEnd
      return .arrayStart
    case UInt8(ascii: "\""): token = .string(try string())
    case UInt8(ascii: "t"): token = try literal("true", .bool(true))
    case UInt8(ascii: "f"): token = try literal("false", .bool(false))
    case UInt8(ascii: "n"): token = try literal("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): token = .number(try number())
    default:
      _ = try ensure(4)
      throw failure(.unexpectedCharacter(_JSONScalars.shownCharacter(base, end, at: index)), at: index)
    }
    state = containers.isEmpty ? .done : .commaOrEnd
    return token
  }

  private func open(object: Bool) throws(JSONParseError) {
    guard containers.count < maxDepth else { throw failure(.tooDeeplyNested(limit: maxDepth), at: index) }
    containers.append(object)
    index += 1
  }

  private func close() -> JSONToken {
    index += 1
    let isObject = containers.removeLast()
    state = containers.isEmpty ? .done : .commaOrEnd
    return isObject ? .objectEnd : .arrayEnd
  }

  /// The string whose quote is at the cursor, decoded.
  private func string() throws -> String {
    // Find the closing quote first, so that the whole string is at hand.
    var length = 1
    scan: while true {
      while index + length >= end {
        if length > maxTokenBytes { throw failure(.tooLong(limit: maxTokenBytes), at: index) }
        guard try ensure(length + 1) else { break scan }
      }
      switch base[index + length] {
      case UInt8(ascii: "\""): break scan
      case UInt8(ascii: "\\"): length += 2
      case 0..<0x20: break scan
      default: length += 1
      }
    }
    if length > maxTokenBytes { throw failure(.tooLong(limit: maxTokenBytes), at: index) }
    var cursor = index
    do {
      let text = try _JSONScalars.decodeString(base, end, &cursor)
      index = cursor
      return text
    } catch {
      throw failure(error.reason, at: error.offset)
    }
  }

  /// The number at the cursor, as written.
  private func number() throws -> String {
    var length = 0
    scan: while true {
      while index + length >= end {
        if length > maxTokenBytes { throw failure(.tooLong(limit: maxTokenBytes), at: index) }
        guard try ensure(length + 1) else { break scan }
      }
      switch base[index + length] {
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
        UInt8(ascii: "e"), UInt8(ascii: "E"):
        length += 1
      default: break scan
      }
    }
    var cursor = index
    do {
      _ = try _JSONScalars.scanNumber(base, end, &cursor)
    } catch {
      throw failure(error.reason, at: error.offset)
    }
    let text = String(decoding: UnsafeBufferPointer(start: base + index, count: cursor - index), as: UTF8.self)
    index = cursor
    return text
  }

  private func literal(_ word: StaticString, _ token: JSONToken) throws -> JSONToken {
    let count = word.utf8CodeUnitCount
    _ = try ensure(count)
    for position in 0..<count {
      guard index + position < end else { throw failure(.unexpectedEndOfInput, at: end) }
      guard base[index + position] == word.utf8Start[position] else {
        _ = try ensure(position + 4)
        throw failure(
          .unexpectedCharacter(_JSONScalars.shownCharacter(base, end, at: index + position)), at: index + position)
      }
    }
    index += count
    return token
  }

  // MARK: Values

  /// Reads the value that starts with the next token, whole; nil when the
  /// next token ends the enclosing array or object instead (it is
  /// consumed), or the document ended. Call it where a value or the end
  /// of an array can come (not where an object's key is due).
  ///
  /// - Parameter maxBytes: The longest value accepted: a longer one is a
  ///   ``JSONParseError/Reason/tooLong(limit:)`` error where the limit was
  ///   passed, so that memory stays bounded by the limit.
  /// - Throws: ``JSONParseError``, or what the window throws.
  public func nextValue(maxBytes: Int = .max) throws -> JSONNode? {
    guard var token = try next() else { return nil }
    let start = dropped + tokenStart
    var frames: [(line: Int, elements: [JSONNode], members: [JSONNode.Member], key: String?, isObject: Bool)] = []
    while true {
      var node: JSONNode?
      switch token {
      case .objectStart, .arrayStart:
        frames.append((tokenLine, [], [], nil, token == .objectStart))
      case .key(let key):
        if !frames.isEmpty { frames[frames.count - 1].key = key }
      case .objectEnd, .arrayEnd:
        guard let frame = frames.popLast() else { return nil }
        node = JSONNode(line: frame.line, value: frame.isObject ? .object(frame.members) : .array(frame.elements))
      case .string(let text): node = JSONNode(line: tokenLine, value: .string(text))
      case .number(let text): node = JSONNode(line: tokenLine, value: .number(text))
      case .bool(let flag): node = JSONNode(line: tokenLine, value: .bool(flag))
      case .null: node = JSONNode(line: tokenLine, value: .null)
      }
      if let node {
        guard !frames.isEmpty else { return node }
        let top = frames.count - 1
        if frames[top].isObject {
          frames[top].members.append(JSONNode.Member(key: frames[top].key ?? "", value: node))
        } else {
          frames[top].elements.append(node)
        }
      }
      if dropped + index - start > maxBytes { throw failure(.tooLong(limit: maxBytes), at: index) }
      guard let following = try next() else { throw failure(.unexpectedEndOfInput, at: index) }
      token = following
    }
  }

  /// Skips the value that starts with the next token (or the end of the
  /// enclosing container, consumed), checking its syntax.
  ///
  /// - Throws: ``JSONParseError``, or what the window throws.
  public func skipValue() throws {
    guard let token = try next() else { return }
    guard token == .objectStart || token == .arrayStart else { return }
    let outside = depth - 1
    while depth > outside {
      guard try next() != nil else { return }
    }
  }

  // MARK: Bytes and positions

  private func skipWhitespace() throws {
    while true {
      while index < end {
        switch base[index] {
        case 0x20, 0x09, 0x0D: index += 1
        case 0x0A:
          index += 1
          line += 1
          lineStart = index
          droppedColumns = 0
          lastLineFeed = dropped + index - 1
        default: return
        }
      }
      if window.isEOF { return }
      try refill()
    }
  }

  /// Makes `count` bytes from the cursor at hand; false when the stream
  /// ends first.
  private func ensure(_ count: Int) throws -> Bool {
    while end - index < count {
      if window.isEOF { return false }
      try refill()
    }
    return true
  }

  /// Drops the bytes before the cursor and reads more.
  private func refill() throws {
    let keep = index
    if lineStart < keep { droppedColumns += _JSONScalars.scalarCount(base, max(lineStart, 0), keep) }
    lineStart -= keep
    dropped += keep
    tokenStart -= keep
    try window.refill(keepingFrom: keep)
    base = window.base
    end = window.end
    index = 0
  }

  /// An error about the last token returned (a duplicate key, say), at
  /// its start.
  public func errorAtToken(_ reason: JSONParseError.Reason) -> JSONParseError {
    guard tokenLine == line, tokenStart >= 0 else { return JSONParseError(line: tokenLine, column: 1, reason: reason) }
    return failure(reason, at: tokenStart)
  }

  /// An error at buffer index `position` of the current line.
  private func failure(_ reason: JSONParseError.Reason, at position: Int) -> JSONParseError {
    let column =
      (lineStart < 0 ? droppedColumns : 0) + _JSONScalars.scalarCount(base, max(lineStart, 0), min(position, end)) + 1
    return JSONParseError(line: line, column: column, reason: reason)
  }
}
