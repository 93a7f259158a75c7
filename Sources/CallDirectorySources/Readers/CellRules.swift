/// How a number cell (a `csv` or `tsv` number column, a `lines` line) may
/// hold more than one number: the source keys `numberSeparator`, `wildcard`
/// and `rangeSeparator`.
///
/// Regulators publish cells such as `0621 123456|0621 654321`, `0621
/// 123XXX` and `0621 123000 bis 0621 123999`. With the keys that say how,
/// a reader gives each number of such a cell as its own record, at the
/// cell's line:
///
/// - `numberSeparator`: the cell is cut at every occurrence, and at every
///   line break (a quoted cell of several lines); each non-empty piece is a
///   number (or a block, or a range) of its own.
/// - `wildcard`: a run of the character at the end of a number (spaces may
///   sit inside the run: `0621 123 XXX`) stands for every digit there, as
///   `#` does in `patterns`: the record is the range from the number with
///   `0` in their place to the number with `9` (``RawRecord/wildcardDigits``
///   says how many). A letter matches in either case, and only where it is
///   no part of a word (`Fax`, `ext.`). The character elsewhere, right after
///   a digit (`0621 12X 456`), is an issue: it must end the number.
/// - `rangeSeparator`: `A<separator>B` is the range from A to B; each end is
///   read as a `rangeStart`/`rangeEnd` end is (a wildcard run in A stands
///   for zeros, in B for nines).
///
/// Readers only cut text; the compiler normalizes the pieces and decides
/// what to keep.
public struct CellRules: Sendable, Hashable {
  /// The text between numbers of one cell (`|`, `;`, ` oder `), if any.
  public let numberSeparator: String?
  /// The character that stands for any digit at the end of a number (`X`).
  public let wildcard: String?
  /// The text between the two ends of a range (` bis `, ` - `), if any.
  public let rangeSeparator: String?

  let numberSeparatorBytes: [UInt8]
  package let wildcardBytes: [UInt8]
  let rangeSeparatorBytes: [UInt8]
  /// The wildcard's first byte (0 without one), and whether it is an
  /// ASCII letter (matched in either case).
  private let wildcardFirst: UInt8
  private let isLetterWildcard: Bool

  /// No rules: every cell is one number.
  public static let none = CellRules(checked: nil, nil, nil)

  /// Whether no key is set.
  public var isEmpty: Bool { numberSeparator == nil && wildcard == nil && rangeSeparator == nil }

  /// The option keys, in the order messages and summaries name them.
  public static let keys = ["numberSeparator", "wildcard", "rangeSeparator"]

  /// Creates rules, checking them.
  ///
  /// - Parameters:
  ///   - numberSeparator: Text that separates numbers in a cell.
  ///   - wildcard: One character that stands for a digit at the end of a number.
  ///   - rangeSeparator: Text between a range's two ends.
  ///   - commentCharacter: A character the format reads as the start of a
  ///     comment (`#` in `lines`), which cannot also be the wildcard.
  /// - Throws: ``SourceOptionError`` naming the key whose value cannot work:
  ///   empty, holding a digit or `+` (they belong to numbers), a wildcard
  ///   of more than one character or that is a space or a parenthesis, or
  ///   keys that overlap.
  public init(
    numberSeparator: String?, wildcard: String?, rangeSeparator: String?, commentCharacter: Character? = nil
  ) throws(SourceOptionError) {
    for (key, value) in [("numberSeparator", numberSeparator), ("rangeSeparator", rangeSeparator)] {
      guard let value else { continue }
      if value.isEmpty { throw SourceOptionError(key: key, reason: "must not be empty") }
      if value.utf8.contains(where: { _isDigit($0) || $0 == _ASCII.plus }) {
        throw SourceOptionError(key: key, reason: "must not hold a digit or '+', which belong to numbers")
      }
    }
    if let numberSeparator, let rangeSeparator,
      numberSeparator.utf8.count <= rangeSeparator.utf8.count
        ? rangeSeparator.contains(numberSeparator) : numberSeparator.contains(rangeSeparator)
    {
      throw SourceOptionError(
        key: "rangeSeparator", reason: "must not hold numberSeparator, nor be held by it (a cell is cut at both)")
    }
    if let wildcard {
      let scalars = wildcard.unicodeScalars
      guard scalars.count == 1, let scalar = scalars.first else {
        throw SourceOptionError(key: "wildcard", reason: "must be one character, such as 'X'")
      }
      if scalar.properties.isWhitespace || ("0"..."9").contains(scalar) || "+()".unicodeScalars.contains(scalar)
        || scalar.value < 0x20
      {
        throw SourceOptionError(
          key: "wildcard", reason: "must not be a digit, '+', a parenthesis, a space or a control character")
      }
      if let commentCharacter, Character(scalar) == commentCharacter {
        throw SourceOptionError(
          key: "wildcard",
          reason: "'\(commentCharacter)' starts a comment in this format (use format 'patterns' for '#' wildcards)")
      }
      for (key, separator) in [("numberSeparator", numberSeparator), ("rangeSeparator", rangeSeparator)] {
        guard let separator, separator.lowercased().contains(wildcard.lowercased()) else { continue }
        throw SourceOptionError(key: "wildcard", reason: "must not appear in \(key) '\(separator)'")
      }
    }
    self.init(checked: numberSeparator, wildcard, rangeSeparator)
  }

