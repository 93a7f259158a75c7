/// libphonenumber's extension pattern for parsing (`_EXTN_PATTERNS_FOR_PARSING`,
/// case-insensitive), written out as alternatives of simple repeated classes:
/// `;ext=123`, ` ext. 45`, ` x123`, ` #123`, `- 503#`, `,,55`, `;55`, `,5` ….
///
/// Each alternative is anchored at the end of the input, as in `(?:…)$`.
enum ExtensionMatcher {
  /// The leftmost offset from which an extension runs to the end of `text`,
  /// as Python's `_EXTN_PATTERN.search` finds it.
  static func start(in text: ArraySlice<UInt32>) -> Int? {
    guard canEnd(text), mayHoldExtension(text) else { return nil }
    var index = text.startIndex
    while index < text.endIndex {
      if canStart(text[index]) && matchesAlternatives(text[index...]) { return index }
      index += 1
    }
    return nil
  }

  /// Whether an extension matches all of `text`.
  static func matchesFully(_ text: ArraySlice<UInt32>) -> Bool {
    guard let first = text.first, canStart(first), canEnd(text), mayHoldExtension(text) else { return false }
    return matchesAlternatives(text)
  }

  private static func matchesAlternatives(_ text: ArraySlice<UInt32>) -> Bool {
    for alternative in alternatives where match(alternative[...], text) {
      return true
    }
    return false
  }

  /// Every alternative holds a label, `;`, `,` or `#`: text of digits, spaces
  /// and dashes alone holds no extension.
  private static func mayHoldExtension(_ text: ArraySlice<UInt32>) -> Bool {
    text.contains { value in
      value > 0x7F || value == 0x23 || value == 0x2C || value == 0x3B || value == 0x7E
        || ScalarClasses.isASCIILetter(value)
    }
  }

  /// Every alternative ends in a digit or `#`.
  private static func canEnd(_ text: ArraySlice<UInt32>) -> Bool {
    guard let last = text.last else { return false }
    return last == 0x23 || ScalarClasses.isDigit(last)
  }

  /// A cheap filter: the characters an extension can start with.
  private static func canStart(_ value: UInt32) -> Bool {
    switch value {
    case 0x09, 0x20, 0x23, 0x2C, 0x2D, 0x3B, 0x7E, 0xA0,
      0x41, 0x61, 0x45, 0x65, 0x49, 0x69, 0x58, 0x78, 0x130, 0x131,
      0x414, 0x434, 0xFF03, 0xFF25, 0xFF45, 0xFF29, 0xFF49, 0xFF38, 0xFF58, 0xFF5E:
      true
    default:
      false
    }
  }

  // MARK: - Alternatives

  /// One element of an alternative: a class repeated `minimum...maximum` times.
  struct Item {
    enum Class { case anyOf([UInt32]), decimalDigit }
    let characters: Class
    let minimum: Int
    let maximum: Int

    func contains(_ value: UInt32) -> Bool {
      switch characters {
      case .anyOf(let values): values.contains(value)
      case .decimalDigit: ScalarClasses.isDigit(value)
      }
    }
  }

  private static func one(_ characters: String, _ minimum: Int = 1, _ maximum: Int = 1) -> Item {
    Item(characters: .anyOf(characters.unicodeScalars.map(\.value)), minimum: minimum, maximum: maximum)
  }

  private static func digits(_ maximum: Int) -> Item {
    Item(characters: .decimalDigit, minimum: 1, maximum: maximum)
  }

  /// A case-insensitive literal, one item per character.
  private static func word(_ text: String) -> [Item] {
    text.unicodeScalars.map { scalar in
      switch scalar {
      case "s": one("sSſ")
      case "i": one("iIİı")
      default: one(String(scalar).lowercased() + String(scalar).uppercased())
      }
    }
  }

  private static let unbounded = 64
  private static let separators = one(" \u{A0}\t,", 0, unbounded)
  private static let separatorsWithoutComma = one(" \u{A0}\t", 0, unbounded)
  private static let afterLabel = [one(":.\u{FF0E}", 0, 1), one(" \u{A0}\t,-", 0, unbounded)]
  private static let optionalHash = one("#", 0, 1)

  private static let explicitLabels: [[Item]] = [
    [one("eE", 0, 1)] + word("xt") + [one("nN", 0, 1)],
    [one("eE", 0, 1)] + word("xtensio") + [one("\u{301}", 0, 1), one("nN", 0, 1)],
    [one("eE", 0, 1)] + word("xtensi") + [one("óÓ"), one("nN", 0, 1)],
    [one("\u{FF45}\u{FF25}", 0, 1), one("\u{FF58}\u{FF38}"), one("\u{FF54}\u{FF34}"), one("\u{FF4E}\u{FF2E}", 0, 1)],
    [one("дД"), one("оО"), one("бБ")],
    word("anexo"),
  ]

  private static let ambiguousLabels: [[Item]] = [
    [one("xX\u{FF58}\u{FF38}#\u{FF03}~\u{FF5E}")],
    word("int"),
    [one("\u{FF49}\u{FF29}"), one("\u{FF4E}\u{FF2E}"), one("\u{FF54}\u{FF34}")],
  ]

  private static let alternatives: [[Item]] = {
    var result: [[Item]] = [[one(";")] + word("ext") + [one("="), digits(20)]]
    for label in explicitLabels {
      result.append([separators] + label + afterLabel + [digits(20), optionalHash])
    }
    for label in ambiguousLabels {
      result.append([separators] + label + afterLabel + [digits(9), optionalHash])
    }
    result.append([one("- ", 1, unbounded), digits(6), one("#")])
    result.append([separatorsWithoutComma, one(",", 2, 2)] + afterLabel + [digits(15), optionalHash])
    result.append([separatorsWithoutComma, one(";")] + afterLabel + [digits(15), optionalHash])
    result.append([separatorsWithoutComma, one(",", 1, unbounded)] + afterLabel + [digits(9), optionalHash])
    return result
  }()

  /// Whether `items` match all of `text`, trying every split (backtracking).
  private static func match(_ items: ArraySlice<Item>, _ text: ArraySlice<UInt32>) -> Bool {
    guard let item = items.first else { return text.isEmpty }
    let rest = items.dropFirst()
    var count = 0
    var index = text.startIndex
    while count < item.maximum, index < text.endIndex, item.contains(text[index]) {
      count += 1
      index += 1
    }
    guard count >= item.minimum else { return false }
    while true {
      if match(rest, text[index...]) { return true }
      if count == item.minimum { return false }
      count -= 1
      index -= 1
    }
  }
}
