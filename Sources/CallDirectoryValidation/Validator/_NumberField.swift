/// The number field of a text line (everything before the first tab), parsed.
///
/// Accepted: ASCII digits without a leading zero, for example
/// `18005551234`. A `-` followed by digits is read as a negative number and
/// reported out of range; so are `0` and values past
/// `CXCallDirectoryPhoneNumberMax`. Everything else is not a number.
enum _NumberField {
  /// A number in `1...Int64.max - 1` with its count of decimal digits.
  case valid(Int64, digits: Int)
  /// Decimal digits whose value is outside `1...Int64.max - 1`; `nil` when
  /// it does not fit in an `Int64`.
  case outOfRange(Int64?)
  /// Not a decimal number; the reason, when one is known.
  case notANumber(reason: String?)

  static let maxNumber: Int64 = Int64.max - 1

  static func parse(_ field: UnsafeBufferPointer<UInt8>) -> _NumberField {
    guard let first = field.first else { return .notANumber(reason: "missing number") }
    let negative = first == UInt8(ascii: "-")
    let digits = negative ? UnsafeBufferPointer(rebasing: field.dropFirst()) : field
    guard !digits.isEmpty, digits.allSatisfy({ $0 &- 0x30 < 10 }) else {
      return .notANumber(reason: reason(field))
    }
    if digits.count > 1, digits[0] == UInt8(ascii: "0") {
      return .notANumber(reason: "leading zero; numbers start with the country code, e.g. 33612345678")
    }
    var value: Int64 = 0
    for digit in digits {
      let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times.addingReportingOverflow(Int64(digit &- 0x30))
      if overflow1 || overflow2 { return .outOfRange(nil) }
      value = sum
    }
    if negative { return .outOfRange(-value) }
    guard value >= 1, value <= maxNumber else { return .outOfRange(value) }
    return .valid(value, digits: digits.count)
  }

  private static func reason(_ field: UnsafeBufferPointer<UInt8>) -> String? {
    if field.starts(with: [0xEF, 0xBB, 0xBF]) { return "starts with a utf-8 byte order mark" }
    if field.first == UInt8(ascii: "+") {
      return "a leading '+' is not allowed; write the country code and digits only, e.g. 18005551234"
    }
    let hasNoBreakSpace = zip(field, field.dropFirst()).contains { $0 == 0xC2 && $1 == 0xA0 }
    if hasNoBreakSpace || field.contains(UInt8(ascii: " ")) {
      return "contains spaces; write digits only"
    }
    let separators = "-().,/_".utf8
    if field.contains(where: { separators.contains($0) }) { return "contains separators; write digits only" }
    return nil
  }
}

/// The number of decimal digits of a positive value.
func _decimalDigits(_ value: Int64) -> Int {
  var count = 1
  var rest = value / 10
  while rest > 0 {
    count += 1
    rest /= 10
  }
  return count
}