  private init(checked numberSeparator: String?, _ wildcard: String?, _ rangeSeparator: String?) {
    self.numberSeparator = numberSeparator
    self.wildcard = wildcard
    self.rangeSeparator = rangeSeparator
    numberSeparatorBytes = Array((numberSeparator ?? "").utf8)
    wildcardBytes = Array((wildcard ?? "").utf8)
    rangeSeparatorBytes = Array((rangeSeparator ?? "").utf8)
    wildcardFirst = wildcardBytes.first ?? 0
    isLetterWildcard = wildcardBytes.count == 1 && _isLetter(wildcardFirst)
  }

  /// The rules a source's options set (`numberSeparator`, `wildcard`,
  /// `rangeSeparator`).
  /// - Throws: ``SourceOptionError`` as ``init(numberSeparator:wildcard:rangeSeparator:commentCharacter:)``.
  public init(options: SourceOptions, commentCharacter: Character? = nil) throws(SourceOptionError) {
    try self.init(
      numberSeparator: options["numberSeparator"], wildcard: options["wildcard"],
      rangeSeparator: options["rangeSeparator"], commentCharacter: commentCharacter)
  }

  /// The three keys as format options, for the formats that take them.
  static let options: [SourceFormat.Option] = [
    .init(
      name: "numberSeparator", isRequired: false,
      summary: "text between numbers of one cell, such as '|': each number is a record of the line"),
    .init(
      name: "wildcard", isRequired: false,
      summary: "a character that stands for any digit at the end of a number, such as 'X': the cell is a range"),
    .init(
      name: "rangeSeparator", isRequired: false,
      summary: "text between the two ends of a range written in one cell, such as ' bis '"),
  ]
}

/// What one piece of a cell holds, as ``CellRules`` cut it. The buffers
/// are valid only during the callback.
package enum _CellPart {
  /// A number, trimmed.
  case number(UnsafeBufferPointer<UInt8>)
  /// A range: its first and last number as texts to normalize; a wildcard
  /// block has `wildcardDigits` > 0 (the wildcards of its run).
  case range(start: UnsafeBufferPointer<UInt8>, end: UnsafeBufferPointer<UInt8>, wildcardDigits: Int)
  /// A piece the rules cannot read, with a lowercase reason.
  case issue(String)
}

/// What the rules made of a source's cells, for the build summary.
public struct CellCounts: Sendable, Hashable {
  /// Cells that held several numbers (`numberSeparator`).
  public var splitCells = 0
  /// Wildcard blocks read (`wildcard`).
  public var wildcardBlocks = 0
  /// Ranges written in one cell (`rangeSeparator`).
  public var ranges = 0

  /// Creates counts.
  public init(splitCells: Int = 0, wildcardBlocks: Int = 0, ranges: Int = 0) {
    self.splitCells = splitCells
    self.wildcardBlocks = wildcardBlocks
    self.ranges = ranges
  }

  package mutating func add(_ other: CellCounts) {
    splitCells += other.splitCells
    wildcardBlocks += other.wildcardBlocks
    ranges += other.ranges
  }
}

