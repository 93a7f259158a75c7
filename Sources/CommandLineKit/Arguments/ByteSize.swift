/// Parsing of human-written byte sizes.
public enum ByteSize {
  /// Parses a size such as `4096`, `100k`, `512M`, `2G`, `1T`, `64KiB` or `8MB` into bytes.
  ///
  /// Units are binary and case-insensitive: `k` = 1024, `m` = 1024², `g` = 1024³,
  /// `t` = 1024⁴. A unit may be followed by `B` or `iB`; a bare `B` means bytes.
  ///
  /// - Returns: The number of bytes, or `nil` when the text is not a
  ///   non-negative whole number with an optional unit, or overflows `Int`.
  public static func parse(_ text: String) -> Int? {
    let digits = text.prefix { $0.isASCII && $0.isNumber }
    guard !digits.isEmpty, let number = Int(digits) else { return nil }
    let unit = text.dropFirst(digits.count).lowercased()
    let shift: Int
    switch unit {
    case "", "b": shift = 0
    case "k", "kb", "kib": shift = 10
    case "m", "mb", "mib": shift = 20
    case "g", "gb", "gib": shift = 30
    case "t", "tb", "tib": shift = 40
    default: return nil
    }
    let (result, overflow) = number.multipliedReportingOverflow(by: 1 << shift)
    return overflow ? nil : result
  }
}
