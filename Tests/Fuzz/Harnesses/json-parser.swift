import CalldirSystem

/// Fuzzes the strict `JSONParser`: whatever it accepts must serialize to
/// text it parses back to the same value (numbers that overflow `Double`
/// serialize as `null`, so documents holding one are not compared).
///
/// Input: byte 0 picks the nesting limit (`JSONParserOptions`: 1...64, or
/// the default 512), the rest is the document.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var input = FuzzInput(data, size)
  let parser = JSONParser(maxDepth: JSONParserOptions(&input).maxDepth)
  guard let value = try? parser.parse(input.rest) else { return 0 }
  _ = value.description
  guard value.isFinite else { return 0 }
  let text = value.serialized()
  do {
    let again = try parser.parse(text)
    fuzzCheck(again == value, "\(text) parses back as \(again.serialized())")
  } catch {
    fuzzCheck(false, "the serialization \(text) does not parse: \(error)")
  }
  return 0
}

extension JSONValue {
  /// Whether every number in the value is finite.
  fileprivate var isFinite: Bool {
    switch self {
    case .double(let number): number.isFinite
    case .array(let elements): elements.allSatisfy(\.isFinite)
    case .object(let members): members.allSatisfy(\.value.isFinite)
    case .null, .bool, .int, .string: true
    }
  }
}
