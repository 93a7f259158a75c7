import CalldirSystem

/// How a delimited source writes the dates of its `dateColumn`.
///
/// ISO dates (`2024-02-01`, also `2024/02/01`) are always understood,
/// followed or not by a time (`2024-02-01 10:12:00`, `2024-02-01T10:12`);
/// dates that start with the day or the month need the order spelled out,
/// since `02/01/2024` is February 1 in the US and January 2 in France:
///
///     ReportDateFormat.monthFirst.day(of: "02/01/2024")   // 2024-02-01
///     ReportDateFormat.dayFirst.day(of: "02/01/2024")     // 2024-01-02
///     ReportDateFormat.iso.day(of: "02/01/2024")          // nil
public enum ReportDateFormat: String, Sendable, Hashable, CaseIterable {
  /// `YYYY-MM-DD` only (the default).
  case iso = "YYYY-MM-DD"
  /// `MM/DD/YYYY` (US agencies: FTC, FCC), and ISO.
  case monthFirst = "MM/DD/YYYY"
  /// `DD/MM/YYYY` (ARCEP and most of Europe; also `DD.MM.YYYY`), and ISO.
  case dayFirst = "DD/MM/YYYY"

  /// The day a field's text gives, nil when it is not a date of this
  /// format. Whatever follows the date after a space or `T` (a time) is
  /// ignored.
  public func day(of text: UnsafeBufferPointer<UInt8>) -> CalendarDay? {
    var parts: [Int] = []
    var separators: [UInt8] = []
    var widths: [Int] = []
    var index = 0
    while index < text.count, parts.count < 3 {
      var value = 0
      var width = 0
      while index < text.count, text[index] >= 0x30, text[index] <= 0x39, width < 5 {
        value = value * 10 + Int(text[index] - 0x30)
        width += 1
        index += 1
      }
      guard width > 0 else { return nil }
      parts.append(value)
      widths.append(width)
      if parts.count < 3 {
        guard index < text.count, [0x2D, 0x2F, 0x2E].contains(text[index]) else { return nil }
        separators.append(text[index])
        index += 1
      }
    }
    guard parts.count == 3, separators[0] == separators[1] else { return nil }
    if index < text.count {
      guard text[index] == 0x20 || text[index] == 0x54 else { return nil }
    }
    if widths[0] == 4, widths[1] <= 2, widths[2] <= 2, separators[0] != 0x2E {
      return CalendarDay(year: parts[0], month: parts[1], day: parts[2])
    }
    guard widths[2] == 4, widths[0] <= 2, widths[1] <= 2 else { return nil }
    switch self {
    case .iso: return nil
    case .monthFirst: return CalendarDay(year: parts[2], month: parts[0], day: parts[1])
    case .dayFirst: return CalendarDay(year: parts[2], month: parts[1], day: parts[0])
    }
  }

  /// ``day(of:)`` for a string.
  public func day(of text: String) -> CalendarDay? {
    var copy = text
    return copy.withUTF8 { day(of: $0) }
  }
}
