/// libphonenumber's extension pattern for parsing (`_EXTN_PATTERNS_FOR_PARSING`,
/// case-insensitive), written out as alternatives of simple repeated classes:
/// `;ext=123`, ` ext. 45`, ` x123`, ` #123`, `- 503#`, `,,55`, `;55`, `,5` ….
///
/// Each alternative is anchored at the end of the input, as in `(?:…)$`.
enum ExtensionMatcher {
  /// The leftmost offset from which an extension runs to the end of `text`,
  /// as Python's `_EXTN_PATTERN.search` finds it.
  static func start(in text: ArraySlice<UInt32>) -> Int? {
    text.withUnsafeBufferPointer { start(in: $0) }.map { text.startIndex + $0 }
  }

  /// ``start(in:)-(ArraySlice<UInt32>)`` for scalars in a buffer: the
  /// offset into it.
  static func start(in scalars: UnsafeBufferPointer<UInt32>) -> Int? {
    guard let last = scalars.last, canEnd(last) else { return nil }
    let tables = Self.tables
    let count = scalars.count
    // needed[i]: the alternatives whose label character occurs in text[i...].
    return withUnsafeTemporaryAllocation(of: UInt16.self, capacity: count + 1) { needed -> Int? in
      needed[count] = 0
      var index = count
      while index > 0 {
        index -= 1
        needed[index] = needed[index + 1] | tables.alternativesLabelled(by: scalars[index])
      }
      guard needed[0] != 0 else { return nil }
      return tables.compiled.withUnsafeBufferPointer { items -> Int? in
        var index = 0
        while index < count && needed[index] != 0 {
          if canStart(scalars[index])
            && matchesAlternatives(items, tables.ranges, scalars, from: index, among: needed[index])
          {
            return index
          }
          index += 1
        }
        return nil
      }
    }
  }

  /// Whether an extension matches all of `text`.
  static func matchesFully(_ text: ArraySlice<UInt32>) -> Bool {
    guard let first = text.first, let last = text.last, canStart(first), canEnd(last) else { return false }
    let tables = Self.tables
    var candidates: UInt16 = 0
    for value in text { candidates |= tables.alternativesLabelled(by: value) }
    guard candidates != 0 else { return false }
    return text.withUnsafeBufferPointer { scalars in
      tables.compiled.withUnsafeBufferPointer { items in
        matchesAlternatives(items, tables.ranges, scalars, from: 0, among: candidates)
      }
    }
  }

  /// `matchesFully(text[index...])` for many `index` of one text, with the
  /// label screens of all suffixes computed once: `body` receives a function
  /// answering for an offset into `text`.
  static func withSuffixMatcher<Result>(
    _ text: ArraySlice<UInt32>, _ body: ((Int) -> Bool) -> Result
  ) -> Result {
    let tables = Self.tables
    let endsWell = text.last.map(canEnd) ?? false
    return text.withUnsafeBufferPointer { scalars in
      let count = scalars.count
      return withUnsafeTemporaryAllocation(of: UInt16.self, capacity: count + 1) { needed in
        needed[count] = 0
        var index = count
        while index > 0 {
          index -= 1
          needed[index] = needed[index + 1] | tables.alternativesLabelled(by: scalars[index])
        }
        return tables.compiled.withUnsafeBufferPointer { items in
          body { offset in
            let position = offset - text.startIndex
            guard endsWell, position < count, canStart(scalars[position]), needed[position] != 0 else { return false }
            return matchesAlternatives(items, tables.ranges, scalars, from: position, among: needed[position])
          }
        }
      }
    }
  }

  /// Whether one of the alternatives in the bit set `among` matches
  /// `text[start...]`, trying them in order.
  private static func matchesAlternatives(
    _ items: UnsafeBufferPointer<CompiledItem>, _ ranges: [Range<Int>], _ text: UnsafeBufferPointer<UInt32>,
    from start: Int, among candidates: UInt16
  ) -> Bool {
    for (alternative, range) in ranges.enumerated()
    where candidates & (1 << UInt16(alternative)) != 0 && match(items, range.lowerBound, range.upperBound, text, start) {
      return true
    }
    return false
  }

  // MARK: - Label screening

  /// Every alternative has a mandatory item that is no digit or separator
  /// class (a letter of `ext`, `x`, `#`, `;`, `,`, `д` …): an alternative can
  /// only match text holding one of that item's characters. The screens are
  /// derived from the alternatives themselves.
  ///
  /// The matcher's tables, fetched once per call (each static costs a
  /// `swift_once` check per access).
  struct Tables {
    let compiled: [CompiledItem]
    let ranges: [Range<Int>]
    let labelMasksASCII: [UInt16]
    let labelMasksOther: [(UInt32, UInt16)]

