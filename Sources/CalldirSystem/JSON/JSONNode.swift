/// A JSON value read by a ``JSONTokenizer``, with the line each value
/// starts on, and numbers kept as written (an integer of any length keeps
/// its digits; nothing goes through `Double`).
public struct JSONNode: Sendable, Equatable {
  /// An object member.
  public struct Member: Sendable, Equatable {
    /// The member name.
    public var key: String
    /// The member value.
    public var value: JSONNode

    /// Creates a member.
    public init(key: String, value: JSONNode) {
      self.key = key
      self.value = value
    }
  }

  /// The value itself.
  public enum Value: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number, as written (valid JSON number syntax).
    case number(String)
    case string(String)
    case array([JSONNode])
    /// Members in document order.
    case object([Member])
  }

  /// The 1-based line where the value's first token starts.
  public var line: Int
  /// The value.
  public var value: Value

  /// Creates a node.
  public init(line: Int, value: Value) {
    self.line = line
    self.value = value
  }

  /// The first member named `key` of an object, else nil.
  public subscript(member key: String) -> JSONNode? {
    guard case .object(let members) = value else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// What `pointer` refers to inside this value (RFC 6901: an object's
  /// member by name, an array's element by index), else nil.
  public func resolving(_ pointer: JSONPointer) -> JSONNode? {
    var node = self
    for token in pointer.tokens {
      switch node.value {
      case .object:
        guard let member = node[member: token] else { return nil }
        node = member
      case .array(let elements):
        guard let index = JSONPointer.arrayIndex(token), index < elements.count else { return nil }
        node = elements[index]
      default:
        return nil
      }
    }
    return node
  }

  /// The number's digits when it is an integer (no fraction or exponent),
  /// else nil.
  public var integerText: String? {
    guard case .number(let text) = value,
      !text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") })
    else { return nil }
    return text
  }

  /// The JSON type name for messages: `object`, `array`, `string`,
  /// `integer`, `number`, `boolean` or `null`.
  public var typeName: String {
    switch value {
    case .null: "null"
    case .bool: "boolean"
    case .number: integerText != nil ? "integer" : "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }

  /// The compact JSON text of the value (numbers as written), for messages.
  public var compactText: String {
    var bytes: [UInt8] = []
    write(into: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  private func write(into bytes: inout [UInt8]) {
    switch value {
    case .null: bytes += "null".utf8
    case .bool(let flag): bytes += (flag ? "true" : "false").utf8
    case .number(let text): bytes += text.utf8
    case .string(let text): JSONValue.string(text).serialize(into: &bytes)
    case .array(let elements):
      bytes.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        element.write(into: &bytes)
      }
      bytes.append(UInt8(ascii: "]"))
    case .object(let members):
      bytes.append(UInt8(ascii: "{"))
      for (index, member) in members.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        JSONValue.string(member.key).serialize(into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        member.value.write(into: &bytes)
      }
      bytes.append(UInt8(ascii: "}"))
    }
  }
}
