/// A JSON value with object keys kept in insertion order.
///
/// Building output is easiest with literals, which keep the written key order:
///
///     let line: JSONValue = ["number": "+14155550100", "blocked": true, "count": 3]
///     output.writeJSONLine(line)   // {"number":"+14155550100","blocked":true,"count":3}
///
/// Integers that fit in `Int64` are ``int(_:)``; other numbers are ``double(_:)``.
public enum JSONValue: Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number without fraction or exponent that fits in 64 bits.
  case int(Int64)
  /// Any other number. Non-finite values serialize as `null`.
  case double(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object; member order is preserved and serialized as given.
  case object([(key: String, value: JSONValue)])
}

extension JSONValue {
  /// The member named `key` of an object (the first one, if repeated), else `nil`.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// The element at `index` of an array, else `nil` (also when out of range).
  public subscript(index: Int) -> JSONValue? {
    guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
    return elements[index]
  }

  /// The payload of ``string(_:)``, else `nil`.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The payload of ``bool(_:)``, else `nil`.
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The payload of ``int(_:)``, else `nil`.
  public var intValue: Int64? {
    if case .int(let value) = self { return value }
    return nil
  }

  /// The number as a `Double`, for both ``int(_:)`` and ``double(_:)``, else `nil`.
  public var doubleValue: Double? {
    switch self {
    case .int(let value): return Double(value)
    case .double(let value): return value
    default: return nil
    }
  }

  /// The payload of ``array(_:)``, else `nil`.
  public var arrayValue: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The members of ``object(_:)``, else `nil`.
  public var objectValue: [(key: String, value: JSONValue)]? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// Whether this is ``null``.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }
}

extension JSONValue: Equatable {
  /// Structural equality; object members are compared in order.
  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.int(let a), .int(let b)): return a == b
    case (.double(let a), .double(let b)): return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    default: return false
    }
  }
}

extension JSONValue: CustomStringConvertible {
  /// The compact serialization.
  public var description: String { serialized() }
}
