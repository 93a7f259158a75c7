extension JSONValue {
  /// The compact, single-line serialization (RFC 8259).
  ///
  /// No whitespace is emitted; object members keep their order; `"`, `\`
  /// and control characters are escaped (`\n`, `\t`, … or `\u00XX`), and
  /// so are DEL and the other characters ``ShownText`` calls hidden (C1
  /// controls, bidirectional and other format characters, `\u202e`; above
  /// U+FFFF as a surrogate pair), so that a value shown raw cannot fake
  /// text; the value read back is the same. All other characters are
  /// written as UTF-8. Non-finite doubles become `null`.
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
    let start = bytes.count
    var hasNonASCII = false
    for byte in string.utf8 {
      if byte >= 0x80 {
        hasNonASCII = true
        bytes.append(byte)
      } else {
        appendASCII(byte, to: &bytes)
      }
    }
    if hasNonASCII && string.unicodeScalars.contains(where: { $0.value >= 0x80 && ShownText.isHidden($0) }) {
      // Written again, scalar by scalar: hidden characters as escapes.
      bytes.removeSubrange(start...)
      for scalar in string.unicodeScalars {
        if scalar.value < 0x80 {
          appendASCII(UInt8(scalar.value), to: &bytes)
        } else if !ShownText.isHidden(scalar) {
          bytes.append(contentsOf: String(scalar).utf8)
        } else if scalar.value <= 0xFFFF {
          appendEscape(UInt16(scalar.value), to: &bytes)
        } else {
          // A UTF-16 surrogate pair.
          let value = scalar.value - 0x10000
          appendEscape(UInt16(0xD800 + (value >> 10)), to: &bytes)
          appendEscape(UInt16(0xDC00 + (value & 0x3FF)), to: &bytes)
        }
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// An ASCII character of a string, escaped when JSON or ``ShownText`` needs it.
  private static func appendASCII(_ byte: UInt8, to bytes: inout [UInt8]) {
    switch byte {
    case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
    case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
    case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
    case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
    case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
    case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
    case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
    case 0x00..<0x20, 0x7F: appendEscape(UInt16(byte), to: &bytes)
    default: bytes.append(byte)
    }
  }

  /// `\uxxxx`.
  private static func appendEscape(_ unit: UInt16, to bytes: inout [UInt8]) {
    bytes.append(contentsOf: "\\u".utf8)
    for shift in stride(from: 12, through: 0, by: -4) { bytes.append(hexDigits[Int((unit >> UInt16(shift)) & 0xF)]) }
  }
}