extension CellRules {
  /// Hands on the records `record`'s number cell holds: each number, and
  /// each wildcard block or range as a record with its range end, to
  /// `deliver`; a piece that is neither, as an issue of the record's line
  /// shown as `text`, to `report`. Without rules, or for a record that is
  /// a range already, the record itself. `summary` counts the records,
  /// the issues and the cells' shapes.
  package func forEachRecord(
    in record: RawRecord, shownAs text: UnsafeBufferPointer<UInt8>, summary: inout SourceSummary,
    deliver: (RawRecord) throws -> Void, report: (SourceIssue) throws -> Void
  ) rethrows {
    guard !isEmpty, record.rangeEndBytes == nil else {
      summary.records += 1
      return try deliver(record)
    }
    var counts = summary.cells
    try forEachPart(record.numberBytes, counts: &counts) { part in
      switch part {
      case .number(let number):
        summary.records += 1
        try deliver(record.replacing(numberBytes: number, rangeEndBytes: nil))
      case .range(let start, let end, let wildcardDigits):
        summary.records += 1
        try deliver(record.replacing(numberBytes: start, rangeEndBytes: end, wildcardDigits: wildcardDigits))
      case .issue(let reason):
        summary.issues += 1
        try report(SourceIssue(line: record.line, reason: reason, text: _LineText.escaped(text)))
      }
    }
    summary.cells = counts
  }
}

extension CellRules {
  /// Calls `body` with each piece of `cell` (trimmed bytes), in order, and
  /// counts what it found into `counts`. Without rules the cell is one
  /// number. Empty pieces (`a||b`, a trailing separator) and pieces
  /// without a letter, digit or non-ASCII character (`-`) are skipped; a
  /// cell of nothing else is `empty number`.
  package func forEachPart(
    _ cell: UnsafeBufferPointer<UInt8>, counts: inout CellCounts, _ body: (_CellPart) throws -> Void
  ) rethrows {
    guard !isEmpty, let base = cell.baseAddress else { return try body(.number(cell)) }
    var pieces = 0
    var start = 0
    var found = false
    repeat {
      // With a separator, a line break (in a quoted cell) separates numbers
      // too: it is never inside one.
      var cut: Int?
      var cutLength = numberSeparatorBytes.count
      if !numberSeparatorBytes.isEmpty {
        cut = Self.firstOccurrence(of: numberSeparatorBytes, in: base, start, cell.count)
        if let lineBreak = Self.firstOccurrence(of: [_ASCII.lineFeed], in: base, start, cut ?? cell.count) {
          cut = lineBreak
          cutLength = 1
        }
      }
      let end = cut ?? cell.count
      var lower = start
      var upper = end
      _trimCell(base, &lower, &upper)
      let piece = UnsafeBufferPointer(start: base + lower, count: upper - lower)
      if !piece.isEmpty, !_isPlaceholder(piece) {
        pieces += 1
        if pieces == 2 { counts.splitCells += 1 }
        found = true
        try part(piece, counts: &counts, body)
      }
      guard let cut else { break }
      start = cut + cutLength
    } while true
    if !found { try body(.issue("empty number")) }
  }

