/// A JSON value with its exact type, decoded through `JSONDecoder`.
///
/// Keeping integers apart from fractions (and both apart from booleans)
/// lets the config parser name the wrong type precisely.
indirect enum _JSONValue: Decodable, Equatable, Sendable {
  case null
  case bool(Bool)
  case integer(Int64)
  case double(Double)
  case string(String)
  case array([_JSONValue])
  case object([String: _JSONValue])

  init(from decoder: any Decoder) throws {
    if let object = try? decoder.container(keyedBy: _AnyKey.self) {
      var result: [String: _JSONValue] = [:]
      for key in object.allKeys {
        result[key.stringValue] = try object.decode(
          _JSONValue.self, forKey: key)
      }
      self = .object(result)
      return
    }
    if var array = try? decoder.unkeyedContainer() {
      var result: [_JSONValue] = []
      while !array.isAtEnd {
        result.append(try array.decode(_JSONValue.self))
      }
      self = .array(result)
      return
    }
    let single = try decoder.singleValueContainer()
    if single.decodeNil() {
      self = .null
    } else if let value = try? single.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? single.decode(Int64.self) {
      self = .integer(value)
    } else if let value = try? single.decode(Double.self) {
      self = .double(value)
    } else {
      self = .string(try single.decode(String.self))
    }
  }

  /// The JSON type name for messages: `string`, `integer`, `number`, …
  var typeName: String {
    switch self {
    case .null: return "null"
    case .bool: return "boolean"
    case .integer: return "integer"
    case .double: return "number"
    case .string: return "string"
    case .array: return "array"
    case .object: return "object"
    }
  }
}

/// A coding key for arbitrary object keys.
struct _AnyKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }

  init(stringValue: String) {
    self.stringValue = stringValue
  }

  init?(intValue: Int) {
    return nil
  }
}
