/// Text from outside (a path, a label, a line of input, a command-line
/// argument) as calldir shows it: every character that could hide,
/// rearrange or fake text on a terminal or a page is written as a visible
/// escape, and everything else is kept as it is.
///
/// The one rule, wherever such text is shown (terminal output and error
/// messages, the rejects and conflicts reports, the HTML report; JSON
/// writes the same characters as `\uXXXX`, see ``JSONValue``):
///
/// - Hidden characters (``isHidden(_:)``): the C0 controls and DEL, the
///   C1 controls (U+0080–U+009F), the line and paragraph separators
///   (U+2028, U+2029), and every format character (Unicode general
///   category Cf: the bidirectional marks, embeddings, overrides and
///   isolates U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069, the
///   zero-width space, word joiner, byte-order mark, tag characters, …)
///   except the zero-width non-joiner and joiner (U+200C, U+200D), which
///   Persian spelling and emoji sequences need.
/// - Escapes (``escape(_:)``): tab, line feed and carriage return are
///   `\t`, `\n`, `\r`; other C0 controls and DEL `\xNN`; the others
///   `\uNNNN` (`\u{NNNNN}` above U+FFFF); hex digits in upper case.
/// - A byte that is not part of well-formed UTF-8 is `\xNN`.
/// - Everything else is kept, a backslash included: letters and marks of
///   every script (`Zürich`, `東京`, Arabic and Hebrew text), emoji, spaces.
public enum ShownText {
  /// Whether `scalar` is escaped when shown (see ``ShownText``).
  public static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < 0x80 { return value < 0x20 || value == 0x7F }
    if value <= 0x9F { return true }
    switch value {
    case 0x200C, 0x200D: return false
    case 0x2028, 0x2029: return true
    default: return scalar.properties.generalCategory == .format
    }
  }

  /// The visible escape of `scalar`, hidden or not: `\t`, `\n`, `\r`,
  /// `\xNN` below U+0080, `\uNNNN` or `\u{NNNNN}` above.
  public static func escape(_ scalar: Unicode.Scalar) -> String {
    switch scalar.value {
    case 0x09: return "\\t"
    case 0x0A: return "\\n"
    case 0x0D: return "\\r"
    case 0..<0x80: return "\\x" + hex(scalar.value, digits: 2)
    case 0x80...0xFFFF: return "\\u" + hex(scalar.value, digits: 4)
    default: return "\\u{" + hex(scalar.value, digits: 5) + "}"
    }
  }

  /// `text` with every hidden character escaped: a path, a label or an
  /// input on one line.
  public static func escaped(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isHidden) else { return text }
    var output = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if isHidden(scalar) {
        output.append(contentsOf: escape(scalar).unicodeScalars)
      } else {
        output.append(scalar)
      }
    }
    return String(output)
  }

  /// `text` as a terminal may receive it: every hidden character escaped
  /// except tab and line feed, which lay out lines and tables; nil when
  /// nothing needs escaping (the common case, found without a copy).
  public static func laidOut(_ text: String) -> String? {
    var needed = false
    for byte in text.utf8 where byte >= 0x7F || (byte < 0x20 && byte != 0x0A && byte != 0x09) {
      needed = true
      break
    }
    guard needed else { return nil }
    guard text.unicodeScalars.contains(where: { isHidden($0) && $0 != "\n" && $0 != "\t" }) else { return nil }
    var output = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if isHidden(scalar) && scalar != "\n" && scalar != "\t" {
        output.append(contentsOf: escape(scalar).unicodeScalars)
      } else {
        output.append(scalar)
      }
    }
    return String(output)
  }

  /// The escaped text of the bytes `p[0..<count]` (a line as read: any
  /// bytes), cut at `maxCharacters` Unicode scalars of escaped text when
  /// given, never inside an escape.
  public static func escaped(_ p: UnsafePointer<UInt8>, _ count: Int, maxCharacters: Int? = nil) -> String {
    let limit = maxCharacters ?? Int.max
    var output = String.UnicodeScalarView()
    var length = 0
    var index = 0
    while index < count && length < limit {
      let (scalar, width) = decode(p, index, count)
      index += width
      let piece: String
      if let scalar {
        guard isHidden(scalar) else {
          output.append(scalar)
          length += 1
          continue
        }
        piece = escape(scalar)
      } else {
        piece = "\\x" + hex(UInt32(p[index - width]), digits: 2)
      }
      let scalars = piece.unicodeScalars
      guard length + scalars.count <= limit else { break }
      output.append(contentsOf: scalars)
      length += scalars.count
    }
    return String(output)
  }

  /// The escaped text of `bytes`, cut as ``escaped(_:_:maxCharacters:)`` cuts.
  public static func escaped(_ bytes: UnsafeBufferPointer<UInt8>, maxCharacters: Int? = nil) -> String {
    guard let base = bytes.baseAddress else { return "" }
    return escaped(base, bytes.count, maxCharacters: maxCharacters)
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
    guard index + width <= count else { return (nil, 1) }
    var value = UInt32(lead) & (0xFF >> UInt32(width + 1))
    for offset in 1..<width {
      let byte = p[index + offset]
      guard byte & 0xC0 == 0x80 else { return (nil, 1) }
      value = value << 6 | UInt32(byte & 0x3F)
    }
    // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
    let smallest: UInt32 = width == 2 ? 0x80 : width == 3 ? 0x800 : 0x10000
    guard value >= smallest, let scalar = Unicode.Scalar(value) else { return (nil, 1) }
    return (scalar, width)
  }

  private static func hex(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}
