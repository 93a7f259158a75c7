import Foundation
import Testing

/// `calldir normalize --national`: the digits of libphonenumber's national
/// format next to each number, from arguments and from standard input
/// (the batch path), as text and JSON.
@Suite struct NormalizeNationalCommandTests {
  static let inputs = [
    "020 7946 0018", "+1 212-555-0142", "+54 9 11 1234-5678", "+39 06 1234 5678", "junk", "+7 916 123-45-67",
    "+44 (0)20 7946 0018", "+800 1234 5678", "+33 4 12 34 56 78", "+61 412 345 678",
  ]

  @Test func printsTheNationalDigitsAfterATab() throws {
    let expected = [
      "442079460018\t02079460018", "12125550142\t2125550142", "5491112345678\t0111512345678",
      "390612345678\t0612345678", "INVALID\tnot a phone number", "79161234567\t89161234567",
      "442079460018\t02079460018", "80012345678\t12345678", "33412345678\t0412345678", "61412345678\t0412345678",
    ]
    let arguments = try CalldirProcess.run(["normalize", "--national", "--region", "GB"] + Self.inputs)
    #expect(arguments.status == 0)
    #expect(arguments.lines == expected)
    let batch = try CalldirProcess.run(
      ["normalize", "--region", "GB", "--national"], input: Self.inputs.joined(separator: "\n") + "\n")
    #expect(batch.status == 0)
    #expect(batch.lines == expected)
    // E.164 lines take the batch's exact path; they get the column too.
    let exact = try CalldirProcess.run(["normalize", "--national"], input: "+442079460018\n+5491112345678\n")
    #expect(exact.lines == ["442079460018\t02079460018", "5491112345678\t0111512345678"])
    // Without the flag, nothing changes.
    let plain = try CalldirProcess.run(["normalize", "--region", "GB", "020 7946 0018"])
    #expect(plain.lines == ["442079460018"])
  }

  @Test func jsonAddsNationalLastAndKeepsEveryKey() throws {
    let inputs = ["(212) 555-0142", "\"quoted\"", "+6000880816", "+54 9 11 1234 5678"]
    let expected = [
      #"{"input":"(212) 555-0142","number":12125550142,"reason":null,"valid":true,"type":"fixedLineOrMobile","national":"2125550142"}"#,
      #"{"input":"\"quoted\"","number":null,"reason":"not a phone number","valid":null,"type":null,"national":null}"#,
      #"{"input":"+6000880816","number":6000880816,"reason":null,"valid":false,"type":"unknown","national":"00880816"}"#,
      #"{"input":"+54 9 11 1234 5678","number":5491112345678,"reason":null,"valid":true,"type":"mobile","national":"0111512345678"}"#,
    ]
    let arguments = try CalldirProcess.run(["normalize", "--region", "US", "--json", "--national"] + inputs)
    #expect(arguments.status == 0)
    #expect(arguments.lines == expected)
    let batch = try CalldirProcess.run(
      ["normalize", "--region", "US", "--json", "--national"], input: inputs.joined(separator: "\n") + "\n")
    #expect(batch.lines == expected)
  }

  @Test func validLeavesRejectedNumbersWithoutANationalFormat() throws {
    let inputs = ["+6000880816", "+41 44 668 18 00"]
    let text = try CalldirProcess.run(["normalize", "--valid", "--national"] + inputs)
    #expect(text.lines == ["INVALID\tinvalid for region MY", "41446681800\t0446681800"])
    let batch = try CalldirProcess.run(["normalize", "--valid", "--national"], input: inputs.joined(separator: "\n"))
    #expect(batch.lines == text.lines)
    let json = try CalldirProcess.run(["normalize", "--valid", "--json", "--national"] + inputs)
    #expect(json.lines == [
      #"{"input":"+6000880816","number":null,"reason":"invalid for region MY","valid":false,"type":"unknown","national":null}"#,
      #"{"input":"+41 44 668 18 00","number":41446681800,"reason":null,"valid":true,"type":"fixedLine","national":"0446681800"}"#,
    ])
    let jsonBatch = try CalldirProcess.run(["normalize", "--valid", "--json", "--national"], input: inputs.joined(separator: "\n"))
    #expect(jsonBatch.lines == json.lines)
  }

  /// Every number of the national-format oracle
  /// (`data/generate-national-format-corpus.py`), as `+digits` through the
  /// batch path: each number printed has libphonenumber's national digits.
  @Test func nationalFormatCorpusThroughTheBinaryMatches() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let corpus = root.appendingPathComponent("Tests/PhoneNumbersTests/Fixtures/national-format-corpus.tsv")
    let rows = try String(contentsOf: corpus, encoding: .utf8).split(separator: "\n").dropFirst()
      .map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
    let oracle = Dictionary(rows.map { (String($0[0]), String($0[1])) }, uniquingKeysWith: { first, _ in first })
    let input = rows.map { "+\($0[0])" }.joined(separator: "\n") + "\n"
    let result = try CalldirProcess.run(["normalize", "--national"], input: input)
    #expect(result.status == 0)
    let lines = result.lines
    #expect(lines.count == rows.count)
    var mismatches: [String] = []
    var compared = 0
    for (row, line) in zip(rows, lines) where !line.hasPrefix("INVALID") {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard fields.count == 2 else {
        mismatches.append(line)
        continue
      }
      // The number the input normalized to: itself, or (a national prefix
      // after the calling code stripped) another, whose national format is
      // its own (`+49 0 06064` is 4906064, which parse reads as 6064).
      guard let expected = oracle[String(fields[0])] else { continue }
      compared += 1
      if fields[1] != expected { mismatches.append("+\(row[0]): \(line), libphonenumber \(expected)") }
    }
    #expect(compared > 30_000)
    #expect(mismatches.isEmpty, "\(mismatches.count): \(mismatches.prefix(10))")
  }

  @Test func helpNamesTheFlag() throws {
    let help = try CalldirProcess.run(["normalize", "--help"])
    #expect(help.status == 0)
    #expect(help.standardOutput.contains("--national"))
  }
}
