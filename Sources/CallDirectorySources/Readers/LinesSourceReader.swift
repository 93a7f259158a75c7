/// Reads `lines` sources: one number per line, with comments.
///
/// # Rules
///
/// - Blank and whitespace-only lines are skipped and are not data lines.
/// - `#` starts a comment anywhere on the line
///   (`029034100 # Fake scam` → `029034100`). A line that is only a comment
///   is not a data line.
/// - `//` starts a comment at the start of a line or after whitespace
///   (`+4121… // note`); `http://` style text is not a comment.
/// - A description after a dash surrounded by whitespace
///   (`+359 87 531 2009 - Vivacom Upsell Spam`, also `–` and `—`) is removed
///   **only when the description starts with a letter** (or a quote, or
///   any non-ASCII character), so `555 - 1234` stays intact for the
///   normalizer rather than being cut to `555`, and
///   `02 903 - 6400 - call center` keeps `02 903 - 6400`.
/// - Leading and trailing whitespace around the number is trimmed; inner
///   spaces, dashes and parentheses are kept for the normalizer.
///
/// # Issues (the line is rejected, never silently cut short)
///
/// - `#` right after a digit (`+4121560####`), or a comment made only of two
///   or more `#` (`+41 21 560 ####`): these are wildcards, which need the
///   `patterns` format; dropping them would block a different number.
/// - A tab inside the number: labels need the `tsv` format.
/// - Invalid UTF-8 in the number part (bytes inside a comment are ignored).
/// - A line longer than 1 MiB.
/// - With ``cells``: a piece of the line the rules cannot read (see
///   ``CellRules``), one issue per piece.
public struct LinesSourceReader: SourceReader {
  /// Where the bytes come from.
  public var input: SourceInput
  /// How a line's number may hold several numbers, a wildcard block or a
  /// range (`numberSeparator`, `wildcard`, `rangeSeparator`): each is a
  /// record of the line. The line's rules above apply first (a `#` still
  /// starts a comment).
  public var cells: CellRules
  package var _chunkSize = _defaultChunkSize

  /// Creates a reader.
  public init(input: SourceInput, cells: CellRules = .none) {
    self.input = input
    self.cells = cells
  }

  /// Splits one line; see the rules above.
  package static func _parseLine(_ p: UnsafePointer<UInt8>, _ count: Int) -> _LineOutcome {
    _parseLinesLine(p, count)
  }
}

/// Splits one `lines` line (without its line ending); see
/// ``LinesSourceReader`` for the rules.
@inline(__always)
func _parseLinesLine(_ p: UnsafePointer<UInt8>, _ count: Int) -> _LineOutcome {
  if count <= _PlainNumberLine.maximumBytes, let record = _PlainNumberLine.record(p, count) { return record }
  return _parseLinesLineByRules(p, count)
}

/// ``_parseLinesLine(_:_:)`` without its shortcut for plain number lines.
@inline(__always)
func _parseLinesLineByRules(_ p: UnsafePointer<UInt8>, _ count: Int) -> _LineOutcome {
  var index = 0
  var cut = count
  var sawHigh = false
  // A hyphen after whitespace: only such a dash can start a description.
  var sawSpacedDash = false
  var sawTab = false
  let kinds = _LineByte.kinds
  scan: while index < count {
    let byte = p[index]
    switch kinds[Int(byte)] {
    case .plain:
      break
    case .hash:
      cut = index
      break scan
    case .slash:
      if index + 1 < count, p[index + 1] == _ASCII.slash, index == 0 || _isBlank(p[index - 1]) {
        cut = index
        break scan
      }
    case .high:
      sawHigh = true
    case .hyphen:
      if index > 0, _isBlank(p[index - 1]) { sawSpacedDash = true }
    case .tab:
      sawTab = true
    }
    index += 1
  }
  var lower = 0
  var upper = cut
  _trim(p, &lower, &upper)
  if lower == upper { return .skip }
  if cut < count, p[cut] == _ASCII.hash {
    if _isDigit(p[cut - 1]) || p[cut - 1] == _ASCII.plus {
      return .issue(
        "'#' wildcard in 'lines' format (use format 'patterns', "
          + "or put a space before the comment)")
    }
    if _isDetachedWildcard(p, from: cut, to: count) {
      return .issue(
        "'#' wildcards in 'lines' format (use format 'patterns')")
    }
  }
  if sawSpacedDash || sawHigh {
    if let dash = _descriptionDash(p, lower, upper) {
      upper = dash
      _trim(p, &lower, &upper)
      if lower == upper { return .skip }
    }
  }
  if sawTab {
    var scan = lower
    while scan < upper {
      if p[scan] == _ASCII.tab {
        return .issue(
          "tab inside number (labelled lists need format 'tsv')")
      }
      scan += 1
    }
  }
  if sawHigh, !_isValidUTF8(p + lower, upper - lower) {
    return .issue("invalid utf-8")
  }
  return .record(lower, upper)
}

