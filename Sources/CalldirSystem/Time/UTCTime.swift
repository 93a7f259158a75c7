#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Wall-clock time as calldir records it: whole seconds since 1970, UTC,
/// written as ISO 8601 (`2026-11-29T13:45:00Z`).
public enum UTCTime {
  /// Seconds since 1970 now.
  public static func now() -> Int64 {
    Int64(time(nil))
  }

  /// `YYYY-MM-DDTHH:MM:SSZ` for `seconds` since 1970.
  public static func iso8601(_ seconds: Int64) -> String {
    var value = time_t(seconds)
    var parts = tm()
    gmtime_r(&value, &parts)
    func two(_ number: Int32) -> String { number < 10 ? "0\(number)" : "\(number)" }
    let year = Int(parts.tm_year) + 1900
    let yearText = year < 1000 ? String(repeating: "0", count: 4 - String(year).count) + String(year) : String(year)
    return "\(yearText)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
  }

  /// The seconds since 1970 of an ISO 8601 UTC time as ``iso8601(_:)``
  /// writes it, or of a date `YYYY-MM-DD` (midnight); nil otherwise.
  public static func parse(_ text: String) -> Int64? {
    let bytes = Array(text.utf8)
    func number(_ range: Range<Int>) -> Int32? {
      guard range.upperBound <= bytes.count else { return nil }
      var value: Int32 = 0
      for byte in bytes[range] {
        guard byte >= 0x30 && byte <= 0x39 else { return nil }
        value = value * 10 + Int32(byte - 0x30)
      }
      return value
    }
    guard bytes.count == 10 || bytes.count == 20, bytes[4] == 0x2D, bytes[7] == 0x2D,
      let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      (1...12).contains(month), (1...31).contains(day)
    else { return nil }
    var parts = tm()
    parts.tm_year = year - 1900
    parts.tm_mon = month - 1
    parts.tm_mday = day
    if bytes.count == 20 {
      guard bytes[10] == 0x54, bytes[13] == 0x3A, bytes[16] == 0x3A, bytes[19] == 0x5A,
        let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
        hour < 24, minute < 60, second < 61
      else { return nil }
      parts.tm_hour = hour
      parts.tm_min = minute
      parts.tm_sec = second
    }
    let seconds = Int64(timegm(&parts))
    // timegm normalizes out-of-range days (February 30): refuse them.
    guard iso8601(seconds).prefix(10) == text.prefix(10) else { return nil }
    return seconds
  }
}
