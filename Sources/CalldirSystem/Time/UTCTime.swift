#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Wall-clock time as calldir records it: whole seconds since 1970, UTC,
/// written as ISO 8601 (`2026-11-29T13:45:00Z`).
///
/// The one grammar of a time stamp, for every writer and reader (the
/// build's `published` and `expires`, a device checking them, the
/// catalog): `YYYY-MM-DDTHH:MM:SSZ`, twenty characters, a four-digit year
/// from 0001 to 9999 and a day that exists (``CalendarDay``), hours 00–23,
/// minutes and seconds 00–59. Only the times from ``earliest`` to
/// ``latest`` can be written in it; a writer checks with
/// ``isRepresentable(_:)`` (or uses ``checkedISO8601(_:)``) before it signs
/// one, so that what it writes is always what a reader accepts.
public enum UTCTime {
  /// 0001-01-01T00:00:00Z, the earliest time the grammar can write.
  public static let earliest: Int64 = -62_135_596_800
  /// 9999-12-31T23:59:59Z, the latest time the grammar can write.
  public static let latest: Int64 = 253_402_300_799

  /// Seconds since 1970 now.
  public static func now() -> Int64 {
    Int64(time(nil))
  }

  /// Whether `seconds` can be written in the grammar (its year has four digits).
  public static func isRepresentable(_ seconds: Int64) -> Bool {
    (earliest...latest).contains(seconds)
  }

  /// `YYYY-MM-DDTHH:MM:SSZ` for `seconds` since 1970, nil when its year
  /// is not 0001...9999 (``isRepresentable(_:)``).
  public static func checkedISO8601(_ seconds: Int64) -> String? {
    isRepresentable(seconds) ? iso8601(seconds) : nil
  }

  /// `YYYY-MM-DDTHH:MM:SSZ` for `seconds` since 1970. A time outside
  /// ``earliest``...``latest`` (never one calldir signs) is written with
  /// the year it has, which no reader accepts.
  public static func iso8601(_ seconds: Int64) -> String {
    let (days, second) = floorDivision(seconds, 86_400)
    let day = CalendarDay(daysSince1970: Int32(clamping: days))
    func two(_ number: Int64) -> String { number < 10 ? "0\(number)" : "\(number)" }
    return "\(day.iso8601)T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))Z"
  }

  /// The seconds since 1970 of a time in the grammar (see the type), or
  /// of a date `YYYY-MM-DD` (its midnight); nil for anything else.
  public static func parse(_ text: String) -> Int64? {
    let bytes = Array(text.utf8)
    guard bytes.count == 10 || bytes.count == 20, let day = CalendarDay(iso8601: String(decoding: bytes[0..<10], as: UTF8.self))
    else { return nil }
    let midnight = Int64(day.daysSince1970) * 86_400
    guard bytes.count == 20 else { return midnight }
    func number(_ range: Range<Int>) -> Int64? {
      var value: Int64 = 0
      for byte in bytes[range] {
        guard byte >= 0x30 && byte <= 0x39 else { return nil }
        value = value * 10 + Int64(byte - 0x30)
      }
      return value
    }
    guard bytes[10] == 0x54, bytes[13] == 0x3A, bytes[16] == 0x3A, bytes[19] == 0x5A,
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      hour < 24, minute < 60, second < 60
    else { return nil }
    return midnight + hour * 3600 + minute * 60 + second
  }

  /// The seconds since 1970 of a time stamp in the grammar only (twenty
  /// characters, not a bare date); nil for anything else.
  public static func parseTimestamp(_ text: String) -> Int64? {
    text.utf8.count == 20 ? parse(text) : nil
  }

  /// `value / divisor` rounded down, and the remainder (never negative).
  private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
    let quotient = value / divisor
    let remainder = value % divisor
    return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
  }
}
