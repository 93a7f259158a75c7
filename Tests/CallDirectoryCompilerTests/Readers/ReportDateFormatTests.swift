import CalldirSystem
import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectorySources

@Suite struct ReportDateFormatTests {
  @Test(arguments: [
    (ReportDateFormat.iso, "2024-02-01", "2024-02-01"),
    (.iso, "2024-02-01 10:12:00", "2024-02-01"),
    (.iso, "2024-02-01T10:12:00.000", "2024-02-01"),
    (.iso, "2024/02/01", "2024-02-01"),
    (.iso, "2024-2-1", "2024-02-01"),
    (.monthFirst, "02/01/2024", "2024-02-01"),
    (.monthFirst, "2/1/2024 9:15 AM", "2024-02-01"),
    (.monthFirst, "2024-02-01", "2024-02-01"),
    (.dayFirst, "02/01/2024", "2024-01-02"),
    (.dayFirst, "10/06/2024", "2024-06-10"),
    (.dayFirst, "31.12.2023", "2023-12-31"),
  ])
  func datesAreRead(format: ReportDateFormat, text: String, expected: String) {
    #expect(format.day(of: text)?.iso8601 == expected)
  }

  @Test(arguments: [
    (ReportDateFormat.iso, "02/01/2024"), (.iso, "2024-02-30"), (.iso, "yesterday"), (.iso, "2024-02"),
    (.iso, "2024-02-01x"), (.monthFirst, "13/01/2024"), (.monthFirst, "02/01/24"), (.dayFirst, "32/01/2024"),
    (.dayFirst, "01/02-2024"), (.iso, "2024.02.01"), (.iso, "123456-01-01"), (.iso, ""),
  ])
  func otherTextIsNotADate(format: ReportDateFormat, text: String) {
    #expect(format.day(of: text) == nil)
  }
}
