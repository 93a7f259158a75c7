import CICUShim

/// Cleans caller-ID labels before they go into a Call Directory dataset.
///
/// Apple documents no label length and no character rules, so this type
/// applies the rules calldir promises its users:
///
/// 1. Controls (`Cc`) and format characters (`Cf`) are removed, including
///    every bidirectional formatting character (U+200E, U+200F,
///    U+202A–U+202E, U+2066–U+2069), which could reorder what the call
///    screen shows. U+200D ZERO WIDTH JOINER and variation selectors are
///    kept so emoji sequences survive; the tag characters of an emoji tag
///    sequence (the flags of England, Scotland and Wales) are kept only
///    inside such a sequence.
/// 2. Every run of Unicode white space (tabs, newlines, NBSP, U+3000, …) is
///    collapsed to one ASCII space, and the ends are trimmed.
/// 3. The text is normalized to NFC with ICU, so equal labels compare equal.
/// 4. The text is cut to at most ``maximumCharacters`` user-perceived
///    characters (extended grapheme clusters), never splitting a cluster, an
///    emoji ZWJ sequence or a flag.
///
/// A label with nothing visible left is rejected with ``LabelRejection/empty``.
///
///     let sanitizer = LabelSanitizer()
///     sanitizer.sanitize("  ACME\u{202E}\tBank ")  // .success("ACME Bank")
public struct LabelSanitizer: Hashable, Sendable {
  /// The default cap, 64 user-perceived characters.
  ///
  /// The incoming-call screen shows roughly 30–40 characters of a label on
  /// one or two lines, so longer labels are not readable anyway; 64 leaves
  /// room for a category prefix (`"⚠️ Spam: "`) plus a name, and keeps the
  /// label side table small in an extension that runs under a tight memory
  /// limit. Apple documents no limit of its own.
  public static let defaultMaximumCharacters = 64

  /// The most user-perceived characters (extended grapheme clusters) a
  /// cleaned label keeps; longer labels are truncated.
  public let maximumCharacters: Int

  /// Creates a sanitizer with the ``defaultMaximumCharacters`` cap.
  public init() {
    self.maximumCharacters = Self.defaultMaximumCharacters
  }

  /// Creates a sanitizer with a custom cap.
  ///
  /// - Parameter maximumCharacters: The cap in user-perceived characters;
  ///   it must be at least 1 and at most `Int32.max`.
  /// - Returns: `nil` if the cap is out of range.
  public init?(maximumCharacters: Int) {
    guard maximumCharacters >= 1, maximumCharacters <= Int(Int32.max) else {
      return nil
    }
    self.maximumCharacters = maximumCharacters
  }

  /// Cleans a label.
  ///
  /// - Parameter raw: The label as read from a source file.
  /// - Returns: The cleaned label, or why it was rejected.
  public func sanitize(_ raw: String) -> Result<String, LabelRejection> {
    clean(raw).map(\.text)
  }

  /// Validates UTF-8 bytes and cleans the label they hold.
  ///
  /// - Parameter bytes: The label's bytes as read from a source file.
  /// - Returns: The cleaned label, or why it was rejected; invalid UTF-8
  ///   (overlong forms, surrogates, truncated sequences, stray continuation
  ///   bytes) is ``LabelRejection/invalidUTF8(offset:)``.
  public func sanitize(
    bytes: some Collection<UInt8>
  ) -> Result<String, LabelRejection> {
    clean(bytes: bytes).map(\.text)
  }

