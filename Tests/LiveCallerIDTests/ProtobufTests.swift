import CalldirSystem
import Testing

@testable import LiveCallerID

/// Bytes as hex, for comparing with bytes Python's protobuf helpers
/// (`/work/shared/tools/pir/keyword_db.py`, canonical proto3) produced.
func hex(_ bytes: [UInt8]) -> String {
  bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
}

func bytes(hex text: String) -> [UInt8] {
  var result: [UInt8] = []
  var index = text.startIndex
  while index < text.endIndex {
    let next = text.index(index, offsetBy: 2)
    result.append(UInt8(text[index..<next], radix: 16) ?? 0)
    index = next
  }
  return result
}

/// The wire format read back by a decoder written against the grammar, and
/// compared byte for byte with what a canonical proto3 encoder writes.
@Suite struct ProtobufTests {
  @Test func keywordDatabaseRowsAreTheCanonicalEncoding() throws {
    var bytes: [UInt8] = []
    KeywordDatabase.appendRow(keyword: Array("+14085551212".utf8), value: [0x01], to: &bytes)
    KeywordDatabase.appendRow(keyword: Array("pad-0-0".utf8), value: [0x00], to: &bytes)
    #expect(hex(bytes) == "0a110a0c2b31343038353535313231321201010a0c0a077061642d302d30120100")
    let rows = try KeywordDatabase.decode(bytes)
    #expect(rows == [
      KeywordDatabase.Row(keyword: Array("+14085551212".utf8), value: [1]),
      KeywordDatabase.Row(keyword: Array("pad-0-0".utf8), value: [0]),
    ])
  }

  @Test func callIdentitiesAreTheCanonicalEncoding() throws {
    let cases: [(CallIdentity, String)] = [
      (CallIdentity(name: "Adam", cacheExpiryMinutes: 8, category: 1), "0a044164616d18082001"),
      (CallIdentity(name: "🚫 Spam", cacheExpiryMinutes: 1440), "0a09f09f9aab205370616d18a00b"),
      (CallIdentity(name: "", cacheExpiryMinutes: UInt32.max, category: 2), "18ffffffff0f2002"),
      (
        CallIdentity(
          name: "Grocery Store", icon: CallIdentity.Icon(image: (0..<200).map { UInt8($0) }), cacheExpiryMinutes: 18,
          category: 2),
        "0a0d47726f636572792053746f726512cd01080112c801"
          + (0..<200).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() + "18122002"
      ),
    ]
    for (identity, expected) in cases {
      #expect(hex(identity.encoded()) == expected)
      #expect(try CallIdentity(decoding: identity.encoded()) == identity)
    }
  }

  /// What any protobuf parser accepts: fields out of order, unknown
  /// fields of every wire type, a scalar twice (the last wins), an icon
  /// in two pieces (merged).
  @Test func decodingFollowsTheGrammarNotOneEncoder() throws {
    var writer = ProtobufWriter()
    writer.appendVarint(field: 4, 2)
    writer.appendKey(field: 9, .fixed64)
    writer.appendVarint(field: 0x7F, 0)  // left out: default
    var tail = writer.bytes
    tail += [1, 2, 3, 4, 5, 6, 7, 8]
    var more = ProtobufWriter()
    more.appendKey(field: 10, .fixed32)
    tail += more.bytes + [9, 9, 9, 9]
    var rest = ProtobufWriter()
    rest.appendBytes(field: 1, Array("First".utf8))
    rest.appendBytes(field: 1, Array("Second".utf8))
    rest.appendVarint(field: 3, 5)
    rest.appendVarint(field: 3, 7)
    var icon = ProtobufWriter()
    icon.appendVarint(field: 1, 1)
    rest.appendMessage(field: 2, icon.bytes)
    var image = ProtobufWriter()
    image.appendBytes(field: 2, [0xAB, 0xCD])
    rest.appendMessage(field: 2, image.bytes)
    rest.appendBytes(field: 1000, [0xFF])
    let identity = try CallIdentity(decoding: tail + rest.bytes)
    #expect(identity == CallIdentity(name: "Second", icon: .init(format: 1, image: [0xAB, 0xCD]), cacheExpiryMinutes: 7, category: 2))
  }

  @Test(arguments: [
    ("0a", ProtobufError.truncated),  // a key, no length
    ("0a05616263", .truncated),  // a length past the end
    ("08", .truncated),  // a varint field without its value
    ("08ffffffffffffffffff7f", .malformedVarint),  // eleven bytes
    ("08ffffffffffffffffff02", .malformedVarint),  // ten bytes, past 64 bits
    ("0001", .invalidFieldNumber(0)),
    ("0b", .unsupportedWireType(3, field: 1)),  // a group
    ("0e", .unsupportedWireType(6, field: 1)),
    ("0f", .unsupportedWireType(7, field: 1)),
    ("09010203", .truncated),  // fixed64 cut short
    ("0d0102", .truncated),  // fixed32 cut short
  ])
  func malformedBytesAreErrorsNeverTraps(input: String, expected: ProtobufError) {
    #expect(throws: expected) { try KeywordDatabase.decode(bytes(hex: input)) }
    #expect(throws: expected) { try CallIdentity(decoding: bytes(hex: input)) }
  }

  @Test func knownFieldsWithTheWrongWireTypeAreErrors() {
    #expect(throws: ProtobufError.wrongWireType(message: "KeywordDatabase", field: 1)) {
      try KeywordDatabase.decode([0x08, 0x01])
    }
    #expect(throws: ProtobufError.wrongWireType(message: "KeywordDatabaseRow", field: 2)) {
      try KeywordDatabase.decode([0x0A, 0x02, 0x10, 0x01])
    }
    #expect(throws: ProtobufError.wrongWireType(message: "CallIdentity", field: 3)) {
      try CallIdentity(decoding: [0x1A, 0x00])
    }
    #expect(throws: ProtobufError.invalidUTF8(message: "CallIdentity", field: 1)) {
      try CallIdentity(decoding: [0x0A, 0x02, 0xC3, 0x28])
    }
  }

  @Test func varintsRoundTripAtEveryLength() throws {
    var values: [UInt64] = [0, 1, 127, 128, 300, 16_383, 16_384, UInt64(UInt32.max), UInt64.max]
    for shift in 0..<64 { values.append(1 << UInt64(shift)) }
    for value in values {
      var writer = ProtobufWriter()
      writer.appendKey(field: 536_870_911, .varint)
      var bytes = writer.bytes
      Varint.append(value, to: &bytes)
      var reader = ProtobufReader(bytes)
      let field = try #require(try reader.next())
      #expect(field.number == 536_870_911)
      #expect(field.value == .varint(value))
      #expect(try reader.next() == nil)
    }
  }

  @Test func emptyValuesAreLeftOutAsProto3Does() {
    var writer = ProtobufWriter()
    writer.appendBytes(field: 1, [UInt8]())
    writer.appendVarint(field: 2, 0)
    #expect(writer.bytes.isEmpty)
    writer.appendMessage(field: 3, [])
    #expect(writer.bytes == [0x1A, 0x00])
  }
}
