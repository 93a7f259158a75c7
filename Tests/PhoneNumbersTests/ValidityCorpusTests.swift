import Foundation
import Testing

@testable import PhoneNumbers

/// The validity oracle corpus (`data/generate-validity-corpus.py`): E.164
/// numbers with libphonenumber's `is_valid_number`, `number_type` and
/// `region_code_for_number`. Every row must match.
@Suite struct ValidityCorpusTests {
  struct Row {
    let line: Int
    let number: Int64
    let valid: Bool
    let type: String
    let region: String
  }

  static func load() throws -> [Row] {
    guard let url = Bundle.module.url(forResource: "validity-corpus", withExtension: "tsv", subdirectory: "Fixtures")
    else { throw CocoaError(.fileNoSuchFile) }
    let text = try String(contentsOf: url, encoding: .utf8)
    var rows: [Row] = []
    for (index, line) in text.split(separator: "\n").enumerated() where index > 0 {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard fields.count == 4, let number = Int64(fields[0]) else { throw CocoaError(.fileReadCorruptFile) }
      rows.append(Row(
        line: index + 1, number: number, valid: fields[1] == "true", type: String(fields[2]),
        region: String(fields[3])))
    }
    return rows
  }

  @Test func corpusIsLargeAndCoversEveryType() throws {
    let rows = try Self.load()
    #expect(rows.count > 30_000)
    let types = Set(rows.map(\.type))
    for type in PhoneNumberType.allCases { #expect(types.contains(type.rawValue), "\(type)") }
    #expect(rows.contains { !$0.valid })
  }

  @Test func everyRowMatchesLibphonenumber() throws {
    let classifier = NumberingPlan.standard.classifier
    var mismatches: [String] = []
    let rows = try Self.load()
    for row in rows {
      guard let verdict = classifier.validity(of: row.number) else {
        mismatches.append("line \(row.line): \(row.number): no calling code")
        continue
      }
      let region = verdict.isRegionResolved ? verdict.regionCode : "ZZ"
      if verdict.isValid != row.valid || verdict.type.rawValue != row.type || region != row.region {
        mismatches.append(
          "line \(row.line): \(row.number): libphonenumber \(row.valid) \(row.type) \(row.region), "
            + "calldir \(verdict.isValid) \(verdict.type) \(region)")
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.count) of \(rows.count) rows differ:\n\(mismatches.prefix(40).joined(separator: "\n"))")
  }
}
