import CalldirSystem
import Testing

/// The schema validator the golden tests use: each keyword accepts what it
/// should and rejects what it should, with the pointer of the fault.
@Suite struct JSONSchemaValidatorTests {
  func violations(_ schema: String, _ instance: String) throws -> [String] {
    try JSONSchemaValidator(schema: try JSONParser.parse(schema)).violations(of: try JSONParser.parse(instance))
      .map(\.description)
  }

  @Test func typesIncludingIntegerAndLists() throws {
    #expect(try violations(#"{"type": "integer"}"#, "3").isEmpty)
    #expect(try violations(#"{"type": "integer"}"#, "3.5") == ["(root): number is not integer"])
    #expect(try violations(#"{"type": "number"}"#, "3").isEmpty)
    #expect(try violations(#"{"type": ["string", "null"]}"#, "null").isEmpty)
    #expect(try violations(#"{"type": ["string", "null"]}"#, "true") == ["(root): boolean is not string or null"])
    #expect(try violations(#"{"type": "object"}"#, "[]") == ["(root): array is not object"])
  }

  @Test func objectsRequiredAndClosed() throws {
    let schema = #"""
      {"type": "object", "required": ["a"], "additionalProperties": false,
       "properties": {"a": {"type": "integer", "minimum": 0}, "b/c": {"type": "string"}}}
      """#
    #expect(try violations(schema, #"{"a": 1, "b/c": "x"}"#).isEmpty)
    #expect(try violations(schema, #"{"b/c": "x"}"#) == ["(root): required member 'a' is missing"])
    #expect(try violations(schema, #"{"a": 1, "z": 2}"#) == ["(root): member 'z' is not allowed"])
    #expect(try violations(schema, #"{"a": -1, "b/c": 2}"#) == ["/a: -1 is below 0", "/b~1c: integer is not string"])
    let open = #"{"type": "object", "additionalProperties": {"type": "integer"}}"#
    #expect(try violations(open, #"{"x": 1, "y": "2"}"#) == ["/y: string is not integer"])
  }

  @Test func arraysEnumsConstsPatterns() throws {
    let schema = #"{"type": "array", "minItems": 1, "items": {"enum": ["full", "delta"]}}"#
    #expect(try violations(schema, #"["full", "delta"]"#).isEmpty)
    #expect(try violations(schema, "[]") == ["(root): fewer than 1 items"])
    #expect(try violations(schema, #"["full", "x"]"#) == [#"/1: "x" is not one of ["full","delta"]"#])
    #expect(try violations(#"{"const": "ok"}"#, #""ok""#).isEmpty)
    #expect(try violations(#"{"const": "ok"}"#, #""bad""#) == [#"(root): "bad" is not "ok""#])
    #expect(try violations(#"{"pattern": "^[0-9a-f]{4}$"}"#, #""00ff""#).isEmpty)
    #expect(try violations(#"{"pattern": "^[0-9a-f]{4}$"}"#, #""00fg""#).count == 1)
    #expect(try violations(#"{"minLength": 2}"#, #""é""#).count == 1)
    #expect(try violations(#"{"maximum": 1}"#, "1.5").count == 1)
  }

  @Test func referencesAndCombinations() throws {
    let schema = #"""
      {"$defs": {"count": {"type": "integer", "minimum": 0}},
       "type": "object", "properties": {"n": {"$ref": "#/$defs/count"},
       "either": {"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 10}]},
       "any": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/count"}]}}}
      """#
    #expect(try violations(schema, #"{"n": 2, "either": 3, "any": null}"#).isEmpty)
    #expect(try violations(schema, #"{"n": -2}"#) == ["/n: -2 is below 0"])
    // 12 is an integer and a number of at least 10: two matches, not one.
    #expect(try violations(schema, #"{"either": 12}"#) == ["/either: matches 2 of the oneOf schemas"])
    #expect(try violations(schema, #"{"any": "x"}"#) == ["/any: matches 0 of the anyOf schemas"])
  }

  @Test func aKeywordItCannotApplyIsAnErrorNotAPass() throws {
    #expect(throws: JSONSchemaValidator.SchemaError.self) { try violations(#"{"uniqueItems": true}"#, "[1, 1]") }
    #expect(throws: JSONSchemaValidator.SchemaError.self) { try violations(##"{"$ref": "#/$defs/none"}"##, "1") }
  }

  @Test func everySchemaInTheRepositoryUsesOnlyKnownKeywords() throws {
    // Validating a document against each schema walks it; an unknown
    // keyword anywhere the document reaches throws. The config schema
    // and the error schema are checked against documents of their own.
    let error = try JSONSchemaValidator(contentsOf: JSONGoldens.repositoryRoot.appendingPathComponent("schemas/error.schema.json"))
    #expect(try error.violations(of: try JSONParser.parse(#"{"error": {"kind": "usage", "message": "m"}}"#)).isEmpty)
    #expect(try error.violations(of: try JSONParser.parse(#"{"error": {"kind": "nope", "message": "m"}}"#)).count == 1)
  }
}
