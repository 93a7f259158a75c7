import CalldirSystem
import Testing

@Suite struct JSONSerializationTests {
  @Test func scalars() {
    #expect(JSONValue.null.serialized() == "null")
    #expect(JSONValue.bool(true).serialized() == "true")
    #expect(JSONValue.bool(false).serialized() == "false")
    #expect(JSONValue.int(-9_223_372_036_854_775_808).serialized() == "-9223372036854775808")
    #expect(JSONValue.double(1.5).serialized() == "1.5")
    #expect(JSONValue.double(1e-7).serialized() == "1e-07")
    #expect(JSONValue.double(.nan).serialized() == "null")
    #expect(JSONValue.double(-.infinity).serialized() == "null")
  }

  @Test func objectsKeepKeyOrderAndAreCompact() {
    let value: JSONValue = ["z": 1, "a": [true, nil, "x"], "m": [:], "e": []]
    #expect(value.serialized() == #"{"z":1,"a":[true,null,"x"],"m":{},"e":[]}"#)
  }

  @Test func escapesStrings() {
    let value = JSONValue.string("q\"b\\s/\n\r\t\u{08}\u{0C}\u{00}\u{1F}\u{7F}é😀")
    // DEL is escaped too (``ShownText``), as JSON allows.
    #expect(value.serialized() == "\"q\\\"b\\\\s/\\n\\r\\t\\b\\f\\u0000\\u001f\\u007fé😀\"")
  }

  @Test func escapesKeys() {
    let value: JSONValue = ["a\"\n": 1]
    #expect(value.serialized() == #"{"a\"\n":1}"#)
  }

  @Test func roundTripsThroughTheParser() throws {
    let value: JSONValue = [
      "s": "tab\there \u{1}", "i": -42, "d": 0.25, "b": false, "n": nil,
      "a": [1, [2, [3]], ["k": "v"]], "u": "𝄞 ünï",
    ]
    #expect(try JSONParser.parse(value.serialized()) == value)
  }

  @Test func equalityRespectsMemberOrder() {
    let first: JSONValue = ["a": 1, "b": 2]
    let second: JSONValue = ["b": 2, "a": 1]
    #expect(first != second)
    #expect(first == ["a": 1, "b": 2])
    #expect(first["b"] == .int(2))
  }
}
