/// An RFC 6901 JSON Pointer: `""` is the whole document, `/a/0/b~1c` the
/// member `b/c` of the first element of the member `a` (`~1` stands for
/// `/`, `~0` for `~`).
///
///     let pointer = try JSONPointer(parsing: "/data/records")
///     pointer.tokens   // ["data", "records"]
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
  /// The reference tokens, unescaped.
  public let tokens: [String]
  /// The pointer as written.
  public let text: String

  /// The pointer to the whole document.
  public static let root = JSONPointer(tokens: [], text: "")

  private init(tokens: [String], text: String) {
    self.tokens = tokens
    self.text = text
  }

  /// Parses a pointer.
  ///
  /// - Throws: ``JSONPointerError`` for text that is neither empty nor
  ///   starts with `/`, and for a `~` not followed by `0` or `1`.
  public init(parsing text: String) throws(JSONPointerError) {
    guard !text.isEmpty else {
      self = .root
      return
    }
    guard text.hasPrefix("/") else {
      throw JSONPointerError(pointer: text, reason: "must be empty or start with '/'")
    }
    var tokens: [String] = []
    for piece in text.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
      var bytes: [UInt8] = []
      bytes.reserveCapacity(piece.count)
      var iterator = piece.makeIterator()
      while let byte = iterator.next() {
        guard byte == UInt8(ascii: "~") else {
          bytes.append(byte)
          continue
        }
        switch iterator.next() {
        case UInt8(ascii: "0"): bytes.append(UInt8(ascii: "~"))
        case UInt8(ascii: "1"): bytes.append(UInt8(ascii: "/"))
        default: throw JSONPointerError(pointer: text, reason: "'~' must be followed by '0' or '1'")
        }
      }
      tokens.append(String(decoding: bytes, as: UTF8.self))
    }
    self.init(tokens: tokens, text: text)
  }

  /// The pointer to `token` inside what this pointer refers to.
  public func appending(_ token: String) -> JSONPointer {
    JSONPointer(tokens: tokens + [token], text: text + "/" + Self.escaped(token))
  }

  /// The pointer to the first `count` tokens.
  public func prefix(_ count: Int) -> JSONPointer {
    JSONPointer(tokens: Array(tokens.prefix(count)), text: tokens.prefix(count).map { "/" + Self.escaped($0) }.joined())
  }

  /// A token as a pointer writes it: `~` as `~0`, `/` as `~1`.
  public static func escaped(_ token: String) -> String {
    guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
    var result = ""
    for character in token.unicodeScalars {
      switch character {
      case "~": result += "~0"
      case "/": result += "~1"
      default: result.unicodeScalars.append(character)
      }
    }
    return result
  }

  /// The array index a token names: `0`, or digits without a leading zero;
  /// nil for anything else, `-` (the element after the last) included.
  public static func arrayIndex(_ token: String) -> Int? {
    let bytes = Array(token.utf8)
    guard let first = bytes.first, bytes.count <= 18, bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      first != UInt8(ascii: "0") || bytes.count == 1
    else { return nil }
    return bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
  }

  /// The pointer as written.
  public var description: String { text }
}

/// A JSON Pointer that cannot be parsed.
public struct JSONPointerError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The pointer as written.
  public var pointer: String
  /// Why, lowercase.
  public var reason: String

  /// Creates an error.
  public init(pointer: String, reason: String) {
    self.pointer = pointer
    self.reason = reason
  }

  /// `invalid json pointer '…': reason`.
  public var description: String { "invalid json pointer '\(pointer)': \(reason)" }
}
