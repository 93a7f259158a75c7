import Foundation
import Testing

@Suite struct NormalizeCommandTests {
  @Test func normalizesArgumentsInOrder() throws {
    let result = try CalldirProcess.run(["normalize", "--region", "GB", "020 7946 0018", "junk", "+1 800 FLOWERS"])
    #expect(result.status == 0)
    #expect(result.lines == ["442079460018", "INVALID\tnot a phone number", "18003569377"])
  }

  @Test func readsStandardInputWithCRLFAndKeepsEveryLine() throws {
    let input = "020 7946 0018\r\n\n  +44 20 7946 0018  \n+44 20"
    let result = try CalldirProcess.run(["normalize", "--region", "GB"], input: input)
    #expect(result.status == 0)
    #expect(result.lines == ["442079460018", "INVALID\tnot a phone number", "442079460018", "INVALID\ttoo short"])
  }

  @Test func withoutRegionOnlyInternationalNumbersPass() throws {
    let result = try CalldirProcess.run(["normalize"], input: "2125550100\n+1 212 555 0100\n")
    #expect(result.lines == ["INVALID\tno country code and no default region", "12125550100"])
    let zz = try CalldirProcess.run(["normalize", "--region", "ZZ", "2125550100"])
    #expect(zz.lines == ["INVALID\tno country code and no default region"])
  }

  @Test func jsonLinesCarryInputNumberAndReason() throws {
    let result = try CalldirProcess.run(["normalize", "--region", "US", "--json", "(212) 555-0100", "\"quoted\""])
    #expect(result.status == 0)
    #expect(result.lines == [
      #"{"input":"(212) 555-0100","number":12125550100,"reason":null}"#,
      #"{"input":"\"quoted\"","number":null,"reason":"not a phone number"}"#,
    ])
  }

  @Test func unknownRegionIsAUsageError() throws {
    let result = try CalldirProcess.run(["normalize", "--region", "XX", "1"])
    #expect(result.status == 64)
    #expect(result.standardError.hasPrefix(
      "error: unknown region 'XX' (expected an ISO 3166 code such as US or GB, or ZZ)\n"))
    #expect(!result.standardError.contains("did you mean"))
    #expect(result.standardOutput.isEmpty)
  }

  @Test(arguments: [("ch", "CH"), ("Gb", "GB"), ("zz", "ZZ"), ("UK", "GB"), ("+41", "CH"), ("1", "US")])
  func unknownRegionSuggestsTheCodeMeant(typed: String, meant: String) throws {
    let result = try CalldirProcess.run(["normalize", "--region", typed, "0791234567"])
    #expect(result.status == 64)
    #expect(result.standardError.hasPrefix(
      "error: unknown region '\(typed)' (expected an ISO 3166 code such as US or GB, or ZZ); did you mean '\(meant)'?\n"),
      "\(result.standardError)")
    #expect(result.standardOutput.isEmpty)
  }

  @Test func unknownOptionSuggestsTheRightOne() throws {
    let result = try CalldirProcess.run(["normalize", "--regoin", "GB"])
    #expect(result.status == 64)
    #expect(result.standardError.contains("did you mean '--region'?"))
  }

  @Test func corpusThroughTheBinaryMatches() throws {
    // The oracle corpus, grouped by region, through the real binary.
    let url = try #require(Bundle.module.url(forResource: "phone-normalization", withExtension: "tsv", subdirectory: "Fixtures"))
    let rows = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst()
      .map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
    let byRegion = Dictionary(grouping: rows, by: { String($0[1]) })
    for (region, group) in byRegion where region != "XX" {
      let input = group.map { String($0[0]) }.joined(separator: "\n") + "\n"
      let result = try CalldirProcess.run(["normalize", "--region", region], input: input)
      if result.status == 64 {
        // A region the CLI refuses (lowercase, unknown) can only hold rows
        // that need no region.
        #expect(group.allSatisfy { $0[0].hasPrefix("+") || $0[2] == "INVALID" }, "region \(region)")
        continue
      }
      let actual = result.lines.map { $0.hasPrefix("INVALID") ? "INVALID" : $0 }
      #expect(actual == group.map { String($0[2]) }, "region \(region)")
    }
  }

  @Test func helpAndVersion() throws {
    let help = try CalldirProcess.run(["normalize", "--help"])
    #expect(help.status == 0)
    for section in ["OVERVIEW:", "USAGE:", "ARGUMENTS:", "OPTIONS:"] { #expect(help.standardOutput.contains(section)) }
    let version = try CalldirProcess.run(["--version"])
    #expect(version.status == 0)
    #expect(version.standardOutput.hasPrefix("calldir "))
  }
}
