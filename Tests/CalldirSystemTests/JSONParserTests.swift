import CalldirSystem
import Testing

/// One malformed document and where the parser must point.
struct JSONErrorCase: CustomTestStringConvertible, Sendable {
  let text: String
  let line: Int
  let column: Int
  let reason: JSONParseError.Reason

  var testDescription: String { text.debugDescription }
}

@Suite struct JSONParserTests {
  @Test func parsesValues() throws {
    let text = """
      {
        "region": "US",
        "maxErrors": 10,
        "ratio": -1.25e2,
        "strict": true,
        "skip": null,
        "files": ["a.csv", "b.csv"],
        "big": 123456789012345678901234567890,
        "nested": {"x": [[]], "y": {}}
      }
      """
    let value = try JSONParser.parse(text)
    #expect(value["region"] == "US")
    #expect(value["maxErrors"]?.intValue == 10)
    #expect(value["ratio"]?.doubleValue == -125)
    #expect(value["strict"]?.boolValue == true)
    #expect(value["skip"]?.isNull == true)
    #expect(value["files"]?[1] == "b.csv")
    #expect(value["big"] == .double(1.2345678901234568e29))
    #expect(value["nested"] == ["x": [[]], "y": [:]])
    #expect(value.objectValue?.map(\.key) == ["region", "maxErrors", "ratio", "strict", "skip", "files", "big", "nested"])
  }

  @Test func parsesScalarDocumentsAndWhitespace() throws {
    #expect(try JSONParser.parse(" \t\r\n 0 \n") == 0)
    #expect(try JSONParser.parse("-0") == .int(0))
    #expect(try JSONParser.parse("\"\"") == "")
    #expect(try JSONParser.parse("9223372036854775807") == .int(Int64.max))
    #expect(try JSONParser.parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
    #expect(try JSONParser.parse("1E+2") == .double(100))
    #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == [1])
  }

  @Test func decodesEscapes() throws {
    let value = try JSONParser.parse(#""\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC\ud83d\ude00""#)
    #expect(value == .string("\"\\/\u{08}\u{0C}\n\r\tAé€😀"))
  }

  @Test func keepsRawUnicode() throws {
    #expect(try JSONParser.parse("\"ünï 😀\"") == "ünï 😀")
  }

  static let errorCases: [JSONErrorCase] = [
    JSONErrorCase(text: "", line: 1, column: 1, reason: .unexpectedEndOfInput),
    JSONErrorCase(text: "   ", line: 1, column: 4, reason: .unexpectedEndOfInput),
    JSONErrorCase(text: "{\"a\": 1,\n  \"b\" 2}", line: 2, column: 7, reason: .expectedColon),
    JSONErrorCase(text: "[1, 2\n\n  3]", line: 3, column: 3, reason: .expectedCommaOrArrayEnd),
    JSONErrorCase(text: "{\"a\": 1 \"b\": 2}", line: 1, column: 9, reason: .expectedCommaOrObjectEnd),
    JSONErrorCase(text: "{\"a\": 1,}", line: 1, column: 9, reason: .expectedKey),
    JSONErrorCase(text: "[1,]", line: 1, column: 4, reason: .unexpectedCharacter("']'")),
    JSONErrorCase(text: "{'a': 1}", line: 1, column: 2, reason: .expectedKey),
    JSONErrorCase(text: "[tru]", line: 1, column: 5, reason: .unexpectedCharacter("']'")),
    JSONErrorCase(text: "nul", line: 1, column: 4, reason: .unexpectedEndOfInput),
    JSONErrorCase(text: "01", line: 1, column: 1, reason: .invalidNumber),
    JSONErrorCase(text: "[-]", line: 1, column: 2, reason: .invalidNumber),
    JSONErrorCase(text: "1.", line: 1, column: 1, reason: .invalidNumber),
    JSONErrorCase(text: "1e", line: 1, column: 1, reason: .invalidNumber),
    JSONErrorCase(text: "+1", line: 1, column: 1, reason: .unexpectedCharacter("'+'")),
    JSONErrorCase(text: "1e999", line: 1, column: 1, reason: .numberOutOfRange),
    JSONErrorCase(text: "{\"a\":1} x", line: 1, column: 9, reason: .trailingCharacters),
    JSONErrorCase(text: "[1] [2]", line: 1, column: 5, reason: .trailingCharacters),
    JSONErrorCase(text: "\"abc", line: 1, column: 5, reason: .unexpectedEndOfInput),
    JSONErrorCase(text: "\"a\tb\"", line: 1, column: 3, reason: .controlCharacterInString),
    JSONErrorCase(text: "\"é\\x\"", line: 1, column: 3, reason: .invalidEscape),
    JSONErrorCase(text: "\"\\u12G4\"", line: 1, column: 2, reason: .invalidUnicodeEscape),
    JSONErrorCase(text: "\"\\ud83d\"", line: 1, column: 2, reason: .unpairedSurrogate),
    JSONErrorCase(text: "\"\\ud83d\\u0041\"", line: 1, column: 2, reason: .unpairedSurrogate),
    JSONErrorCase(text: "\"\\ude00\"", line: 1, column: 2, reason: .unpairedSurrogate),
    JSONErrorCase(text: "{\"k\": 1,\n \"k\": 2}", line: 2, column: 2, reason: .duplicateKey("k")),
    JSONErrorCase(text: "ünï", line: 1, column: 1, reason: .unexpectedCharacter("'ü'")),
    JSONErrorCase(text: "[\"😀😀\", x]", line: 1, column: 8, reason: .unexpectedCharacter("'x'")),
    JSONErrorCase(text: "[\u{1}]", line: 1, column: 2, reason: .unexpectedCharacter("U+0001")),
  ]

  @Test(arguments: errorCases)
  func reportsErrorPositions(_ testCase: JSONErrorCase) {
    #expect(throws: JSONParseError(line: testCase.line, column: testCase.column, reason: testCase.reason)) {
      try JSONParser.parse(testCase.text)
    }
  }

  @Test func rejectsInvalidUTF8InStrings() {
    #expect(throws: JSONParseError(line: 1, column: 2, reason: .invalidUTF8)) {
      try JSONParser.parse(Array("[\"a".utf8) + [0xFF] + Array("\"]".utf8))
    }
    #expect(throws: JSONParseError(line: 1, column: 1, reason: .unexpectedCharacter("byte 0xFF"))) {
      try JSONParser.parse([0xFF])
    }
  }

  @Test func limitsDepth() throws {
    let parser = JSONParser(maxDepth: 3)
    #expect(try parser.parse("[[[1]]]") == [[[1]]])
    #expect(throws: JSONParseError(line: 1, column: 4, reason: .tooDeeplyNested(limit: 3))) {
      try parser.parse("[[[[1]]]]")
    }
    let deep = String(repeating: "[", count: 100_000)
    #expect(throws: JSONParseError(line: 1, column: 513, reason: .tooDeeplyNested(limit: 512))) {
      try JSONParser.parse(deep)
    }
  }

  @Test func errorMessagesAreLowercaseWithPosition() {
    let error = JSONParseError(line: 3, column: 14, reason: .duplicateKey("region"))
    #expect(error.description == "3:14: duplicate key 'region'")
    #expect(JSONParseError(line: 1, column: 1, reason: .unexpectedEndOfInput).message == "1:1: unexpected end of input")
  }
}
