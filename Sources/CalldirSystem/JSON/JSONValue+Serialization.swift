extension JSONValue {
  /// The compact, single-line serialization (RFC 8259).
  ///
  /// No whitespace is emitted; object members keep their order; `"`, `\`
  /// and control characters are escaped (`\n`, `\t`, … or `\u00XX`); all
  /// other characters are written as UTF-8. Non-finite doubles become `null`.
  public func serialized() -> String {
    var bytes: [UInt8] = []
    serialize(into: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the compact serialization to `bytes` as UTF-8.
  public func serialize(into bytes: inout [UInt8]) {
    switch self {
    case .null:
      bytes.append(contentsOf: "null".utf8)
    case .bool(let value):
      bytes.append(contentsOf: (value ? "true" : "false").utf8)
    case .int(let value):
      bytes.append(contentsOf: String(value).utf8)
    case .double(let value):
      bytes.append(contentsOf: (value.isFinite ? "\(value)" : "null").utf8)
    case .string(let value):
      Self.serialize(string: value, into: &bytes)
    case .array(let elements):
      bytes.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        element.serialize(into: &bytes)
      }
      bytes.append(UInt8(ascii: "]"))
    case .object(let members):
      bytes.append(UInt8(ascii: "{"))
      for (index, member) in members.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        Self.serialize(string: member.key, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        member.value.serialize(into: &bytes)
      }
      bytes.append(UInt8(ascii: "}"))
    }
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  private static func serialize(string: String, into bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\""))
    for byte in string.utf8 {
      switch byte {
      case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
      case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
      case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
      case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
      case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
      case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
      case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
      case 0x00..<0x20:
        bytes.append(contentsOf: "\\u00".utf8)
        bytes.append(hexDigits[Int(byte >> 4)])
        bytes.append(hexDigits[Int(byte & 0x0F)])
      default:
        bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }
}
