import Testing

@testable import CalldirSystem

@Suite struct CalendarDayTests {
  @Test func daysCountFrom1970() {
    #expect(CalendarDay(year: 1970, month: 1, day: 1)?.daysSince1970 == 0)
    #expect(CalendarDay(year: 1969, month: 12, day: 31)?.daysSince1970 == -1)
    #expect(CalendarDay(year: 2000, month: 3, day: 1)?.daysSince1970 == 11_017)
    #expect(CalendarDay(year: 2024, month: 2, day: 29)?.iso8601 == "2024-02-29")
  }

  @Test func everyDayRoundTrips() {
    for days in Int32(-719_162)...Int32(2_932_896) where days % 997 == 0 || (-2...2).contains(days) {
      let day = CalendarDay(daysSince1970: days)
      let (year, month, dayOfMonth) = day.components
      #expect(CalendarDay(year: year, month: month, day: dayOfMonth) == day)
      #expect(CalendarDay(iso8601: day.iso8601) == day)
    }
  }

  @Test(arguments: ["2023-02-29", "1900-02-29", "2024-13-01", "2024-00-10", "2024-04-31", "2024-4-01", "24-04-01", "0000-01-01", ""])
  func impossibleDatesAreNil(text: String) {
    #expect(CalendarDay(iso8601: text) == nil)
  }

  @Test func leapYears() {
    #expect(CalendarDay(iso8601: "2000-02-29") != nil)
    #expect(CalendarDay(iso8601: "2400-02-29") != nil)
    #expect(CalendarDay(iso8601: "2100-02-29") == nil)
  }
}
