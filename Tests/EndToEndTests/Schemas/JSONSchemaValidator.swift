import CalldirSystem
import Foundation

/// A JSON Schema (draft 2020-12) validator for the keywords calldir's
/// schemas use: `type` (one or a list; `integer` is a number without
/// fraction), `properties`, `required`, `additionalProperties` (a boolean
/// or a schema), `items`, `enum`, `const`, `minimum`, `maximum`,
/// `minLength`, `minItems`, `maxItems`, `pattern`, `anyOf`, `oneOf`, and `$ref` to
/// `#/$defs/NAME` (or `#`). Annotations (`$schema`, `$id`, `title`,
/// `description`, `examples`, `default`, `$comment`, `$defs`) are skipped;
/// any other keyword is an error of the schema, so a schema cannot rely
/// on a keyword this validator would silently ignore.
struct JSONSchemaValidator {
  /// A place the instance breaks the schema: its JSON Pointer and why.
  struct Violation: Equatable, CustomStringConvertible {
    var pointer: String
    var message: String
    var description: String { "\(pointer.isEmpty ? "(root)" : pointer): \(message)" }
  }

  /// A schema this validator cannot apply.
  struct SchemaError: Error, CustomStringConvertible {
    var description: String
  }

  private static let annotations: Set<String> = [
    "$schema", "$id", "title", "description", "examples", "default", "$comment", "$defs",
  ]
  private static let keywords: Set<String> = [
    "type", "properties", "required", "additionalProperties", "items", "enum", "const", "minimum", "maximum",
    "minLength", "minItems", "maxItems", "pattern", "anyOf", "oneOf", "$ref",
  ]

  /// The whole schema document (`$ref` resolves against it).
  let root: JSONValue

  init(schema: JSONValue) {
    root = schema
  }

  /// Reads a schema file.
  init(contentsOf url: URL) throws {
    root = try JSONParser.parse(Array(try Data(contentsOf: url)))
  }

  /// Every violation of `instance`; empty when it is valid.
  func violations(of instance: JSONValue) throws(SchemaError) -> [Violation] {
    var found: [Violation] = []
    try check(instance, against: root, at: "", into: &found)
    return found
  }

  private func check(
    _ instance: JSONValue, against schema: JSONValue, at pointer: String, into found: inout [Violation]
  ) throws(SchemaError) {
    if case .bool(let accepts) = schema {
      if !accepts { found.append(Violation(pointer: pointer, message: "no value is allowed here")) }
      return
    }
    guard let members = schema.objectValue else { throw SchemaError(description: "a schema at \(pointer) is not an object") }
    for (keyword, value) in members {
      if Self.annotations.contains(keyword) { continue }
      guard Self.keywords.contains(keyword) else { throw SchemaError(description: "unsupported keyword '\(keyword)'") }
      try apply(keyword, value, schema: schema, to: instance, at: pointer, into: &found)
    }
  }

