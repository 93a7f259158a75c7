/// A syntax error in JSON text, with the 1-based line and column where it was found.
///
/// Columns count Unicode scalars from the start of the line. The
/// ``description`` is `line:column: message`, ready to be prefixed with a
/// file path in compiler style.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Reason: Equatable, Sendable {
    /// The text ended inside a value, or was empty.
    case unexpectedEndOfInput
    /// A character that cannot start or continue a value here.
    case unexpectedCharacter(String)
    /// Something other than `"` where an object key was expected.
    case expectedKey
    /// Something other than `:` after an object key.
    case expectedColon
    /// Something other than `,` or `}` after an object member.
    case expectedCommaOrObjectEnd
    /// Something other than `,` or `]` after an array element.
    case expectedCommaOrArrayEnd
    /// A malformed number, such as `01`, `1.` or `-`.
    case invalidNumber
    /// A number too large to represent as a finite double.
    case numberOutOfRange
    /// An unknown escape such as `\x`.
    case invalidEscape
    /// A `\u` escape without four hex digits.
    case invalidUnicodeEscape
    /// A UTF-16 surrogate escape without its partner.
    case unpairedSurrogate
    /// A raw control character (below U+0020) inside a string.
    case controlCharacterInString
    /// Bytes that are not valid UTF-8 inside a string.
    case invalidUTF8
    /// An object that has the same key twice.
    case duplicateKey(String)
    /// Arrays and objects nested deeper than the limit.
    case tooDeeplyNested(limit: Int)
    /// Non-whitespace text after the top-level value.
    case trailingCharacters
    /// A token or value (a record of a streamed document) longer than the
    /// limit, in bytes (``JSONTokenizer``).
    case tooLong(limit: Int)
  }

  /// The 1-based line.
  public let line: Int
  /// The 1-based column, in Unicode scalars.
  public let column: Int
  /// What went wrong.
  public let reason: Reason

  /// Creates an error.
  public init(line: Int, column: Int, reason: Reason) {
    self.line = line
    self.column = column
    self.reason = reason
  }

  /// `line:column: reason`.
  public var message: String { "\(line):\(column): \(reasonText)" }

  /// The same as ``message``.
  public var description: String { message }

  /// The lowercase reason without the position.
  public var reasonText: String {
    switch reason {
    case .unexpectedEndOfInput: return "unexpected end of input"
    case .unexpectedCharacter(let character): return "unexpected character \(character)"
    case .expectedKey: return "expected a string key"
    case .expectedColon: return "expected ':' after object key"
    case .expectedCommaOrObjectEnd: return "expected ',' or '}' after object member"
    case .expectedCommaOrArrayEnd: return "expected ',' or ']' after array element"
    case .invalidNumber: return "invalid number"
    case .numberOutOfRange: return "number out of range"
    case .invalidEscape: return "invalid escape sequence"
    case .invalidUnicodeEscape: return "invalid unicode escape, expected four hex digits"
    case .unpairedSurrogate: return "unpaired utf-16 surrogate in unicode escape"
    case .controlCharacterInString: return "unescaped control character in string"
    case .invalidUTF8: return "invalid utf-8 in string"
    case .duplicateKey(let key): return "duplicate key '\(key)'"
    case .tooDeeplyNested(let limit): return "nesting deeper than \(limit) levels"
    case .trailingCharacters: return "unexpected characters after the json value"
    case .tooLong(let limit): return "a value longer than \(limit) bytes"
    }
  }
}
