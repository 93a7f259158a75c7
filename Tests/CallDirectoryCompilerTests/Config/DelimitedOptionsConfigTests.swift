import CalldirSystem
import Testing

@testable import CallDirectoryCompiler

/// Config parsing of the delimited keys for published files.
@Suite struct DelimitedOptionsConfigTests {
  func parse(_ source: String) throws(ConfigError) -> BuildConfig {
    try BuildConfig.parse(
      Array(#"{"sources": [\#(source)]}"#.utf8), baseDirectory: "/tmp")
  }

  func error(_ source: String) -> String? {
    do {
      _ = try parse(source)
      return nil
    } catch {
      return error.description
    }
  }

  @Test func allKeysParseIntoTypedOptions() throws {
    let config = try parse(#"""
      {"path": "m.csv", "format": "csv", "list": "block", "delimiter": ";", "encoding": "latin1",
       "rangeStart": "Tranche_Debut", "rangeEnd": "Tranche_Fin",
       "where": {"Mnémo": ["ORAN", "SFR0"]},
       "regionColumn": "Territoire", "regions": {"Guadeloupe": "GP", "Métropole": "FR"}}
      """#)
    let options = try #require(config.sources.first).options
    #expect(options["encoding"] == "latin1")
    #expect(options["rangeStart"] == "Tranche_Debut")
    #expect(options[value: "where"]?.stringArraysByKey == ["Mnémo": ["ORAN", "SFR0"]])
    #expect(options[value: "regions"]?.stringsByKey == ["Guadeloupe": "GP", "Métropole": "FR"])
    #expect(options["where"] == nil)
  }

  @Test(arguments: [
    (#""encoding": "klingon", "number": "n""#, "sources[0].encoding: unknown encoding 'klingon'"),
    (#""encoding": 8859, "number": "n""#, "sources[0].encoding"),
    (#""rangeStart": "a""#, "sources[0].rangeEnd: missing: rangeStart needs rangeEnd"),
    (#""rangeEnd": "a""#, "sources[0]"),
    (#""number": "n", "where": ["a"]"#, "sources[0].where"),
    (#""number": "n", "where": {}"#, "sources[0].where: must not be empty"),
    (#""number": "n", "where": {"op": []}"#, "sources[0].where.op: must list at least one value"),
    (#""number": "n", "where": {"op": "ORAN"}"#, "sources[0].where.op"),
    (#""number": "n", "where": {"op": ["ORAN", 3]}"#, "sources[0].where.op[1]"),
    (#""number": "n", "regionColumn": "t", "regions": {"x": "fr"}"#, "sources[0].regions.x: invalid region 'fr'"),
    (#""number": "n", "regionColumn": "t", "regions": {"x": 1}"#, "sources[0].regions.x"),
    (#""number": "n", "regionColumn": "t""#, "sources[0].regions: missing: regionColumn needs regions"),
  ])
  func badValuesNameTheirKeyPath(keys: String, expected: String) {
    let message = error(#"{"path": "m.csv", "format": "csv", "list": "block", \#(keys)}"#)
    #expect(message?.contains(expected) == true, "\(message ?? "accepted")")
  }

  @Test func aMissingNumberIsStillReportedAsBefore() {
    let message = error(#"{"path": "m.csv", "format": "csv", "list": "block"}"#)
    #expect(message?.contains("number") == true && message?.contains("required by format 'csv'") == true)
  }

  @Test func rangesCannotFeedTheIdentifyList() {
    let message = error(
      #"{"path": "m.csv", "format": "csv", "list": "identify", "label": "l", "rangeStart": "a", "rangeEnd": "b"}"#)
    #expect(message?.contains("sources[0].rangeStart") == true, "\(message ?? "accepted")")
  }

  @Test func theNewKeysAreNotForOtherFormats() {
    let message = error(#"{"path": "m.txt", "format": "lines", "list": "block", "encoding": "latin1"}"#)
    #expect(message?.contains("sources[0].encoding") == true)
  }
}
