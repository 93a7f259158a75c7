import Foundation
import Testing

@testable import CallDirectoryCompiler

/// Number fields a spreadsheet wrote in scientific notation are rejected
/// with that reason; nothing else is.
@Suite struct SpreadsheetNotationTests {
  static func reason(_ text: String) -> String? {
    var copy = text
    return copy.withUTF8 { SpreadsheetNotation.reason(for: $0) }
  }

  @Test(arguments: ["2.02555E+09", "2.025550143E+09", " 1.8E+10 ", "4,41207E+11", "2e9", "2025550143E+0"])
  func scientificNotationIsNamed(text: String) {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    #expect(Self.reason(text) == "looks like a spreadsheet's scientific notation ('\(trimmed)'), which loses digits: format the column as text")
  }

  @Test(arguments: ["2025550143", "+1 202 555 0143", "1-800-FLOWERS", "E+09", "2.E+09", "2.5E+123", "2.5E-3", "2.5 E+09", "0800 EXT 5"])
  func otherFieldsAreNot(text: String) {
    #expect(Self.reason(text) == nil)
  }

  @Test func aCSVExportedFromASpreadsheetSaysWhyItsNumbersAreRejected() throws {
    let workspace = try Workspace()
    try workspace.write("dnc.csv", "number\n2.02555E+09\n2025550143\n")
    try workspace.config([#"{"path": "dnc.csv", "format": "csv", "list": "block", "number": "number", "region": "US"}"#])
    let (snapshot, rejects) = try workspace.compile()
    #expect(snapshot.blockingNumbers == [12_025_550_143])
    #expect(rejects == [
      "dnc.csv:2: looks like a spreadsheet's scientific notation ('2.02555E+09'), which loses digits: format the column as text"
        + "\t2.02555E+09"
    ])
  }
}
