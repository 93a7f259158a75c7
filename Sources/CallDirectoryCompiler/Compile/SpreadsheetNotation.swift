/// A number field a spreadsheet turned into scientific notation
/// (`2.02555E+09`): the phone number's digits are gone, and the reject
/// says so instead of libphonenumber's plain "not a phone number".
enum SpreadsheetNotation {
  /// `looks like a spreadsheet's scientific notation ('2.02555E+09') …`,
  /// or nil when `text` is not digits, an optional fraction, `E` and a
  /// short exponent.
  static func reason(for text: UnsafeBufferPointer<UInt8>) -> String? {
    var bytes = text[...]
    while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
    while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
    guard bytes.count <= 32 else { return nil }
    func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    var index = bytes.startIndex
    func digits() -> Int {
      let start = index
      while index < bytes.endIndex, isDigit(bytes[index]) { index += 1 }
      return index - start
    }
    guard digits() > 0 else { return nil }
    if index < bytes.endIndex, bytes[index] == 0x2E || bytes[index] == 0x2C {
      index += 1
      guard digits() > 0 else { return nil }
    }
    guard index < bytes.endIndex, bytes[index] | 0x20 == 0x65 else { return nil }
    index += 1
    if index < bytes.endIndex, bytes[index] == 0x2B { index += 1 }
    let exponent = digits()
    guard (1...2).contains(exponent), index == bytes.endIndex else { return nil }
    let shown = String(decoding: bytes, as: UTF8.self)
    return "looks like a spreadsheet's scientific notation ('\(shown)'), which loses digits: format the column as text"
  }
}
