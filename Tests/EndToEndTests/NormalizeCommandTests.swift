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

  @Test func jsonLinesCarryInputNumberReasonValidityAndType() throws {
    let expected = [
      #"{"input":"(212) 555-0100","number":12125550100,"reason":null,"valid":true,"type":"fixedLineOrMobile"}"#,
      #"{"input":"\"quoted\"","number":null,"reason":"not a phone number","valid":null,"type":null}"#,
      #"{"input":"+6000880816","number":6000880816,"reason":null,"valid":false,"type":"unknown"}"#,
      #"{"input":"+1 800 275 2273","number":18002752273,"reason":null,"valid":true,"type":"tollFree"}"#,
    ]
    let inputs = ["(212) 555-0100", "\"quoted\"", "+6000880816", "+1 800 275 2273"]
    let result = try CalldirProcess.run(["normalize", "--region", "US", "--json"] + inputs)
    #expect(result.status == 0)
    #expect(result.lines == expected)
    // The batch path over standard input writes the same bytes.
    let batch = try CalldirProcess.run(["normalize", "--region", "US", "--json"], input: inputs.joined(separator: "\n") + "\n")
    #expect(batch.lines == expected)
  }

  @Test func validRejectsPossibleNumbersThatAreNotValid() throws {
    let inputs = ["+6000880816", "+41 44 668 18 00", "junk", "+1 123 456 7890", "0888 123 456"]
    let expected = [
      "INVALID\tinvalid for region MY", "41446681800", "INVALID\tnot a phone number",
      "INVALID\tinvalid for region US", "359888123456",
    ]
    let arguments = try CalldirProcess.run(["normalize", "--valid", "--region", "BG"] + inputs)
    #expect(arguments.status == 0)
    #expect(arguments.lines == expected)
    let batch = try CalldirProcess.run(["normalize", "--valid", "--region", "BG"], input: inputs.joined(separator: "\n"))
    #expect(batch.lines == expected)
    // Without --valid the same numbers are possible, so they pass.
    let plain = try CalldirProcess.run(["normalize", "--region", "BG", "+6000880816"])
    #expect(plain.lines == ["6000880816"])
  }

  @Test func validWithJSONNullsTheNumberOfAnInvalidOne() throws {
    let result = try CalldirProcess.run(["normalize", "--valid", "--json", "+6000880816", "+41446681800"])
    #expect(result.lines == [
      #"{"input":"+6000880816","number":null,"reason":"invalid for region MY","valid":false,"type":"unknown"}"#,
      #"{"input":"+41446681800","number":41446681800,"reason":null,"valid":true,"type":"fixedLine"}"#,
    ])
  }

  @Test func validityCorpusThroughTheBinaryMatches() throws {
    // Every row of the validity oracle, as `+digits`, through --json.
    let url = try #require(Bundle.module.url(forResource: "validity-corpus", withExtension: "tsv", subdirectory: "Fixtures"))
    let rows = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst()
      .map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
    let input = rows.map { "+\($0[0])" }.joined(separator: "\n") + "\n"
    let result = try CalldirProcess.run(["normalize", "--json"], input: input)
    #expect(result.status == 0)
    let lines = result.lines
    #expect(lines.count == rows.count)
    var mismatches: [String] = []
    var compared = 0
    for (row, line) in zip(rows, lines) {
      // Rows the normalizer reads as another number (a national prefix
      // after the calling code is stripped, +54 9 …) or finds impossible
      // are not this check's business.
      guard line.contains(#""number":\#(row[0]),"#) else { continue }
      compared += 1
      if !line.contains(#""valid":\#(row[1]),"type":"\#(row[2])""#) { mismatches.append(line) }
    }
    #expect(compared > 30_000)
    #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
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