/// The index of the first ` - `, ` – ` or ` — ` that starts a description:
/// the dash must be surrounded by whitespace and the first character after
/// it must be a letter, a quote or non-ASCII.
private func _descriptionDash(
  _ p: UnsafePointer<UInt8>, _ lower: Int, _ upper: Int
) -> Int? {
  var index = lower + 1
  while index < upper {
    var dashLength = 0
    if p[index] == _ASCII.hyphen {
      dashLength = 1
    } else if p[index] == 0xE2, index + 2 < upper, p[index + 1] == 0x80,
      p[index + 2] == 0x93 || p[index + 2] == 0x94
    {
      dashLength = 3
    }
    if dashLength > 0, _isBlank(p[index - 1]),
      index + dashLength < upper, _isBlank(p[index + dashLength])
    {
      var tail = index + dashLength
      while tail < upper, _isBlank(p[tail]) { tail += 1 }
      if tail < upper,
        _isLetter(p[tail]) || p[tail] >= 0x80
          || p[tail] == _ASCII.quote
      {
        return index
      }
    }
    index += max(dashLength, 1)
  }
  return nil
}

/// What the `lines` parser looks for in a byte, by table.
enum _LineByte: UInt8 {
  case plain, hash, slash, high, hyphen, tab

  /// The kind of every byte value, in memory kept for the life of the
  /// process: the parser reads the pointer once per line (a global array
  /// would cost an initialization check per byte, or a retain per line).
  nonisolated(unsafe) static let kinds: UnsafePointer<_LineByte> = {
    let table = UnsafeMutablePointer<_LineByte>.allocate(capacity: 256)
    for byte in 0..<256 {
      table[byte] =
        switch UInt8(byte) {
        case _ASCII.hash: .hash
        case _ASCII.slash: .slash
        case _ASCII.hyphen: .hyphen
        case _ASCII.tab: .tab
        case 0x80...: .high
        default: .plain
        }
    }
    return UnsafePointer(table)
  }()
}

/// The line most lists hold besides bare E.164: a number written with
/// digits, `+`, spaces, parentheses and hyphens only (`(212) 555-1234`,
/// `+1 212 555 1234`). None of those bytes starts a comment, a wildcard, a
/// tab or a description (a dash starts one only before a letter), so the
/// rules above keep the line without its outer spaces; one pass of table
/// lookups tells such a line.
enum _PlainNumberLine {
  /// Longer lines take the full rules.
  static let maximumBytes = 24

  /// The line's outcome when it is such a line, else nil.
  @inline(__always)
  static func record(_ p: UnsafePointer<UInt8>, _ count: Int) -> _LineOutcome? {
    let kinds = self.kinds
    var others: UInt8 = 0
    for index in 0..<count { others |= kinds[Int(p[index])] }
    guard others == 0 else { return nil }
    var lower = 0
    var upper = count
    _trim(p, &lower, &upper)
    return lower == upper ? .skip : .record(lower, upper)
  }

  /// 0 for digits, `+`, `(`, `)`, `-` and space, 1 for every other byte.
  private nonisolated(unsafe) static let kinds: UnsafePointer<UInt8> = {
    let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    for byte in 0..<256 {
      switch UInt8(byte) {
      case _ASCII.zero..._ASCII.nine, _ASCII.plus, _ASCII.space, 0x28, 0x29, _ASCII.hyphen: table[byte] = 0
      default: table[byte] = 1
      }
    }
    return UnsafePointer(table)
  }()
}
