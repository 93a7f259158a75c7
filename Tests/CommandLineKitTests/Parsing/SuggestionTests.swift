@testable import CommandLineKit
import Testing

@Suite struct SuggestionTests {
  @Test(arguments: [
    ("", "", 0), ("abc", "", 3), ("", "abc", 3), ("kitten", "sitting", 3),
    ("region", "region", 0), ("regoin", "region", 1), ("lod", "load", 1), ("flaw", "lawn", 2),
  ])
  func distance(_ a: String, _ b: String, _ expected: Int) {
    #expect(_Suggestions.distance(a, b) == expected)
    #expect(_Suggestions.distance(b, a) == expected)
  }

  @Test func suggestsOnlyCloseMatches() {
    let options = ["--region", "--output", "--json", "--help"]
    #expect(_Suggestions.bestMatch(for: "--regoin", among: options) == "--region")
    #expect(_Suggestions.bestMatch(for: "--outptu", among: options) == "--output")
    #expect(_Suggestions.bestMatch(for: "--jsn", among: options) == "--json")
    #expect(_Suggestions.bestMatch(for: "--REGION", among: options) == "--region")
    #expect(_Suggestions.bestMatch(for: "--rg", among: options) == nil)
    #expect(_Suggestions.bestMatch(for: "--xyz", among: options) == nil)
    #expect(_Suggestions.bestMatch(for: "--", among: options) == nil)
  }

  @Test func prefersTheClosestAndThenTheFirst() {
    #expect(_Suggestions.bestMatch(for: "dump", among: ["damp", "dump"]) == "dump")
    #expect(_Suggestions.bestMatch(for: "lxxd", among: ["load", "lead"]) == nil)
    #expect(_Suggestions.bestMatch(for: "loadd", among: ["loads", "load"]) == "loads")
  }
}
