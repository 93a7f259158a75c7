/// A value SQLite stores: one case per storage class.
public enum SQLiteValue: Hashable, Sendable {
  /// `NULL`.
  case null
  /// A 64-bit signed integer.
  case integer(Int64)
  /// An IEEE 754 double.
  case real(Double)
  /// UTF-8 text; it may contain NUL characters.
  case text(String)
  /// Bytes.
  case blob([UInt8])

  /// The integer, or `nil` if this is not `.integer`.
  public var int64: Int64? {
    if case .integer(let value) = self { return value }
    return nil
  }

  /// The double (integers are converted), or `nil` otherwise.
  public var double: Double? {
    switch self {
    case .real(let value): return value
    case .integer(let value): return Double(value)
    default: return nil
    }
  }

  /// The text, or `nil` if this is not `.text`.
  public var string: String? {
    if case .text(let value) = self { return value }
    return nil
  }

  /// The bytes, or `nil` if this is not `.blob`.
  public var bytes: [UInt8]? {
    if case .blob(let value) = self { return value }
    return nil
  }

  /// Whether this is `.null`.
  public var isNull: Bool { self == .null }
}

extension SQLiteValue: ExpressibleByNilLiteral {
  /// Creates `.null`.
  public init(nilLiteral: ()) { self = .null }
}

extension SQLiteValue: ExpressibleByIntegerLiteral {
  /// Creates `.integer`.
  public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension SQLiteValue: ExpressibleByFloatLiteral {
  /// Creates `.real`.
  public init(floatLiteral value: Double) { self = .real(value) }
}

extension SQLiteValue: ExpressibleByStringLiteral {
  /// Creates `.text`.
  public init(stringLiteral value: String) { self = .text(value) }
}
