import Foundation
import Testing

@testable import PhoneNumbers

@Suite struct NumberingPlanTests {
  let plan = NumberingPlan.standard

  @Test func coversEveryRegionAndNonGeographicCode() {
    #expect(plan.regionCodes.count == 245)
    for code in [800, 808, 870, 878, 881, 882, 883, 888, 979] {
      #expect(plan.mainRegion(forCallingCode: code)?.regionCode == "001")
    }
    #expect(plan.callingCodes.count == 215)
  }

  @Test(arguments: [(1, "US"), (7, "RU"), (39, "IT"), (44, "GB"), (47, "NO"), (61, "AU"), (262, "RE"), (590, "GP"), (599, "CW")])
  func sharedCodesHaveTheirMainRegion(code: Int, main: String) {
    #expect(plan.mainRegion(forCallingCode: code)?.regionCode == main)
  }

  @Test func regionCodesAreCaseSensitive() {
    #expect(plan.region("GB") != nil)
    #expect(plan.region("gb") == nil)
    #expect(plan.region("ZZ") == nil)
    #expect(plan.region("001") == nil)
  }

  @Test func embeddedTableEqualsTheCommittedDataFile() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let committed = try String(contentsOf: root.appendingPathComponent("data/numbering-plan.tsv"), encoding: .utf8)
    #expect(committed == NumberingPlan.embeddedTable)
    let types = try String(contentsOf: root.appendingPathComponent("data/number-types.tsv"), encoding: .utf8)
    #expect(types == NumberingPlan.embeddedTypesTable)
  }

  @Test func rejectsBrokenTypesTables() {
    let header = NumberingPlan.columns.joined(separator: "\t")
    let table = header + "\nXA\t999\t1\t00\t0\t0\t\t6\t\t\\d{6}\t0\t\t0\n"
    let typesHeader = NumberingPlan.typeColumns.joined(separator: "\t")
    for types in [
      "region\tcc\n",
      typesHeader + "\nXB\t999\tmobile\t6\t\\d{6}\n",
      typesHeader + "\nXA\t999\tcell\t6\t\\d{6}\n",
      typesHeader + "\nXA\t999\tunknown\t6\t\\d{6}\n",
      typesHeader + "\nXA\t999\tmobile\t6\t[1-\n",
      typesHeader + "\nXA\t999\tmobile\t6\t\\d{6}\nXA\t999\tmobile\t6\t\\d{6}\n",
    ] {
      #expect(throws: NumberingPlanError.self) { try NumberingPlan(table: table, typesTable: types) }
    }
  }

  @Test func minimalTableWithTypesClassifies() throws {
    let header = NumberingPlan.columns.joined(separator: "\t")
    let typesHeader = NumberingPlan.typeColumns.joined(separator: "\t")
    let plan = try NumberingPlan(
      table: header + "\nXA\t999\t1\t00\t0\t0\t\t6,7\t\t\\d{6,7}\t0\t\t0\n",
      typesTable: typesHeader + "\nXA\t999\tmobile\t6\t7\\d{5}\nXA\t999\ttollFree\t\t80\\d{4,5}\n")
    #expect(plan.validity(of: 999_712_345) == NumberValidity(type: .mobile, regionCode: "XA"))
    #expect(plan.validity(of: 999_7_123_456)?.isValid == false)  // 7 digits: not a mobile length
    #expect(plan.numberType(of: 999_801_2345) == .tollFree)
    #expect(plan.numberType(of: 999_612_345) == .unknown)
    #expect(plan.validity(of: 12_345) == nil)
    // Without a types table nothing is valid.
    let bare = try NumberingPlan(table: header + "\nXA\t999\t1\t00\t0\t0\t\t6\t\t\\d{6}\t0\t\t0\n")
    #expect(bare.validity(of: 999_712_345)?.isValid == false)
  }

  @Test func rejectsBrokenTables() {
    let header = NumberingPlan.columns.joined(separator: "\t")
    #expect(throws: NumberingPlanError.self) { try NumberingPlan(table: "") }
    #expect(throws: NumberingPlanError.self) { try NumberingPlan(table: "region\tcc\n") }
    #expect(throws: NumberingPlanError.self) {
      try NumberingPlan(table: header + "\nGB\t44\t1\t00\t0\t0\t\t10\t\t[1-9\t0\t\t0\n")
    }
    #expect(throws: NumberingPlanError.self) {
      try NumberingPlan(table: header + "\nGB\t44\t0\t00\t0\t0\t\t10\t\t\\d{10}\t1\t\t0\n")
    }
    #expect(throws: NumberingPlanError.self) {
      try NumberingPlan(table: header + "\nGB\t44\t1\t00\t0\t0\t$2\t10\t\t\\d{10}\t0\t\t0\n")
    }
  }

  @Test func loadsAMinimalTable() throws {
    let header = NumberingPlan.columns.joined(separator: "\t")
    let custom = try NumberingPlan(table: header + "\nXA\t999\t1\t00\t0\t0\t\t6\t\t\\d{6}\t0\t\t0\n")
    let normalizer = PhoneNumberNormalizer(plan: custom)
    #expect(normalizer.normalize("0123456", region: custom.region("XA")) == .success(999_123_456))
    #expect(normalizer.normalize("+999 123456", region: nil) == .success(999_123_456))
    #expect(normalizer.normalize("+44 20 7946 0018", region: nil) == .failure(.invalidCountryCode))
  }
}
