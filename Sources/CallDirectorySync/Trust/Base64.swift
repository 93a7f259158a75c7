/// Standard base64 (RFC 4648 §4, with padding), for keys and signatures:
/// one line, no white space.
public enum Base64 {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// The base64 text of `bytes`.
  public static func encode(_ bytes: [UInt8]) -> String {
    var output: [UInt8] = []
    output.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index + 3 <= bytes.count {
      let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
      for shift in [18, 12, 6, 0] { output.append(alphabet[Int(value >> UInt32(shift) & 0x3F)]) }
      index += 3
    }
    let rest = bytes.count - index
    if rest > 0 {
      var value = UInt32(bytes[index]) << 16
      if rest == 2 { value |= UInt32(bytes[index + 1]) << 8 }
      output.append(alphabet[Int(value >> 18 & 0x3F)])
      output.append(alphabet[Int(value >> 12 & 0x3F)])
      output.append(rest == 2 ? alphabet[Int(value >> 6 & 0x3F)] : UInt8(ascii: "="))
      output.append(UInt8(ascii: "="))
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// The bytes of canonical base64 `text` (padded, no white space), or nil.
  public static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
    let characters = Array(text)
    guard characters.count % 4 == 0 else { return nil }
    var output: [UInt8] = []
    output.reserveCapacity(characters.count / 4 * 3)
    var index = 0
    while index < characters.count {
      var value: UInt32 = 0
      var padding = 0
      for offset in 0..<4 {
        let character = characters[index + offset]
        if character == UInt8(ascii: "=") {
          guard index + 4 == characters.count, offset >= 2 else { return nil }
          padding += 1
          value <<= 6
          continue
        }
        guard padding == 0, let digit = Self.digit(character) else { return nil }
        value = value << 6 | UInt32(digit)
      }
      output.append(UInt8(value >> 16 & 0xFF))
      if padding < 2 { output.append(UInt8(value >> 8 & 0xFF)) }
      if padding < 1 { output.append(UInt8(value & 0xFF)) }
      index += 4
    }
    // Canonical: the bits padding drops must be zero.
    guard encode(output).utf8.elementsEqual(characters) else { return nil }
    return output
  }

  private static func digit(_ character: UInt8) -> UInt8? {
    switch character {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
    case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
    case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
    case UInt8(ascii: "+"): 62
    case UInt8(ascii: "/"): 63
    default: nil
    }
  }
}
