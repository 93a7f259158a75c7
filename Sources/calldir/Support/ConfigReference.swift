import CalldirSystem

/// The config reference page (Markdown), generated from
/// `schemas/config.schema.json`: every key of the config and of its
/// objects, with its type, default, bounds and description.
enum ConfigReference {
  /// The page for a parsed schema.
  ///
  /// - Parameter schemaPath: The schema's path as the page names it.
  static func page(_ schema: JSONValue, schemaPath: String) -> String {
    var text = "# Config reference\n\n"
    text += "<!-- Generated from \(schemaPath) by `calldir _docs` (`make docs`); do not edit. -->\n\n"
    if let title = schema["title"]?.stringValue { text += "The \(markdown(title)) (`\(schemaPath)`, JSON Schema 2020-12).\n\n" }
    if let description = schema["description"]?.stringValue { text += markdown(description) + "\n\n" }
    text += "A config is a JSON object with the [top-level keys](#top-level-keys) below; "
    text += "the [types](#types) section describes the objects and values they refer to. "
    text += "How sources are read, with examples, is in [sources and formats](config-sources.md).\n\n"
    text += "## Top-level keys\n\n"
    text += object(schema, level: "###")
    if let definitions = schema["$defs"]?.objectValue, !definitions.isEmpty {
      text += "## Types\n\n"
      for (name, definition) in definitions {
        text += "### Type `\(name)`\n\n"
        text += summary(definition, required: false)
        if definition["properties"] != nil { text += object(definition, level: "####") }
      }
    }
    if let examples = schema["examples"]?.arrayValue, !examples.isEmpty {
      text += "## Examples\n\n"
      for example in examples { text += "```json\n" + pretty(example, indent: "") + "\n```\n\n" }
    }
    return String(text.dropLast())
  }

  /// The keys of an object schema, one heading each, then its own rules.
  private static func object(_ schema: JSONValue, level: String) -> String {
    var text = ""
    let required = Set(schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    for (key, property) in schema["properties"]?.objectValue ?? [] {
      text += "\(level) `\(key)`\n\n"
      text += summary(property, required: required.contains(key))
    }
    var rules: [String] = []
    if schema["additionalProperties"]?.boolValue == false { rules.append("Keys not listed here are errors.") }
    if let dependent = schema["dependentRequired"]?.objectValue {
      for (key, needed) in dependent {
        let names = needed.arrayValue?.compactMap(\.stringValue).map { "`\($0)`" } ?? []
        rules.append("`\(key)` requires \(names.joined(separator: ", ")).")
      }
    }
    for keyword in ["allOf", "oneOf", "anyOf", "not", "if", "minProperties"] {
      guard let value = schema[keyword] else { continue }
      rules.append("`\(keyword)`: `\(value.serialized())`")
    }
    if !rules.isEmpty { text += "Rules of this object: " + rules.joined(separator: " ") + "\n\n" }
    return text
  }

  /// A value's type line and description.
  private static func summary(_ schema: JSONValue, required: Bool) -> String {
    var facts = ["Type: " + type(schema)]
    if required { facts.append("required") }
    if let value = schema["default"] { facts.append("default `\(value.serialized())`") }
    if let value = schema["minimum"] { facts.append("minimum \(value.serialized())") }
    if let value = schema["maximum"] { facts.append("maximum \(value.serialized())") }
    if let value = schema["minLength"] { facts.append("at least \(value.serialized()) characters") }
    if let value = schema["maxLength"] { facts.append("at most \(value.serialized()) characters") }
    if let value = schema["minItems"] { facts.append("at least \(value.serialized()) items") }
    if schema["uniqueItems"]?.boolValue == true { facts.append("items unique") }
    if let value = schema["pattern"]?.stringValue { facts.append("matching `\(value)`") }
    if let value = schema["format"]?.stringValue { facts.append("format \(value)") }
    var text = facts.joined(separator: "; ") + ".\n\n"
    if let description = schema["description"]?.stringValue { text += markdown(description) + "\n\n" }
    if let examples = schema["examples"]?.arrayValue, !examples.isEmpty {
      text += "Examples: " + examples.map { "`\($0.serialized())`" }.joined(separator: ", ") + ".\n\n"
    }
    var rules: [String] = []
    for keyword in ["allOf", "oneOf", "anyOf", "not", "if", "then", "contains", "propertyNames"]
    where schema["properties"] == nil || !["allOf", "oneOf", "anyOf", "not", "if"].contains(keyword) {
      guard let value = schema[keyword], !isSimpleAlternatives(keyword, value) else { continue }
      rules.append("`\(keyword)`: `\(value.serialized())`")
    }
    if !rules.isEmpty { text += "Rules: " + rules.joined(separator: " ") + "\n\n" }
    return text
  }

  /// `oneOf`/`anyOf` that ``type(_:)`` already spells out.
  private static func isSimpleAlternatives(_ keyword: String, _ value: JSONValue) -> Bool {
    guard keyword == "oneOf" || keyword == "anyOf", let alternatives = value.arrayValue else { return false }
    return alternatives.allSatisfy { alternative in
      (alternative.objectValue ?? []).allSatisfy { ["type", "$ref", "items", "enum", "const", "description", "minimum", "maximum", "minItems", "minLength", "pattern", "additionalProperties"].contains($0.key) }
    }
  }

  /// The type in words: `number`, `array of [source](#type-source)`, `one of "csv", "tsv"`.
  static func type(_ schema: JSONValue) -> String {
    if let reference = schema["$ref"]?.stringValue, let name = reference.split(separator: "/").last {
      return "[\(name)](#type-\(name.lowercased()))"
    }
    if let value = schema["const"] { return "`\(value.serialized())`" }
    if let values = schema["enum"]?.arrayValue {
      return "one of " + values.map { "`\($0.serialized())`" }.joined(separator: ", ")
    }
    if let alternatives = (schema["oneOf"] ?? schema["anyOf"])?.arrayValue, schema["type"] == nil {
      return alternatives.map { alternative in
        var text = type(alternative)
        if let description = alternative["description"]?.stringValue { text += " (" + markdown(description) + ")" }
        return text
      }.joined(separator: ", or ")
    }
    var names: [String] = []
    if let name = schema["type"]?.stringValue { names = [name] }
    if let list = schema["type"]?.arrayValue { names = list.compactMap(\.stringValue) }
    return names.map { name in
      switch name {
      case "array":
        guard let items = schema["items"] else { return "array" }
        return "array of " + type(items)
      case "object":
        if let values = schema["additionalProperties"], values.objectValue != nil {
          return "object whose values are " + type(values)
        }
        return "object"
      default:
        return name
      }
    }.joined(separator: " or ").nonEmpty ?? "any"
  }

  /// Prose from the schema with what Markdown would read as markup escaped.
  private static func markdown(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "<", "*", "|", "_", "[", "]": result += "\\" + String(character)
      default: result.append(character)
      }
    }
    return result
  }

  /// JSON indented two spaces a level, for the examples.
  static func pretty(_ value: JSONValue, indent: String) -> String {
    let inner = indent + "  "
    if let members = value.objectValue {
      guard !members.isEmpty else { return "{}" }
      return "{\n" + members.map { inner + JSONValue.string($0.key).serialized() + ": " + pretty($0.value, indent: inner) }
        .joined(separator: ",\n") + "\n" + indent + "}"
    }
    if let items = value.arrayValue {
      guard !items.isEmpty else { return "[]" }
      return "[\n" + items.map { inner + pretty($0, indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
    }
    return value.serialized()
  }
}

extension String {
  fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
