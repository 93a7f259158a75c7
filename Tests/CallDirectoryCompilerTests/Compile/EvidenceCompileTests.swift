import CalldirSystem
import Foundation
import Testing

@testable import CallDirectoryCompiler

/// Complaint feeds through the compiler: `minReports`, `dateColumn` with
/// `maxAgeDays` and `--as-of`, `labelPolicy`, and the counts they report.
@Suite struct EvidenceCompileTests {
  let asOf = CalendarDay(year: 2024, month: 3, day: 31)!

  func compile(_ csv: String, _ keys: String, list: String = "block") throws -> (CompiledSnapshot, [String]) {
    let workspace = try Workspace()
    try workspace.write("reports.csv", csv)
    try workspace.config([#"{"path": "reports.csv", "format": "csv", "list": "\#(list)", \#(keys)}"#])
    return try workspace.compile(asOf: asOf)
  }

  let reports = """
    number,date,topic
    2125550101,2024-03-30,Debt
    2125550101,2024-03-01,Debt
    2125550101,2024-01-01,Imposters
    2125550102,2024-03-31,Debt
    2125550103,2023-01-01,Debt
    2125550103,2023-01-02,Debt
    2125550104,2024-04-01,Debt
    2125550105,2024-03-01,Imposters
    2125550105,2024-03-02,Imposters

    """

  @Test func minReportsKeepsNumbersReportedOftenEnough() throws {
    let (snapshot, rejects) = try compile(reports, #""number": "number", "minReports": 2"#)
    #expect(rejects.isEmpty)
    // 2125550104 is dated after --as-of, so only 0101 (3), 0103 (2) and 0105 (2) remain.
    #expect(snapshot.blockingNumbers == [12_125_550_101, 12_125_550_103, 12_125_550_105])
  }

  @Test func maxAgeDaysCountsOnlyReportsInsideTheWindow() throws {
    let (snapshot, _) = try compile(reports, #""number": "number", "dateColumn": "date", "maxAgeDays": 30"#)
    // The window is 2024-03-01 ... 2024-03-31, both ends included.
    #expect(snapshot.blockingNumbers == [12_125_550_101, 12_125_550_102, 12_125_550_105])
    let counts = try #require(snapshot.sources.first?.evidence)
    #expect(counts.numbers == 5)
    #expect(counts.reports == 9)
    #expect(counts.reportsTooOld == 3)
    #expect(counts.reportsAfterAsOf == 1)
    #expect(counts.kept == 3)
    #expect(counts.droppedByDate == 2)
    #expect(counts.droppedByMinReports == 0)
  }

  @Test func bothRulesTogetherReportWhatEachDropped() throws {
    let (snapshot, _) = try compile(
      reports, #""number": "number", "dateColumn": "date", "maxAgeDays": 30, "minReports": 2"#)
    #expect(snapshot.blockingNumbers == [12_125_550_101, 12_125_550_105])
    let counts = try #require(snapshot.sources.first?.evidence)
    #expect(counts.droppedByDate == 2)
    #expect(counts.droppedByMinReports == 1)
  }

  @Test func mostFrequentLabelWinsAndTiesGoToTheEarliest() throws {
    let csv = """
      number,date,topic
      2125550101,2024-03-03,Imposters
      2125550101,2024-03-01,Debt
      2125550101,2024-03-02,Imposters
      2125550102,2024-03-05,Warranty
      2125550102,2024-03-04,Debt
      2125550103,2024-03-05,Debt
      2125550103,2020-03-04,Warranty

      """
    let keys = #""number": "number", "label": "topic", "dateColumn": "date", "maxAgeDays": 365"#
    let (mostFrequent, _) = try compile(csv, keys + #", "labelPolicy": "mostFrequent""#, list: "identify")
    #expect(mostFrequent.identificationPairs == [
      "12125550101=Imposters", "12125550102=Debt", "12125550103=Debt",
    ])
    let (first, _) = try compile(csv, keys, list: "identify")
    #expect(first.identificationPairs == ["12125550101=Imposters", "12125550102=Warranty", "12125550103=Debt"])
  }

  @Test func aRowGivingOneNumberTwiceIsOneReport() throws {
    let csv = """
      caller,advertiser,date
      2125550101,2125550101,2024-03-30
      2125550102,,2024-03-30
      ,2125550102,2024-03-30
      2125550103,2125550104,2024-03-30

      """
    let (snapshot, rejects) = try compile(
      csv, #""number": ["caller", "advertiser"], "dateColumn": "date", "minReports": 2"#)
    #expect(rejects.isEmpty)
    #expect(snapshot.blockingNumbers == [12_125_550_102])
    #expect(snapshot.sources.first?.evidence?.reports == 5)
  }

  @Test func undatedOrUnreadableDatesAreRejectedRows() throws {
    let csv = "number,date\n2125550101,\n2125550102,03/30/2024\n2125550103,2024-02-30\n2125550104,2024-03-30\n"
    let (snapshot, rejects) = try compile(csv, #""number": "number", "dateColumn": "date""#)
    #expect(snapshot.blockingNumbers == [12_125_550_104])
    #expect(rejects.count == 3)
    #expect(rejects[0].contains("reports.csv:2: empty date in column 'date'"))
    #expect(rejects[1].contains("reports.csv:3: date in column 'date' is not YYYY-MM-DD"))
    #expect(rejects[1].hasSuffix("2125550102,03/30/2024"))
    #expect(rejects[2].contains("reports.csv:4: date in column 'date' is not YYYY-MM-DD"))
    let (us, usRejects) = try compile(
      csv, #""number": "number", "dateColumn": "date", "dateFormat": "MM/DD/YYYY""#)
    #expect(us.blockingNumbers == [12_125_550_102, 12_125_550_104])
    #expect(usRejects.count == 2)
  }

  @Test func theSameInputsAndAsOfGiveTheSameSnapshot() throws {
    let keys = #""number": "number", "dateColumn": "date", "maxAgeDays": 30"#
    let (one, _) = try compile(reports, keys)
    let (two, _) = try compile(reports, keys)
    #expect(one.blockingNumbers == two.blockingNumbers)
    #expect(one.sources.first?.evidence == two.sources.first?.evidence)
  }
}
