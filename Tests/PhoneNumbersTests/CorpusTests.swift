import Foundation
import Testing

@testable import PhoneNumbers

/// One row of the libphonenumber oracle corpus.
struct CorpusCase: CustomTestStringConvertible, Sendable {
  let line: Int
  let input: String
  let region: String
  let expected: String
  /// libphonenumber's `is_valid_number` of the parsed number ("true"/"false").
  let isValid: String
  let category: String

  var testDescription: String { "line \(line) [\(category)] \(input.debugDescription) / \(region)" }

  static func load() throws -> [CorpusCase] {
    guard let url = Bundle.module.url(forResource: "phone-normalization", withExtension: "tsv", subdirectory: "Fixtures")
    else { throw CocoaError(.fileNoSuchFile) }
    let text = try String(contentsOf: url, encoding: .utf8)
    var cases: [CorpusCase] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where index > 0 {
      guard !line.isEmpty else { continue }
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard fields.count >= 5 else { continue }
      cases.append(CorpusCase(
        line: index + 1, input: String(fields[0]), region: String(fields[1]),
        expected: String(fields[2]), isValid: String(fields[3]), category: String(fields[4])))
    }
    return cases
  }
}

@Suite struct CorpusTests {
  let normalizer = PhoneNumberNormalizer()

  func actual(_ item: CorpusCase) -> String {
    let region = item.region == "ZZ" ? nil : normalizer.plan.region(item.region)
    switch normalizer.normalize(item.input, region: region) {
    case .success(let number): return String(number)
    case .failure: return "INVALID"
    }
  }

  @Test func corpusHasAllRows() throws {
    #expect(try CorpusCase.load().count == 642)
  }

  @Test(arguments: try CorpusCase.load())
  func matchesLibphonenumber(_ item: CorpusCase) {
    #expect(actual(item) == item.expected)
  }

  /// The normalized numbers' validity is libphonenumber's `is_valid_number`.
  @Test(arguments: try CorpusCase.load().filter { $0.expected != "INVALID" })
  func validityMatchesLibphonenumber(_ item: CorpusCase) throws {
    let number = try #require(Int64(item.expected))
    #expect(normalizer.plan.validity(of: number)?.isValid == (item.isValid == "true"))
  }
}
