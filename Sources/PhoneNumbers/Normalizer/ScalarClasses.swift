import UnicodeText

/// The character classes of libphonenumber's parsing patterns, as plain
/// predicates on Unicode scalar values.
enum ScalarClasses {
  /// `+` or FULLWIDTH PLUS SIGN.
  static func isPlus(_ value: UInt32) -> Bool { value == 0x2B || value == 0xFF0B }

  /// The value of a decimal digit of any script (general category Nd), else nil.
  static func digitValue(_ value: UInt32) -> UInt8? {
    DecimalDigits.value(ofCodePoint: value)
  }

  static func isDigit(_ value: UInt32) -> Bool { digitValue(value) != nil }

  /// libphonenumber's VALID_PUNCTUATION, matched case-insensitively (so `X` too).
  static func isValidPunctuation(_ value: UInt32) -> Bool {
    switch value {
    case 0x20, 0x28, 0x29, 0x2D, 0x2E, 0x2F, 0x58, 0x5B, 0x5D, 0x78, 0x7E,
      0xA0, 0xAD, 0x200B, 0x2010...0x2015, 0x2053, 0x2060, 0x2212, 0x223C,
      0x3000, 0x30FC, 0xFF08, 0xFF09, 0xFF0D...0xFF0F, 0xFF3B, 0xFF3D, 0xFF5E:
      true
    default:
      false
    }
  }

  /// libphonenumber's VALID_ALPHA (ASCII letters) under Python's case-insensitive
  /// matching, which also folds İ, ı, ſ and the Kelvin sign onto ASCII letters.
  static func isValidAlpha(_ value: UInt32) -> Bool {
    switch value {
    case 0x41...0x5A, 0x61...0x7A, 0x130, 0x131, 0x17F, 0x212A: true
    default: false
    }
  }

  static func isASCIILetter(_ value: UInt32) -> Bool {
    (value | 0x20) &- 0x61 < 26
  }

  /// Python's `\w` for a Unicode pattern: letters, numbers and `_`.
  static func isWordCharacter(_ value: UInt32) -> Bool {
    if value < 0x80 {
      return value == 0x5F || value &- 0x30 < 10 || isASCIILetter(value)
    }
    guard let scalar = Unicode.Scalar(value) else { return false }
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
      .decimalNumber, .letterNumber, .otherNumber:
      return true
    default:
      return false
    }
  }

  /// The keypad digit (ITU E.161) for a character of a vanity number, the way
  /// Python's `char.upper()` lookup finds it; nil drops the character.
  static func keypadDigit(_ value: UInt32) -> UInt8? {
    if value &- 0x30 < 10 { return UInt8(value - 0x30) }
    var upper = value
    if value &- 0x61 < 26 { upper = value - 0x20 }
    else if value == 0x131 { upper = 0x49 }  // ı → I
    else if value == 0x17F { upper = 0x53 }  // ſ → S
    guard upper &- 0x41 < 26 else { return nil }
    return keypad[Int(upper - 0x41)]
  }

  private static let keypad: [UInt8] = [
    2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 9, 9, 9, 9,
  ]
}
