import CalldirSystem
import Testing

@testable import CallDirectoryCompiler

/// Config parsing of the evidence keys and the presets.
@Suite struct EvidenceAndPresetConfigTests {
  func parse(_ source: String) throws(ConfigError) -> BuildConfig {
    try BuildConfig.parse(Array(#"{"sources": [\#(source)]}"#.utf8), baseDirectory: "/tmp")
  }

  func error(_ source: String) -> String? {
    do {
      _ = try parse(source)
      return nil
    } catch {
      return error.description
    }
  }

  @Test func evidenceKeysParse() throws {
    let config = try parse(#"""
      {"path": "d.csv", "format": "csv", "list": "identify", "number": "n", "label": "l",
       "dateColumn": "d", "dateFormat": "DD/MM/YYYY", "minReports": 3, "maxAgeDays": 180, "labelPolicy": "mostFrequent"}
      """#)
    let spec = try #require(config.sources.first)
    #expect(spec.evidence == EvidenceRules(minReports: 3, maxAgeDays: 180, labelPolicy: .mostFrequent))
    #expect(spec.weighsEvidence)
    #expect(spec.options["dateFormat"] == "DD/MM/YYYY")
  }

  @Test func aPresetStandsForItsGenericKeys() throws {
    let config = try parse(#"{"path": "m.csv", "format": "arcep-majnum", "list": "block", "operators": ["FRTE"]}"#)
    let spec = try #require(config.sources.first)
    #expect(spec.format == "arcep-majnum")
    #expect(spec.region == "FR")
    #expect(spec.options["delimiter"] == ";")
    #expect(spec.options["encoding"] == "ISO-8859-1")
    #expect(spec.options["rangeStart"] == "Tranche_Debut")
    #expect(spec.options[value: "where"]?.stringArraysByKey == ["Mnémo": ["FRTE"]])
    #expect(spec.options[value: "operators"] == nil)
    #expect(spec.options[value: "regions"]?.stringsByKey?["Saint Pierre et Miquelon"] == "PM")

    let ftc = try #require(try parse(#"{"path": "d.csv", "format": "ftc-dnc", "list": "identify"}"#).sources.first)
    #expect(ftc.region == "US")
    #expect(ftc.options["label"] == "Subject")
    #expect(ftc.options["dateColumn"] == "Created_Date")
    let blocking = try #require(try parse(#"{"path": "d.csv", "format": "ftc-dnc", "list": "block"}"#).sources.first)
    #expect(blocking.options["label"] == nil)

    let fcc = try #require(
      try parse(#"{"path": "d.csv", "format": "fcc-complaints", "list": "block", "region": "CA"}"#).sources.first)
    #expect(fcc.region == "CA")
    #expect(fcc.options[value: "number"]?.strings == ["Caller ID Number", "Advertiser Business Phone Number"])
  }

  @Test(arguments: [
    (#""number": "n", "maxAgeDays": 30"#, "sources[0]: missing required key 'dateColumn'"),
    (#""number": "n", "minReports": 0"#, "sources[0].minReports"),
    (#""number": "n", "minReports": "3""#, "sources[0].minReports"),
    (#""number": "n", "labelPolicy": "first""#, "sources[0].labelPolicy: only an 'identify' source has labels"),
    (#""number": "n", "dateColumn": "d", "dateFormat": "D.M.Y""#, "sources[0].dateFormat: unknown date format 'D.M.Y'"),
    (#""number": "n", "dateFormat": "MM/DD/YYYY""#, "sources[0].dateColumn: missing: dateFormat needs dateColumn"),
    (#""number": ["a", "a"]"#, "sources[0].number: names a column more than once"),
    (#""number": []"#, "sources[0].number: must list at least one value"),
    (#""number": [3]"#, "sources[0].number[0]"),
    (#""rangeStart": "a", "rangeEnd": "b", "minReports": 2"#, "a range source cannot use evidence rules"),
    (#""number": "n", "rewritePrefixes": {"0508": 5}"#, "sources[0].rewritePrefixes.0508"),
    (#""number": "n", "columnAliases": {"n": "m"}"#, "sources[0].columnAliases.n"),
    (#""number": "n", "columnAliases": ["m"]"#, "sources[0].columnAliases"),
  ])
  func badEvidenceKeysAreNamed(keys: String, expected: String) {
    let message = error(#"{"path": "d.csv", "format": "csv", "list": "block", \#(keys)}"#)
    #expect(message?.contains(expected) == true, "\(message ?? "no error")")
  }

  @Test func unknownLabelPolicyIsSuggested() {
    let message = error(
      #"{"path": "d.csv", "format": "csv", "list": "identify", "number": "n", "label": "l", "labelPolicy": "mostfrequent"}"#)
    #expect(message?.contains("unknown label policy 'mostfrequent'") == true)
    #expect(message?.contains("did you mean 'mostFrequent'?") == true, "\(message ?? "")")
  }

  @Test func operatorsAndAWhereOnTheOperatorColumnConflict() {
    let message = error(
      #"{"path": "m.csv", "format": "arcep-majnum", "list": "block", "operators": ["FRTE"], "where": {"Mnémo": ["SFR0"]}}"#)
    #expect(message?.contains("sources[0].operators: cannot be combined with a 'where' on Mnémo") == true, "\(message ?? "")")
  }

  @Test func anFccIdentifySourceNeedsALabelColumn() {
    let message = error(#"{"path": "d.csv", "format": "fcc-complaints", "list": "identify"}"#)
    #expect(message?.contains("missing required key 'label'") == true, "\(message ?? "")")
  }
}
