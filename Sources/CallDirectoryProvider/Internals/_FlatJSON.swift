/// Why a state file could not be parsed.
struct _StateFormatError: Error {
  let reason: String
  init(_ reason: String) { self.reason = reason }
}

/// A minimal parser for the provider's state file: one JSON object whose
/// values are non-negative integers, strings without escapes other than
/// `\"` `\\` `\/`, or `null`. Anything else is rejected, never trapped on.
enum _FlatJSON {
  enum Value: Equatable {
    case integer(UInt64)
    case string(String)
    case null
  }

  static func parseObject(_ bytes: [UInt8]) throws(_StateFormatError) -> [String: Value] {
    var index = 0
    func skipSpace() {
      while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }
    func expect(_ byte: UInt8) throws(_StateFormatError) {
      skipSpace()
      guard index < bytes.count, bytes[index] == byte else {
        throw _StateFormatError("expected '\(Character(Unicode.Scalar(byte)))' at byte \(index)")
      }
      index += 1
    }
    func string() throws(_StateFormatError) -> String {
      try expect(UInt8(ascii: "\""))
      var out: [UInt8] = []
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""):
          guard let text = String(validating: out, as: UTF8.self) else {
            throw _StateFormatError("a string is not valid utf-8")
          }
          return text
        case UInt8(ascii: "\\"):
          guard index < bytes.count, [UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/")].contains(bytes[index])
          else { throw _StateFormatError("unsupported escape at byte \(index)") }
          out.append(bytes[index])
          index += 1
        case 0..<0x20:
          throw _StateFormatError("control character in a string at byte \(index - 1)")
        default:
          out.append(byte)
        }
      }
      throw _StateFormatError("unterminated string")
    }
    func value() throws(_StateFormatError) -> Value {
      skipSpace()
      guard index < bytes.count else { throw _StateFormatError("missing value") }
      switch bytes[index] {
      case UInt8(ascii: "\""):
        return .string(try string())
      case UInt8(ascii: "n"):
        guard bytes[index...].starts(with: Array("null".utf8)) else { throw _StateFormatError("invalid literal") }
        index += 4
        return .null
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        var number: UInt64 = 0
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
          let (times, overflowA) = number.multipliedReportingOverflow(by: 10)
          let (sum, overflowB) = times.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
          guard !overflowA, !overflowB else { throw _StateFormatError("integer too large at byte \(start)") }
          number = sum
          index += 1
        }
        if index - start > 1, bytes[start] == UInt8(ascii: "0") {
          throw _StateFormatError("integer with a leading zero at byte \(start)")
        }
        return .integer(number)
      default:
        throw _StateFormatError("unsupported value at byte \(index)")
      }
    }

    var members: [String: Value] = [:]
    try expect(UInt8(ascii: "{"))
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
    } else {
      while true {
        let key = try string()
        try expect(UInt8(ascii: ":"))
        guard members.updateValue(try value(), forKey: key) == nil else {
          throw _StateFormatError("key '\(key)' appears twice")
        }
        skipSpace()
        guard index < bytes.count else { throw _StateFormatError("unterminated object") }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        try expect(UInt8(ascii: "}"))
        break
      }
    }
    skipSpace()
    guard index == bytes.count else { throw _StateFormatError("trailing bytes after the object") }
    return members
  }
}
