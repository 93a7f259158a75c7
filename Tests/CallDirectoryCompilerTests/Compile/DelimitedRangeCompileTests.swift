import Foundation
import Testing

@testable import CallDirectoryCompiler

/// Range rows (`rangeStart`/`rangeEnd`), `where` and `regionColumn` through
/// the compiler.
@Suite struct DelimitedRangeCompileTests {
  func compile(
    _ csv: String, _ keys: String, region: String = "FR", extra: String = ""
  ) throws -> (CompiledSnapshot, [String]) {
    let workspace = try Workspace()
    try workspace.write("ranges.csv", csv)
    try workspace.config(
      [#"{"path": "ranges.csv", "format": "csv", "list": "block", "region": "\#(region)", \#(keys)}"#],
      extra: extra)
    return try workspace.compile()
  }

  let rangeKeys = #""rangeStart": "from", "rangeEnd": "to""#

  @Test func rangesAreExactEvenWhenNotAlignedToAPowerOfTen() throws {
    let (snapshot, rejects) = try compile(
      "from,to\n0590100005,0590100017\n+33 1 00 00 00 00,0100000000\n", rangeKeys)
    #expect(rejects.isEmpty)
    #expect(snapshot.blockingNumbers == [33_100_000_000] + Array(Int64(33_590_100_005)...33_590_100_017))
    // The range reached the compiler as one range, not as 13 numbers.
    #expect(snapshot.blocking.inMemory?.ranges.contains(33_590_100_005...33_590_100_017) == true)
    #expect(snapshot.sources.first?.accepted == 2)
  }

  @Test func aLargeRangeIsNeverExpandedNumberByNumber() throws {
    let (snapshot, rejects) = try compile("from,to\n0600000000,0699999999\n", rangeKeys)
    #expect(rejects.isEmpty)
    #expect(snapshot.blocking.inMemory?.ranges == [33_600_000_000...33_699_999_999])
    #expect(snapshot.blocking.inMemory?.singles.isEmpty == true)
    #expect(snapshot.statistics.blocking == 100_000_000)
  }

  @Test func badRangeRowsAreRejectedWithTheirReason() throws {
    let csv = """
      from,to
      0612345678,+44 20 7946 0000
      0612345678,+33 6 12 34 56 789
      0612345679,0612345678
      hello,0612345678
      0612345678,not a number
      0612345670,0612345679

      """
    let (snapshot, rejects) = try compile(csv, rangeKeys)
    #expect(snapshot.blockingNumbers == Array(Int64(33_612_345_670)...33_612_345_679))
    #expect(rejects.count == 5)
    #expect(rejects[0].contains("ranges.csv:2: range start and end have different calling codes (+33 and +44)"))
    #expect(rejects[1].contains("ranges.csv:3: range end: too long"))
    #expect(rejects[2].contains("ranges.csv:4: range start +33612345679 is greater than range end +33612345678"))
    #expect(rejects[3].contains("ranges.csv:5: range start:"))
    #expect(rejects[4].contains("ranges.csv:6: range end:"))
  }

  @Test func endsOfDifferentLengthsOnOneCallingCodeAreRejected() throws {
    // Both are possible German numbers, of different lengths.
    let (snapshot, rejects) = try compile("from,to\n030 1234567,030 12345678\n", rangeKeys, region: "DE")
    #expect(snapshot.blockingNumbers.isEmpty)
    #expect(rejects.count == 1)
    #expect(rejects.first?.contains("ranges.csv:2: range start and end have different lengths (11 and 12 digits)") == true, "\(rejects)")
  }

  @Test func anEqualStartAndEndIsOneNumber() throws {
    let (snapshot, rejects) = try compile("from,to\n0612345678,+33612345678\n", rangeKeys)
    #expect(rejects.isEmpty)
    #expect(snapshot.blockingNumbers == [33_612_345_678])
  }

  @Test func maxRangeSizeStillApplies() throws {
    let (snapshot, rejects) = try compile(
      "from,to\n0612345600,0612345699\n0612345700,0612345709\n", rangeKeys, extra: #""maxRangeSize": 10,"#)
    #expect(snapshot.blockingNumbers == Array(Int64(33_612_345_700)...33_612_345_709))
    #expect(rejects.count == 1)
    #expect(rejects.first?.contains("ranges.csv:2: range of 100 numbers is larger than maxRangeSize 10") == true)
  }

  @Test func whereFiltersAreNotRejects() throws {
    let (snapshot, rejects) = try compile(
      "n,op\n0612345678,ORAN\n0612345679,SFR0\nnot a number,SFR0\n", #""number": "n", "where": {"op": ["ORAN"]}"#)
    #expect(rejects.isEmpty)
    #expect(snapshot.blockingNumbers == [33_612_345_678])
    let report = try #require(snapshot.sources.first)
    #expect(report.summary.filtered == 2)
    #expect(report.summary.dataLines == 1)
    #expect(report.rejected == 0)
  }

  @Test func regionColumnReadsEachRowInItsRegion() throws {
    let csv = "from,to,t\n0690100000,0690100009,Guadeloupe\n0612345678,0612345678,Metropole\n0612345678,0612345679,Mars\n"
    let (snapshot, rejects) = try compile(
      csv, rangeKeys + #", "regionColumn": "t", "regions": {"Guadeloupe": "GP", "Metropole": "FR"}"#)
    #expect(snapshot.blockingNumbers == [33_612_345_678] + Array(Int64(590_690_100_000)...590_690_100_009))
    #expect(rejects.count == 1)
    #expect(rejects.first?.contains("ranges.csv:4: region column 't' value 'Mars' is not in regions") == true)
  }

  @Test func aRegionTheNumberingPlanLacksIsAnError() throws {
    #expect(throws: CompileError.self) {
      try compile("n,t\n0612345678,x\n", #""number": "n", "regionColumn": "t", "regions": {"x": "QQ"}"#)
    }
  }
}