  /// Cleans a label and reports what changed.
  ///
  /// - Parameter raw: The label as read from a source file.
  /// - Returns: The cleaned label with change flags, or why it was rejected.
  public func clean(_ raw: String) -> Result<SanitizedLabel, LabelRejection> {
    let filtered = Self._filter(raw.unicodeScalars)
    guard filtered.contains(where: { !Self._isInvisibleJoiner($0) }) else {
      return .failure(.empty)
    }
    let normalized: String
    switch _ICUText.nfc(String(filtered)) {
    case .success(let text): normalized = text
    case .failure(let rejection): return .failure(rejection)
    }
    var text: String
    switch _ICUText.prefix(normalized, maximumGraphemes: maximumCharacters) {
    case .success(let prefix): text = prefix
    case .failure(let rejection): return .failure(rejection)
    }
    let wasTruncated = text.utf8.count < normalized.utf8.count
    while text.unicodeScalars.last == " " {
      text.unicodeScalars.removeLast()
    }
    guard text.unicodeScalars.contains(where: { !Self._isInvisibleJoiner($0) })
    else {
      return .failure(.empty)
    }
    // Compare scalars: String's == treats canonically equivalent text as
    // equal, which would hide an NFC change.
    let wasModified = !text.unicodeScalars.elementsEqual(raw.unicodeScalars)
    return .success(
      SanitizedLabel(
        text: text, wasTruncated: wasTruncated, wasModified: wasModified))
  }

  /// Validates UTF-8 bytes, then cleans the label and reports what changed.
  ///
  /// - Parameter bytes: The label's bytes as read from a source file.
  /// - Returns: The cleaned label with change flags, or why it was rejected.
  public func clean(
    bytes: some Collection<UInt8>
  ) -> Result<SanitizedLabel, LabelRejection> {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var scalars = String.UnicodeScalarView()
    var offset = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        scalars.append(Unicode.UTF8.decode(encoded))
        offset += encoded.count
      case .error:
        return .failure(.invalidUTF8(offset: offset))
      case .emptyInput:
        return clean(String(scalars))
      }
    }
  }
}

extension LabelSanitizer {
  /// Removes controls, format and bidi characters; collapses and trims white
  /// space. Keeps ZWJ, variation selectors and well-formed emoji tag
  /// sequences.
  static func _filter(
    _ input: String.UnicodeScalarView
  ) -> String.UnicodeScalarView {
    let scalars = Array(input)
    var output = String.UnicodeScalarView()
    var pendingSpace = false
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      index += 1
      if _isWhitespace(scalar) {
        pendingSpace = !output.isEmpty
        continue
      }
      if _isRemoved(scalar) {
        continue
      }
      if pendingSpace {
        output.append(" ")
        pendingSpace = false
      }
      output.append(scalar)
      if scalar.value == _blackFlag {
        let end = _tagSequenceEnd(scalars, from: index)
        output.append(contentsOf: scalars[index..<end])
        index = end
      }
    }
    return output
  }

  /// U+1F3F4 WAVING BLACK FLAG, the base of emoji tag sequences.
  static let _blackFlag: UInt32 = 0x1F3F4

  /// Returns the end of a well-formed tag spec plus CANCEL TAG starting at
  /// `start`, or `start` if there is none.
  static func _tagSequenceEnd(
    _ scalars: [Unicode.Scalar], from start: Int
  ) -> Int {
    var index = start
    while index < scalars.count, (0xE0020...0xE007E).contains(scalars[index].value) {
      index += 1
    }
    guard index > start, index < scalars.count, scalars[index].value == 0xE007F
    else {
      return start
    }
    return index + 1
  }

  /// Whether a scalar is Unicode White_Space.
  static func _isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < 0x80 {
      return value == 0x20 || (0x09...0x0D).contains(value)
    }
    return cd_is_whitespace(value) != 0
  }

  /// Whether a scalar is a bidirectional formatting character.
  ///
  /// These are all `Cf` and would be caught by the class check; they are
  /// listed explicitly because letting one through can reverse what the call
  /// screen displays.
  static func _isBidiFormatting(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
  }

  /// Whether a non-white-space scalar is removed: controls, bidi and other
  /// format characters, except ZWJ and variation selectors.
  static func _isRemoved(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < 0x80 {
      return value < 0x20 || value == 0x7F
    }
    return _isBidiFormatting(scalar) || cd_is_control_or_format(value) != 0
  }

  /// Whether a scalar is kept but invisible on its own (ZWJ, variation
  /// selectors), so a label made only of them counts as empty.
  static func _isInvisibleJoiner(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x200D, 0xFE00...0xFE0F, 0xE0100...0xE01EF: return true
    default: return false
    }
  }
}
