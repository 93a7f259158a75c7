/// The text of a rejected line as reports show it: the bytes as read,
/// decoded as UTF-8, with every character that could hide or rearrange
/// text escaped, cut at ``_LineText/maximumCharacters`` characters.
///
/// - Tab, line feed and carriage return become `\t`, `\n`, `\r`; other C0
///   controls and DEL become `\xNN`; C1 controls, the bidirectional
///   formatting characters (U+061C, U+200E, U+200F, U+202A–U+202E,
///   U+2066–U+2069) and the line and paragraph separators (U+2028, U+2029)
///   become `\uNNNN`.
/// - A byte that is not part of well-formed UTF-8 becomes `\xNN`.
/// - Everything else, a backslash included, is kept as it is.
///
/// The cut counts Unicode scalars of the escaped text and never splits an
/// escape, so the result is at most 120 scalars long.
enum _LineText {
  /// The longest text a report shows, in characters.
  static let maximumCharacters = 120
  /// The most bytes of a line that can reach the report: each character
  /// takes at most four bytes of UTF-8.
  static let maximumBytes = 4 * maximumCharacters

  /// The escaped, cut text of `p[0..<count]`.
  static func escaped(_ p: UnsafePointer<UInt8>, _ count: Int) -> String {
    var output = String.UnicodeScalarView()
    var length = 0
    var index = 0
    func append(_ text: String) -> Bool {
      let scalars = text.unicodeScalars
      guard length + scalars.count <= maximumCharacters else { return false }
      output.append(contentsOf: scalars)
      length += scalars.count
      return true
    }
    while index < count && length < maximumCharacters {
      let (scalar, width) = decode(p, index, count)
      index += width
      guard let scalar else {
        guard append("\\x" + hex(UInt32(p[index - width]), digits: 2)) else { break }
        continue
      }
      switch scalar.value {
      case 0x09: guard append("\\t") else { return String(output) }
      case 0x0A: guard append("\\n") else { return String(output) }
      case 0x0D: guard append("\\r") else { return String(output) }
      case 0x00...0x1F, 0x7F:
        guard append("\\x" + hex(scalar.value, digits: 2)) else { return String(output) }
      case 0x80...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029:
        guard append("\\u" + hex(scalar.value, digits: 4)) else { return String(output) }
      default:
        output.append(scalar)
        length += 1
      }
    }
    return String(output)
  }

  /// The escaped, cut text of `bytes`.
  static func escaped(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    guard let base = bytes.baseAddress else { return "" }
    return escaped(base, bytes.count)
  }

  /// The scalar starting at `p[index]` and its byte width; nil (width 1)
  /// for a byte that does not start well-formed UTF-8.
  private static func decode(_ p: UnsafePointer<UInt8>, _ index: Int, _ count: Int) -> (Unicode.Scalar?, Int) {
    let lead = p[index]
    if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
    let width: Int
    switch lead {
    case 0xC2...0xDF: width = 2
    case 0xE0...0xEF: width = 3
    case 0xF0...0xF4: width = 4
    default: return (nil, 1)
    }
    guard index + width <= count, _isValidUTF8(p + index, width) else { return (nil, 1) }
    var value = UInt32(lead) & (0xFF >> UInt32(width + 1))
    for offset in 1..<width { value = value << 6 | UInt32(p[index + offset] & 0x3F) }
    return (Unicode.Scalar(value), width)
  }

  private static func hex(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}

/// Text from a source or the command line as reports and terminals show it:
/// control, bidirectional-formatting and invalid characters escaped (see
/// ``_LineText``), at most 120 characters.
public enum ShownText {
  public static func escaped(_ text: String) -> String {
    var copy = text
    return copy.withUTF8 { _LineText.escaped($0) }
  }
}
