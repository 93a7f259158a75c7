import CICUShim

/// Decimal digit values of Unicode scalars in any script.
///
/// A scalar is a decimal digit when its general category is `Nd`: ASCII
/// `0`–`9`, full-width `０`–`９`, Arabic-Indic `٠`–`٩`, Persian `۰`–`۹`,
/// Devanagari `०`–`९`, Bengali, Thai and the other script digits. Other
/// numerics such as `²` (`No`) or `Ⅻ` (`Nl`) are not decimal digits.
public enum DecimalDigits {
  /// Returns the value 0–9 of a decimal digit, or `nil` for anything else.
  ///
  /// ASCII scalars are answered without calling ICU.
  ///
  /// - Parameter scalar: The scalar to classify.
  /// - Returns: The digit value, or `nil` if the scalar is not in category `Nd`.
  ///
  /// The corresponding ICU calls are `u_charType` and `u_charDigitValue`.
  public static func value(of scalar: Unicode.Scalar) -> Int? {
    let codePoint = scalar.value
    if codePoint < 0x80 {
      return (0x30...0x39).contains(codePoint) ? Int(codePoint - 0x30) : nil
    }
    let value = cd_decimal_digit_value(codePoint)
    return value >= 0 ? Int(value) : nil
  }

  /// The value of a decimal digit given as a code point, for callers that
  /// scan raw scalar values; `nil` for anything else, including invalid
  /// code points.
  public static func value(ofCodePoint codePoint: UInt32) -> UInt8? {
    if codePoint &- 0x30 < 10 { return UInt8(codePoint &- 0x30) }
    // No code point below ARABIC-INDIC DIGIT ZERO is Nd except ASCII digits.
    guard codePoint >= 0x660 else { return nil }
    let value = cd_decimal_digit_value(codePoint)
    return value >= 0 ? UInt8(value) : nil
  }
}
