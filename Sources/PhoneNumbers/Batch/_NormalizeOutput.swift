import CalldirHost
import CalldirSystem

/// The output lines of `calldir normalize`, built as bytes.
enum _NormalizeOutput {
  /// The reason for a possible number that is not valid, as
  /// ``NumberValidity/invalidReason``, without building a String.
  @inline(__always)
  static func appendInvalidReason(_ validity: NumberValidity?, to output: ByteBuffer) {
    guard let validity else {
      output.append("invalid country calling code")
      return
    }
    output.append("invalid for region ")
    output.reserve(4)
    var rest = validity.packedRegion
    while rest != 0 {
      output.appendByte(UInt8(truncatingIfNeeded: rest))
      rest >>= 8
    }
  }

  /// Each type's name as UTF-8, by `PhoneNumberType.allCases` position.
  static let typeNames: [[UInt8]] = PhoneNumberType.allCases.map { Array($0.rawValue.utf8) }

  /// `{"input":…,"number":…|null,"reason":…|null,"valid":…|null,"type":…|null}`
  /// and LF, as `JSONValue.serialized()` writes it. `valid` and `type` are
  /// null where the input is rejected as not possible; with `requireValid`
  /// an invalid number has `number` null and its reason. With a
  /// `formatter` (`normalize --national`), `"national":…|null` follows:
  /// the national format's digits of the number (null without one).
  static func appendJSON(
    input: UnsafeBufferPointer<UInt8>, result: Result<Int64, NormalizationRejection>, validity: NumberValidity?,
    requireValid: Bool, formatter: NationalFormatter? = nil, to output: ByteBuffer
  ) {
    output.append("{\"input\":")
    if input.contains(where: { $0 >= 0x80 }) {
      // The text as the command sees it (ill-formed UTF-8 repaired),
      // written as JSONValue writes strings: hidden characters escaped.
      var bytes: [UInt8] = []
      JSONValue.string(String(decoding: input, as: UTF8.self)).serialize(into: &bytes)
      output.append(bytes)
    } else {
      appendJSONString(input, to: output)
    }
    switch result {
    case .success(let number):
      let valid = validity?.isValid == true
      if requireValid && !valid {
        output.append(",\"number\":null,\"reason\":\"")
        appendInvalidReason(validity, to: output)
        output.append("\"")
      } else {
        output.append(",\"number\":")
        output.reserve(24)
        output.appendDecimal(number)
        output.append(",\"reason\":null")
      }
      output.append(valid ? ",\"valid\":true,\"type\":\"" : ",\"valid\":false,\"type\":\"")
      output.append(typeNames[(validity?.type ?? .unknown).index])
      output.append("\"")
      if let formatter {
        if requireValid && !valid {
          output.append(",\"national\":null")
        } else if let national = formatter.nationalDigits(ofE164: number) {
          output.append(",\"national\":\"")
          appendDigits(national, to: output)
          output.append("\"")
        } else {
          output.append(",\"national\":null")
        }
      }
      output.append("}\n")
    case .failure(let rejection):
      output.append(",\"number\":null,\"reason\":\"")
      output.append(reasons[rejection.index])
      output.append("\",\"valid\":null,\"type\":null")
      if formatter != nil { output.append(",\"national\":null") }
      output.append("}\n")
    }
  }

  /// A tab and the national format's digits of `number` (nothing after
  /// the tab when it has none): what `normalize --national` adds to a
  /// number's line.
  @inline(__always)
  static func appendNationalColumn(_ number: Int64, formatter: NationalFormatter, to output: ByteBuffer) {
    output.appendByte(0x09)
    if let national = formatter.nationalDigits(ofE164: number) { appendDigits(national, to: output) }
  }

  /// The digits of `national` as ASCII.
  @inline(__always)
  static func appendDigits(_ national: NationalDigits, to output: ByteBuffer) {
    output.reserve(NationalDigits.capacity)
    national.withASCII { digits in
      for digit in digits { output.appendByte(digit) }
    }
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  private static func appendJSONString(_ text: UnsafeBufferPointer<UInt8>, to output: ByteBuffer) {
    output.reserve(text.count * 6 + 2)
    output.appendByte(UInt8(ascii: "\""))
    for byte in text {
      switch byte {
      case UInt8(ascii: "\""): output.appendByte(UInt8(ascii: "\\")); output.appendByte(UInt8(ascii: "\""))
      case UInt8(ascii: "\\"): output.appendByte(UInt8(ascii: "\\")); output.appendByte(UInt8(ascii: "\\"))
      case 0x0A: output.appendByte(UInt8(ascii: "\\")); output.appendByte(UInt8(ascii: "n"))
      case 0x0D: output.appendByte(UInt8(ascii: "\\")); output.appendByte(UInt8(ascii: "r"))
      case 0x09: output.appendByte(UInt8(ascii: "\\")); output.appendByte(UInt8(ascii: "t"))
      case 0x08: output.appendByte(UInt8(ascii: "\\")); output.appendByte(UInt8(ascii: "b"))
      case 0x0C: output.appendByte(UInt8(ascii: "\\")); output.appendByte(UInt8(ascii: "f"))
      case 0x00..<0x20, 0x7F:
        for escaped in [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                        hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]] {
          output.appendByte(escaped)
        }
      default:
        output.appendByte(byte)
      }
    }
    output.appendByte(UInt8(ascii: "\""))
  }

  /// Each rejection's description as UTF-8, by `NormalizationRejection.index`.
  static let reasons: [[UInt8]] = NormalizationRejection.allCases.map { Array($0.description.utf8) }
}
