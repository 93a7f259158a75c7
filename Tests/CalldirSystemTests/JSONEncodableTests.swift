import CalldirSystem
import Testing

/// `JSONEncodable`: plain values encode as the JSONValue case they are,
/// optionals as `null`, arrays element by element, and a result type's
/// members keep the order it writes them in.
@Suite struct JSONEncodableTests {
  struct Result: JSONEncodable {
    var count: Int
    var label: String?
    var versions: [Int64]
    var json: JSONValue { ["versions": versions.json, "count": count.json, "label": label.json] }
  }

  @Test func plainValues() {
    #expect(3.json == .int(3))
    #expect(Int64.max.json == .int(.max))
    #expect("a\"b".json == .string("a\"b"))
    #expect(true.json == .bool(true))
    #expect(0.5.json == .double(0.5))
    #expect((nil as Int?).json == .null)
    #expect(Optional(7).json == .int(7))
    #expect([1, 2].json == .array([.int(1), .int(2)]))
    #expect(([nil, "x"] as [String?]).json == .array([.null, .string("x")]))
  }

  @Test func aResultTypeWritesItsMembersInOrder() {
    let result = Result(count: 2, label: nil, versions: [33_612_345_678, Int64.max])
    #expect(result.json.serialized() == #"{"versions":[33612345678,9223372036854775807],"count":2,"label":null}"#)
    #expect([result].json.serialized().hasPrefix(#"[{"versions""#))
  }
}
