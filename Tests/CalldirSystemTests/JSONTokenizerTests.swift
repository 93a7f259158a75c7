import CalldirSystem
import Testing

/// The streaming tokenizer and JSON Pointers: the grammar ``JSONParser``
/// accepts, read through windows cut anywhere, with lines, bounded depth
/// and token sizes, and numbers kept as written.
@Suite struct JSONTokenizerTests {
  /// Every token of `text`, read through windows of several sizes (all
  /// must agree).
  static func tokens(_ text: String, maxDepth: Int = 512) throws -> [JSONToken] {
    let bytes = Array(text.utf8)
    var reference: [JSONToken]?
    for chunk in [1, 2, 3, 7, 64, 1 << 16] {
      let tokenizer = JSONTokenizer(window: JSONMemoryWindow(bytes, chunkSize: chunk), maxDepth: maxDepth)
      var tokens: [JSONToken] = []
      while let token = try tokenizer.next() { tokens.append(token) }
      if let reference { #expect(tokens == reference, "chunk \(chunk)") } else { reference = tokens }
    }
    return reference ?? []
  }

  /// The error reading `text` gives, through windows of several sizes (all
  /// must agree).
  static func failure(_ text: [UInt8], maxDepth: Int = 512, maxTokenBytes: Int = 1 << 20) -> JSONParseError? {
    var reference: JSONParseError?
    for chunk in [1, 3, 5, 1 << 16] {
      let tokenizer = JSONTokenizer(
        window: JSONMemoryWindow(text, chunkSize: chunk), maxDepth: maxDepth, maxTokenBytes: maxTokenBytes)
      var found: JSONParseError?
      do {
        while try tokenizer.next() != nil {}
      } catch let error as JSONParseError {
        found = error
      } catch {
        Issue.record("unexpected \(error)")
      }
      if chunk == 1 { reference = found } else { #expect(found == reference, "chunk \(chunk): \(String(describing: found))") }
    }
    return reference
  }

  @Test func tokensOfADocument() throws {
    let tokens = try Self.tokens(#"{"a": [1, -2.5e3, "x\"\u00e9\ud83d\ude00", true, false, null], "b": {}, "c": []}"#)
    #expect(
      tokens == [
        .objectStart, .key("a"), .arrayStart, .number("1"), .number("-2.5e3"), .string("x\"é😀"), .bool(true),
        .bool(false), .null, .arrayEnd, .key("b"), .objectStart, .objectEnd, .key("c"), .arrayStart, .arrayEnd,
        .objectEnd,
      ])
    #expect(try Self.tokens("  42 \n") == [.number("42")])
    #expect(try Self.tokens(#""only""#) == [.string("only")])
  }

  @Test func hugeIntegersKeepTheirDigits() throws {
    let digits = "123456789012345678901234567890123456789"
    #expect(try Self.tokens("[\(digits), -\(digits)]") == [.arrayStart, .number(digits), .number("-" + digits), .arrayEnd])
    let tokenizer = JSONTokenizer(window: JSONMemoryWindow(Array("[\(digits), 1.5, 7]".utf8), chunkSize: 4))
    #expect(try tokenizer.next() == .arrayStart)
    #expect(try tokenizer.nextValue()?.integerText == digits)
    #expect(try tokenizer.nextValue()?.integerText == nil)
    #expect(try tokenizer.nextValue()?.typeName == "integer")
  }

  @Test func theGrammarMatchesTheParsers() throws {
    // What the parser refuses the tokenizer refuses, at the same place.
    let documents = [
      "", "[", "[1,]", "[1 2]", "{\"a\" 1}", "{\"a\": 1,}", "{1: 2}", "[01]", "[1.]", "[-]", "[1e]", "[tru]",
      "[nul", "\"abc", "\"a\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"", "\"a\u{01}\"", "[1] 2", "{} x",
      "[\"\\u00e9\" ,, 1]", "{\"a\":1 \"b\":2}", "[1, @]", "\n\n  [1,\n   x]",
    ]
    for document in documents {
      let bytes = Array(document.utf8)
      var parsed: JSONParseError?
      do { _ = try JSONParser.parse(bytes) } catch { parsed = error }
      let tokenized = Self.failure(bytes)
      #expect(parsed != nil && tokenized == parsed, "\(document): parser \(String(describing: parsed))")
    }
    let invalidUTF8: [UInt8] = [0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D]
    #expect(Self.failure(invalidUTF8) == JSONParseError(line: 1, column: 2, reason: .invalidUTF8))
  }

  @Test func errorsCarryLineAndColumn() {
    let text = "[\n  {\"n\": \"é\"},\n  {\"n\": 1,}\n]"
    #expect(Self.failure(Array(text.utf8)) == JSONParseError(line: 3, column: 11, reason: .expectedKey))
    #expect(Self.failure(Array("[1,\n2".utf8)) == JSONParseError(line: 2, column: 2, reason: .unexpectedEndOfInput))
    #expect(Self.failure(Array("[1]\n\n x".utf8)) == JSONParseError(line: 3, column: 2, reason: .trailingCharacters))
  }

  @Test func deepNestingIsRefusedWithoutRecursion() {
    let deep = Array(repeating: UInt8(ascii: "["), count: 100_000)
    #expect(Self.failure(deep) == JSONParseError(line: 1, column: 513, reason: .tooDeeplyNested(limit: 512)))
    #expect(Self.failure(Array("[[[1]]]".utf8), maxDepth: 2) == JSONParseError(line: 1, column: 3, reason: .tooDeeplyNested(limit: 2)))
    let tokenizer = JSONTokenizer(window: JSONMemoryWindow(Array("[[[[[1]]]]]".utf8)), maxDepth: 5)
    #expect(throws: Never.self) { _ = try tokenizer.nextValue() }
  }

  @Test func longTokensAndValuesAreRefused() throws {
    let long = Array("[\"\(String(repeating: "x", count: 5000))\"]".utf8)
    #expect(Self.failure(long, maxTokenBytes: 1000)?.reason == .tooLong(limit: 1000))
    #expect(Self.failure(long, maxTokenBytes: 10_000) == nil)
    let record = Array("[[\(Array(repeating: "1", count: 2000).joined(separator: ","))]]".utf8)
    let tokenizer = JSONTokenizer(window: JSONMemoryWindow(record, chunkSize: 100))
    #expect(try tokenizer.next() == .arrayStart)
    #expect(throws: JSONParseError.self) { _ = try tokenizer.nextValue(maxBytes: 1000) }
  }

  @Test func valuesCarryTheLineTheyStartOn() throws {
    let text = "\u{FEFF}[\n  {\n    \"a\": \"x\",\n    \"b\": [\n      1,\n      \"2\"\n    ]\n  },\n  3\n]\n"
    var bytes = Array(text.utf8)
    let tokenizer = JSONTokenizer(window: JSONMemoryWindow(bytes, chunkSize: 3), start: 0)
    // The byte-order mark is for the reader to skip: here it is a bad character.
    #expect(throws: JSONParseError.self) { _ = try tokenizer.next() }
    bytes.removeFirst(3)
    let plain = JSONTokenizer(window: JSONMemoryWindow(bytes, chunkSize: 3))
    #expect(try plain.next() == .arrayStart)
    let first = try #require(try plain.nextValue())
    #expect(first.line == 2)
    #expect(first[member: "a"]?.line == 3)
    #expect(first[member: "b"]?.line == 4)
    #expect(first.resolving(try JSONPointer(parsing: "/b/1")) == JSONNode(line: 6, value: .string("2")))
    #expect(try plain.nextValue() == JSONNode(line: 9, value: .number("3")))
    #expect(try plain.nextValue() == nil)
    #expect(try plain.next() == nil)
    #expect(plain.physicalLines == 10)
    #expect(first.compactText == #"{"a":"x","b":[1,"2"]}"#)
  }

  @Test func skippingChecksTheSyntax() throws {
    let tokenizer = JSONTokenizer(window: JSONMemoryWindow(Array(#"[{"a": [1, {"b": 2}]}, 5]"#.utf8), chunkSize: 2))
    #expect(try tokenizer.next() == .arrayStart)
    try tokenizer.skipValue()
    #expect(try tokenizer.next() == .number("5"))
    let broken = JSONTokenizer(window: JSONMemoryWindow(Array(#"[{"a": [1 {"b": 2}]}, 5]"#.utf8)))
    _ = try broken.next()
    #expect(throws: JSONParseError(line: 1, column: 11, reason: .expectedCommaOrArrayEnd)) { try broken.skipValue() }
  }

  // MARK: JSON Pointer

  /// RFC 6901 section 5's examples.
  @Test func pointerExamplesOfRFC6901() throws {
    let document = #"""
      {"foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\j": 5, "k\"l": 6, " ": 7, "m~n": 8}
      """#
    let tokenizer = JSONTokenizer(window: JSONMemoryWindow(Array(document.utf8)))
    let root = try #require(try tokenizer.nextValue())
    func at(_ pointer: String) throws -> String? { root.resolving(try JSONPointer(parsing: pointer))?.compactText }
    #expect(try at("") == root.compactText)
    #expect(try at("/foo") == #"["bar","baz"]"#)
    #expect(try at("/foo/0") == #""bar""#)
    #expect(try at("/") == "0")
    #expect(try at("/a~1b") == "1")
    #expect(try at("/c%d") == "2")
    #expect(try at("/e^f") == "3")
    #expect(try at("/g|h") == "4")
    #expect(try at("/i\\j") == "5")
    #expect(try at("/k\"l") == "6")
    #expect(try at("/ ") == "7")
    #expect(try at("/m~0n") == "8")
    #expect(try at("/foo/2") == nil)
    #expect(try at("/foo/-") == nil)
    #expect(try at("/foo/01") == nil)
    #expect(try at("/nope") == nil)
  }

  @Test func pointerSyntax() throws {
    #expect(try JSONPointer(parsing: "/a~01/b~10/").tokens == ["a~1", "b/0", ""])
    #expect(try JSONPointer(parsing: "").tokens.isEmpty)
    #expect(throws: JSONPointerError.self) { try JSONPointer(parsing: "data") }
    #expect(throws: JSONPointerError.self) { try JSONPointer(parsing: "/a~2") }
    #expect(throws: JSONPointerError.self) { try JSONPointer(parsing: "/a~") }
    #expect(try JSONPointer(parsing: "/a").appending("b/c~").text == "/a/b~1c~0")
    #expect(JSONPointer.arrayIndex("0") == 0 && JSONPointer.arrayIndex("12") == 12)
    #expect(JSONPointer.arrayIndex("01") == nil && JSONPointer.arrayIndex("-") == nil && JSONPointer.arrayIndex("") == nil)
  }
}