    /// The bit set of alternatives (bit a for `alternatives[a]`) whose screen
    /// holds `value`.
    @inline(__always)
    func alternativesLabelled(by value: UInt32) -> UInt16 {
      if value < 128 { return labelMasksASCII[Int(value)] }
      for (scalar, mask) in labelMasksOther where scalar == value { return mask }
      return 0
    }
  }

  private static let tables = Tables(
    compiled: compiled, ranges: compiledRanges, labelMasksASCII: labelMasksASCII, labelMasksOther: labelMasksOther)

  /// For each alternative, the characters of its screening item (all
  /// characters when it has none, so it is never screened out).
  private static let labelScreens: [Set<UInt32>?] = alternatives.map { alternative in
    let candidates = alternative.compactMap { item -> [UInt32]? in
      guard item.minimum >= 1, case .anyOf(let values) = item.characters else { return nil }
      // Spaces and dashes are in most numbers; a class with them screens little.
      guard !values.contains(where: { [0x20, 0x09, 0xA0, 0x2D].contains($0) }) else { return nil }
      return values
    }
    return candidates.min(by: { $0.count < $1.count }).map(Set.init)
  }

  private static let labelMasksASCII: [UInt16] = (0..<128).map { value in
    var mask: UInt16 = 0
    for (alternative, screen) in labelScreens.enumerated() where screen?.contains(UInt32(value)) ?? true {
      mask |= 1 << UInt16(alternative)
    }
    return mask
  }

  private static let labelMasksOther: [(UInt32, UInt16)] = {
    precondition(alternatives.count <= 16 && labelScreens.allSatisfy { $0 != nil })
    var masks: [UInt32: UInt16] = [:]
    for (alternative, screen) in labelScreens.enumerated() {
      for value in screen ?? [] where value >= 128 { masks[value, default: 0] |= 1 << UInt16(alternative) }
    }
    return masks.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
  }()

  /// Every alternative ends in a digit or `#`.
  private static func canEnd(_ last: UInt32) -> Bool {
    last == 0x23 || ScalarClasses.isDigit(last)
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

  /// Whether `items[item..<itemEnd]` match all of `text[position...]`, trying
  /// every split (backtracking): greedy counts, then fewer.
  private static func match(
    _ items: UnsafeBufferPointer<CompiledItem>, _ item: Int, _ itemEnd: Int,
    _ text: UnsafeBufferPointer<UInt32>, _ position: Int
  ) -> Bool {
    guard item < itemEnd else { return position == text.count }
    let current = items[item]
    var count = 0
    var index = position
    while count < current.maximum, index < text.count, current.contains(text[index]) {
      count += 1
      index += 1
    }
    guard count >= current.minimum else { return false }
    while true {
      if match(items, item + 1, itemEnd, text, index) { return true }
      if count == current.minimum { return false }
      count -= 1
      index -= 1
    }
  }

  /// An `Item` as plain values: ASCII members as a 128-bit set, up to four
  /// other members, or every decimal digit.
  struct CompiledItem {
    let asciiLow: UInt64
    let asciiHigh: UInt64
    let others: (UInt32, UInt32, UInt32, UInt32)
    let decimalDigit: Bool
    let minimum: Int
    let maximum: Int

    init(_ item: Item) {
      var low: UInt64 = 0
      var high: UInt64 = 0
      var others: [UInt32] = []
      var decimal = false
      switch item.characters {
      case .decimalDigit:
        decimal = true
      case .anyOf(let values):
        for value in values {
          if value < 64 { low |= 1 << UInt64(value) }
          else if value < 128 { high |= 1 << UInt64(value - 64) }
          else { others.append(value) }
        }
      }
      precondition(others.count <= 4, "extension class with too many non-ASCII members")
      while others.count < 4 { others.append(0) }
      self.asciiLow = low
      self.asciiHigh = high
      self.others = (others[0], others[1], others[2], others[3])
      self.decimalDigit = decimal
      self.minimum = item.minimum
      self.maximum = item.maximum
    }

    @inline(__always)
    func contains(_ value: UInt32) -> Bool {
      if decimalDigit { return ScalarClasses.isDigit(value) }
      if value < 64 { return asciiLow & (1 << UInt64(value)) != 0 }
      if value < 128 { return asciiHigh & (1 << UInt64(value - 64)) != 0 }
      return value == others.0 || value == others.1 || value == others.2 || value == others.3
    }
  }

  /// `alternatives` flattened: all items in order, and each alternative's range.
  private static let compiled: [CompiledItem] = alternatives.flatMap { $0.map(CompiledItem.init) }
  private static let compiledRanges: [Range<Int>] = {
    var ranges: [Range<Int>] = []
    var start = 0
    for alternative in alternatives {
      ranges.append(start..<start + alternative.count)
      start += alternative.count
    }
    return ranges
  }()
}