  /// One piece: a range, a wildcard block or a number.
  private func part(
    _ piece: UnsafeBufferPointer<UInt8>, counts: inout CellCounts, _ body: (_CellPart) throws -> Void
  ) rethrows {
    guard let base = piece.baseAddress else { return }
    if !rangeSeparatorBytes.isEmpty, let cut = Self.firstOccurrence(of: rangeSeparatorBytes, in: base, 0, piece.count) {
      let afterCut = cut + rangeSeparatorBytes.count
      if Self.firstOccurrence(of: rangeSeparatorBytes, in: base, afterCut, piece.count) != nil {
        let shown = rangeSeparatorBytes.withUnsafeBufferPointer { _LineText.escaped($0) }
        return try body(.issue("more than one range separator ('\(shown)') in a cell"))
      }
      var startLower = 0
      var startUpper = cut
      _trimCell(base, &startLower, &startUpper)
      var endLower = afterCut
      var endUpper = piece.count
      _trimCell(base, &endLower, &endUpper)
      if startLower == startUpper { return try body(.issue("range is missing its start")) }
      if endLower == endUpper { return try body(.issue("range is missing its end")) }
      let first = UnsafeBufferPointer(start: base + startLower, count: startUpper - startLower)
      let last = UnsafeBufferPointer(start: base + endLower, count: endUpper - endLower)
      switch (filled(first, with: _ASCII.zero), filled(last, with: _ASCII.nine)) {
      case (.failure(let failure), _), (_, .failure(let failure)):
        return try body(.issue(failure.reason))
      case (.success(let low), .success(let high)):
        counts.ranges += 1
        try low.bytes.withUnsafeBufferPointer { start in
          try high.bytes.withUnsafeBufferPointer { end in
            try body(.range(
              start: low.wildcards > 0 ? start : first, end: high.wildcards > 0 ? end : last, wildcardDigits: 0))
          }
        }
      }
      return
    }
    // The separator at an end of the piece, which trimming cut short.
    if !rangeSeparatorBytes.isEmpty {
      if let leading = Self.trimmed(rangeSeparatorBytes, leading: true), piece.starts(with: leading) {
        return try body(.issue("range is missing its start"))
      }
      if let trailing = Self.trimmed(rangeSeparatorBytes, leading: false), piece.reversed().starts(with: trailing.reversed()) {
        return try body(.issue("range is missing its end"))
      }
    }
    guard !wildcardBytes.isEmpty else { return try body(.number(piece)) }
    switch (filled(piece, with: _ASCII.zero), filled(piece, with: _ASCII.nine)) {
    case (.failure(let failure), _), (_, .failure(let failure)):
      try body(.issue(failure.reason))
    case (.success(let low), .success(let high)):
      guard low.wildcards > 0 else { return try body(.number(piece)) }
      counts.wildcardBlocks += 1
      try low.bytes.withUnsafeBufferPointer { start in
        try high.bytes.withUnsafeBufferPointer { end in
          try body(.range(start: start, end: end, wildcardDigits: low.wildcards))
        }
      }
    }
  }

  /// The first and last number of `piece` when it ends in a run of the
  /// wildcard (its wildcards as `0`s, then as `9`s) and how many wildcards
  /// the run holds; nil when it does not, or its wildcards cannot be read.
  package func wildcardBlock(_ piece: UnsafeBufferPointer<UInt8>) -> (low: [UInt8], high: [UInt8], digits: Int)? {
    guard case .success(let low) = filled(piece, with: _ASCII.zero), low.wildcards > 0,
      case .success(let high) = filled(piece, with: _ASCII.nine)
    else { return nil }
    return (low.bytes, high.bytes, low.wildcards)
  }

  /// A number text with its trailing wildcard run, if any.
  private struct Filled {
    /// The text with each wildcard of the run replaced by one digit
    /// (empty when there is no run).
    var bytes: [UInt8]
    /// How many wildcards the run held.
    var wildcards: Int
  }

  /// `text` with each wildcard of its trailing run replaced by `digit`, or
  /// why the wildcards cannot be read.
  private func filled(_ text: UnsafeBufferPointer<UInt8>, with digit: UInt8) -> Result<Filled, _LineFailure> {
    guard !wildcardBytes.isEmpty, let base = text.baseAddress, holdsWildcard(text) else {
      return .success(Filled(bytes: [], wildcards: 0))
    }
    // The run: wildcards and blanks back from the end.
    var runStart = text.count
    var scan = text.count
    var wildcards = 0
    while scan > 0 {
      if let width = wildcardWidth(endingAt: scan, in: base) {
        wildcards += 1
        scan -= width
        runStart = scan
      } else if _isBlank(base[scan - 1]) {
        scan -= 1
      } else {
        break
      }
    }
    // A letter is no wildcard inside a word (`FAX`).
    if wildcards > 0, isLetterWildcard, runStart > 0, _isLetter(base[runStart - 1]) { wildcards = 0 }
    // Elsewhere, the wildcard right after a digit is one that does not end
    // the number (`0621 12X 456`).
    let prefixEnd = wildcards > 0 ? runStart : text.count
    var index = 1
    while index < prefixEnd {
      if _isDigit(base[index - 1]), let width = wildcardWidth(startingAt: index, in: base, end: prefixEnd),
        !isLetterWildcard || index + width >= prefixEnd || !_isLetter(base[index + width])
      {
        return .failure(_LineFailure(reason: "wildcard '\(wildcard ?? "")' must end the number"))
      }
      index += 1
    }
    guard wildcards > 0 else { return .success(Filled(bytes: [], wildcards: 0)) }
    guard (0..<runStart).contains(where: { _isDigit(base[$0]) }) else {
      return .failure(_LineFailure(reason: "wildcard block has no digits before its wildcards"))
    }
    var bytes = Array(UnsafeBufferPointer(start: base, count: runStart))
    var position = runStart
    while position < text.count {
      if let width = wildcardWidth(startingAt: position, in: base, end: text.count) {
        bytes.append(digit)
        position += width
      } else {
        bytes.append(base[position])
        position += 1
      }
    }
    return .success(Filled(bytes: bytes, wildcards: wildcards))
  }

