extension JSONValue {
  /// The JSON type name for messages: `string`, `integer`, `number`, …
  public var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .int: "integer"
    case .double: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }
}