  private func apply(
    _ keyword: String, _ value: JSONValue, schema: JSONValue, to instance: JSONValue, at pointer: String,
    into found: inout [Violation]
  ) throws(SchemaError) {
    func fail(_ message: String) { found.append(Violation(pointer: pointer, message: message)) }
    switch keyword {
    case "type":
      let names = value.arrayValue?.compactMap(\.stringValue) ?? value.stringValue.map { [$0] } ?? []
      guard !names.isEmpty else { throw SchemaError(description: "type at \(pointer) names no type") }
      if !names.contains(where: { Self.has(instance, type: $0) }) {
        fail("\(instance.typeName) is not \(names.joined(separator: " or "))")
      }
    case "properties":
      guard let properties = value.objectValue else { throw SchemaError(description: "properties is not an object") }
      for (key, member) in instance.objectValue ?? [] {
        if let property = properties.first(where: { $0.key == key }) {
          try check(member, against: property.value, at: pointer + "/" + Self.escaped(key), into: &found)
        }
      }
    case "required":
      guard let object = instance.objectValue else { return }
      for name in value.arrayValue?.compactMap(\.stringValue) ?? [] where !object.contains(where: { $0.key == name }) {
        fail("required member '\(name)' is missing")
      }
    case "additionalProperties":
      let declared = Set(schema["properties"]?.objectValue?.map(\.key) ?? [])
      for (key, member) in instance.objectValue ?? [] where !declared.contains(key) {
        if case .bool(false) = value {
          fail("member '\(key)' is not allowed")
        } else {
          try check(member, against: value, at: pointer + "/" + Self.escaped(key), into: &found)
        }
      }
    case "items":
      for (index, element) in (instance.arrayValue ?? []).enumerated() {
        try check(element, against: value, at: pointer + "/\(index)", into: &found)
      }
    case "enum":
      guard let options = value.arrayValue else { throw SchemaError(description: "enum is not an array") }
      if !options.contains(where: { Self.equal($0, instance) }) { fail("\(instance) is not one of \(value)") }
    case "const":
      if !Self.equal(value, instance) { fail("\(instance) is not \(value)") }
    case "minimum":
      if let number = instance.doubleValue, let bound = value.doubleValue, number < bound { fail("\(instance) is below \(value)") }
    case "maximum":
      if let number = instance.doubleValue, let bound = value.doubleValue, number > bound { fail("\(instance) is above \(value)") }
    case "minLength":
      if let text = instance.stringValue, let bound = value.intValue, text.unicodeScalars.count < bound {
        fail("string shorter than \(bound)")
      }
    case "minItems":
      if let elements = instance.arrayValue, let bound = value.intValue, elements.count < bound {
        fail("fewer than \(bound) items")
      }
    case "maxItems":
      if let elements = instance.arrayValue, let bound = value.intValue, elements.count > bound {
        fail("more than \(bound) items")
      }
    case "pattern":
      guard let source = value.stringValue, let regex = try? NSRegularExpression(pattern: source) else {
        throw SchemaError(description: "pattern at \(pointer) is not a regular expression")
      }
      if let text = instance.stringValue,
        regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil
      {
        fail("\(instance) does not match \(source)")
      }
    case "anyOf", "oneOf":
      guard let options = value.arrayValue, !options.isEmpty else { throw SchemaError(description: "\(keyword) is empty") }
      var matching = 0
      for option in options {
        var inner: [Violation] = []
        try check(instance, against: option, at: pointer, into: &inner)
        if inner.isEmpty { matching += 1 }
      }
      if keyword == "anyOf" ? matching == 0 : matching != 1 {
        fail("matches \(matching) of the \(keyword) schemas")
      }
    case "$ref":
      try check(instance, against: try resolve(value.stringValue ?? ""), at: pointer, into: &found)
    default:
      throw SchemaError(description: "unsupported keyword '\(keyword)'")
    }
  }

  /// `#` or `#/$defs/NAME`.
  private func resolve(_ reference: String) throws(SchemaError) -> JSONValue {
    if reference == "#" { return root }
    let prefix = "#/$defs/"
    guard reference.hasPrefix(prefix), let target = root["$defs"]?[String(reference.dropFirst(prefix.count))] else {
      throw SchemaError(description: "cannot resolve $ref '\(reference)'")
    }
    return target
  }

  private static func has(_ instance: JSONValue, type: String) -> Bool {
    switch (type, instance) {
    case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object): true
    case ("integer", .int): true
    case ("integer", .double(let value)): value.rounded() == value
    case ("number", .int), ("number", .double): true
    default: false
    }
  }

  /// JSON equality: numbers by value, objects regardless of member order.
  private static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.int, .double), (.double, .int): return a.doubleValue == b.doubleValue
    case (.object(let x), .object(let y)):
      return x.count == y.count && x.allSatisfy { member in y.contains { $0.key == member.key && equal($0.value, member.value) } }
    case (.array(let x), .array(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
    default: return a == b
    }
  }

  /// A member name as a JSON Pointer token.
  private static func escaped(_ key: String) -> String {
    key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
  }
}