  /// Whether `text` holds the wildcard's first byte anywhere (in either
  /// case for a letter): most numbers do not, and need no more look.
  private func holdsWildcard(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    if isLetterWildcard {
      let folded = wildcardFirst | 0x20
      return text.contains { $0 | 0x20 == folded }
    }
    let first = wildcardFirst
    return text.contains(first)
  }

  /// Whether `text` ends (but for blanks) in the wildcard's last byte:
  /// only then can it end in a run of it.
  package func endsInWildcard(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let last = wildcardBytes.last else { return false }
    var end = text.count
    while end > 0, _isBlank(text[end - 1]) { end -= 1 }
    guard end > 0 else { return false }
    return isLetterWildcard ? text[end - 1] | 0x20 == last | 0x20 : text[end - 1] == last
  }

  /// The wildcard's width when it ends at `end`.
  private func wildcardWidth(endingAt end: Int, in base: UnsafePointer<UInt8>) -> Int? {
    let width = wildcardBytes.count
    guard end >= width else { return nil }
    return matchesWildcard(base + end - width) ? width : nil
  }

  /// The wildcard's width when it starts at `start` (before `end`).
  private func wildcardWidth(startingAt start: Int, in base: UnsafePointer<UInt8>, end: Int) -> Int? {
    let width = wildcardBytes.count
    guard end - start >= width else { return nil }
    return matchesWildcard(base + start) ? width : nil
  }

  private func matchesWildcard(_ p: UnsafePointer<UInt8>) -> Bool {
    if isLetterWildcard { return p[0] | 0x20 == wildcardFirst | 0x20 }
    guard p[0] == wildcardFirst else { return false }
    return wildcardBytes.withUnsafeBufferPointer { bytes in
      for index in 1..<bytes.count where p[index] != bytes[index] { return false }
      return true
    }
  }

  /// `separator` without its leading (or trailing) blanks, when it has
  /// some and something is left.
  private static func trimmed(_ separator: [UInt8], leading: Bool) -> [UInt8]? {
    var bytes = separator[...]
    if leading {
      while let first = bytes.first, _isBlank(first) { bytes = bytes.dropFirst() }
    } else {
      while let last = bytes.last, _isBlank(last) { bytes = bytes.dropLast() }
    }
    return bytes.count < separator.count && !bytes.isEmpty ? Array(bytes) : nil
  }

  /// Where `needle` first occurs in `base[from..<end]`.
  package static func firstOccurrence(of needle: [UInt8], in base: UnsafePointer<UInt8>, _ from: Int, _ end: Int) -> Int? {
    guard let first = needle.first, end - from >= needle.count else { return nil }
    var index = from
    let last = end - needle.count
    while index <= last {
      if base[index] == first {
        var matched = true
        for offset in 1..<needle.count where base[index + offset] != needle[offset] {
          matched = false
          break
        }
        if matched { return index }
      }
      index += 1
    }
    return nil
  }
}

/// Narrows `lower..<upper` past leading and trailing blanks, line breaks
/// and no-break spaces (U+00A0, which spreadsheets write around numbers).
@inline(__always)
package func _trimCell(_ p: UnsafePointer<UInt8>, _ lower: inout Int, _ upper: inout Int) {
  while lower < upper {
    if _isBlank(p[lower]) || p[lower] == _ASCII.lineFeed {
      lower += 1
    } else if upper - lower >= 2, p[lower] == 0xC2, p[lower + 1] == 0xA0 {
      lower += 2
    } else {
      break
    }
  }
  while upper > lower {
    if _isBlank(p[upper - 1]) || p[upper - 1] == _ASCII.lineFeed {
      upper -= 1
    } else if upper - lower >= 2, p[upper - 2] == 0xC2, p[upper - 1] == 0xA0 {
      upper -= 2
    } else {
      break
    }
  }
}
