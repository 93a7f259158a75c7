/// A human-written byte size, such as `4096`, `100k`, `512M` or `2G`.
///
/// Options of this type take such sizes (``ExpressibleByArgument``); a
/// literal gives a default: `var memoryBudget: ByteSize = "16M"`.
public struct ByteSize: Sendable, Hashable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
  /// The number of bytes.
  public let bytes: Int
  /// How the size was written (`16M`); help shows a default this way.
  public let text: String

  /// A size of `bytes` written as `text`.
  public init(bytes: Int, text: String) {
    self.bytes = bytes
    self.text = text
  }

  /// A size written in the source, such as `"16M"`; a literal that is not
  /// a size is a programming error.
  public init(stringLiteral value: String) {
    guard let bytes = ByteSize.parse(value) else { preconditionFailure("'\(value)' is not a byte size") }
    self.init(bytes: bytes, text: value)
  }

  /// The size as it was written.
  public var description: String { text }

  /// Orders sizes by their number of bytes.
  public static func < (lhs: ByteSize, rhs: ByteSize) -> Bool { lhs.bytes < rhs.bytes }

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
