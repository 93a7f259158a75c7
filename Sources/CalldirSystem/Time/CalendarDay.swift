/// A day of the proleptic Gregorian calendar, counted from 1970-01-01 (day
/// 0), with no time zone: the reference date of a build (`--as-of`) and the
/// dates of complaint reports.
///
///     CalendarDay(year: 2024, month: 2, day: 29)?.iso8601   // "2024-02-29"
///     CalendarDay(iso8601: "2024-02-30")                      // nil
public struct CalendarDay: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// Days since 1970-01-01 (negative before).
  public let daysSince1970: Int32

  /// The day `daysSince1970` days after 1970-01-01.
  public init(daysSince1970: Int32) {
    self.daysSince1970 = daysSince1970
  }

  /// The day, or nil when the date does not exist (February 30, month 13)
  /// or the year is outside 1...9999.
  public init?(year: Int, month: Int, day: Int) {
    guard (1...9999).contains(year), (1...12).contains(month), day >= 1,
      day <= Self.daysIn(month: month, year: year)
    else { return nil }
    // Days from civil (Howard Hinnant's algorithm), March-based years.
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = shiftedYear / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    daysSince1970 = Int32(era * 146_097 + dayOfEra - 719_468)
  }

  /// The day written `YYYY-MM-DD`, nil for anything else.
  public init?(iso8601 text: String) {
    let bytes = Array(text.utf8)
    guard bytes.count == 10, bytes[4] == 0x2D, bytes[7] == 0x2D,
      let year = Self.number(bytes[0..<4]), let month = Self.number(bytes[5..<7]),
      let day = Self.number(bytes[8..<10])
    else { return nil }
    self.init(year: year, month: month, day: day)
  }

  /// Today in UTC.
  public static func today() -> CalendarDay {
    CalendarDay(daysSince1970: Int32(clamping: UTCTime.now() / 86_400))
  }

  /// The year, month and day.
  public var components: (year: Int, month: Int, day: Int) {
    // Civil from days (Howard Hinnant's algorithm).
    let shifted = Int(daysSince1970) + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// `YYYY-MM-DD`.
  public var iso8601: String {
    let (year, month, day) = components
    func padded(_ value: Int, _ width: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
  }

  public var description: String { iso8601 }

  /// The day `count` days later (earlier when negative).
  public func adding(days count: Int32) -> CalendarDay {
    CalendarDay(daysSince1970: daysSince1970 &+ count)
  }

  public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
    lhs.daysSince1970 < rhs.daysSince1970
  }

  /// Days in `month` of `year` (February 29 in leap years).
  public static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
    var value = 0
    for byte in digits {
      guard byte >= 0x30 && byte <= 0x39 else { return nil }
      value = value * 10 + Int(byte - 0x30)
    }
    return value
  }
}
