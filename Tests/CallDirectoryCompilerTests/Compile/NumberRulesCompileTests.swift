import Foundation
import PhoneNumbers
import Testing

@testable import CallDirectoryCompiler

/// `require: valid`, `types` and the wrong-region guard (`maxInvalidRatio`).
@Suite struct NumberRulesCompileTests {
  /// Bulgarian numbers written nationally (five mobiles and a Sofia
  /// landline) and one written with its country code.
  static let bulgarian = "0888123456\n0887654321\n0898123456\n029876543\n0878123456\n0899111222\n+359 2 987 6543\n"

  @Test func requireValidRejectsPossibleButInvalidNumbers() throws {
    let workspace = try Workspace()
    // A Chilean 600 number with a stray "+" reads as Malaysian, and is not valid there.
    try workspace.write("my.txt", "+6000880816\n+60 3-2615 8888\n+41 44 668 18 00\n")
    try workspace.config([#"{"path": "my.txt", "format": "lines", "list": "block", "region": "MY", "require": "valid"}"#])
    let (snapshot, rejects) = try workspace.compile()
    #expect(snapshot.blockingNumbers == [41_446_681_800, 60_326_158_888])
    #expect(rejects == ["my.txt:1: invalid for region MY\t+6000880816"])
    #expect(snapshot.sources[0].rejectReasons == ["invalid for region MY": 1])
  }

  @Test func withoutRequireInvalidNumbersAreKept() throws {
    let workspace = try Workspace()
    try workspace.write("my.txt", "+6000880816\n")
    try workspace.config([#"{"path": "my.txt", "format": "lines", "list": "block", "region": "MY"}"#])
    #expect(try workspace.compile().0.blockingNumbers == [6_000_880_816])
  }

  @Test func typesKeepOnlyNumbersOfThoseTypes() throws {
    let workspace = try Workspace()
    try workspace.write("names.csv", "phone,name\n+1 800 275 2273,Flowers\n+1 212 555 0100,Office\n+41 800 123 456,Hotline\n+41 79 123 45 67,Mobile\n")
    try workspace.write("block.txt", "+1 800 275 2273\n+1 212 555 0100\n+44 7400 123456\n")
    try workspace.config([
      #"{"path": "names.csv", "format": "csv", "list": "identify", "number": "phone", "label": "name", "types": ["tollFree"]}"#,
      #"{"path": "block.txt", "format": "lines", "list": "block", "types": ["mobile", "fixedLineOrMobile"]}"#,
    ])
    let (snapshot, rejects) = try workspace.compile()
    #expect(snapshot.identificationPairs == ["18002752273=Flowers", "41800123456=Hotline"])
    #expect(snapshot.blockingNumbers == [12_125_550_100, 447_400_123_456])
    #expect(rejects.isEmpty)
    #expect(snapshot.sources.map(\.typeFiltered) == [2, 1])
  }

  @Test func aListWithTheWrongRegionIsRefusedByNameWithTheRegionItFits() throws {
    let workspace = try Workspace()
    try workspace.write("bg.txt", Self.bulgarian)
    try workspace.config([#"{"path": "bg.txt", "format": "lines", "list": "block", "region": "CH"}"#])
    do {
      _ = try workspace.compile()
      Issue.record("the build went through")
    } catch CompileError.wrongRegion(let finding) {
      #expect(finding.source == "bg.txt")
      #expect(finding.region == "CH")
      #expect((finding.nationalCount, finding.invalidCount) == (6, 5))
      #expect(finding.suggestion == "BG")
      #expect(finding.description == """
        source bg.txt: 5 of 6 numbers written without a country code are invalid for region CH \
        (83.3%, above maxInvalidRatio 0.5); they are valid for BG — set "region": "BG"
        """)
    }
  }

  @Test func theRightRegionPasses() throws {
    let workspace = try Workspace()
    try workspace.write("bg.txt", Self.bulgarian)
    try workspace.config([#"{"path": "bg.txt", "format": "lines", "list": "block", "region": "BG"}"#])
    #expect(try workspace.compile().0.blockingNumbers.count == 6)
  }

  @Test func theGuardCountsCSVSourcesToo() throws {
    let workspace = try Workspace()
    try workspace.write("bg.csv", "phone,name\n" + Self.bulgarian.split(separator: "\n").map { "\($0),Spam" }.joined(separator: "\n"))
    try workspace.config([#"{"path": "bg.csv", "format": "csv", "list": "identify", "number": "phone", "label": "name", "region": "CH"}"#])
    #expect(throws: CompileError.self) { try workspace.compile() }
  }

  @Test func fewNationalNumbersAreNotJudged() throws {
    let workspace = try Workspace()
    // Four national numbers, all invalid in CH, and many international ones.
    try workspace.write("bg.txt", "0888123456\n0887654321\n0898123456\n0899111222\n" + (0..<20).map { "+359 88 812 34\(String(format: "%02d", $0))\n" }.joined())
    try workspace.config([#"{"path": "bg.txt", "format": "lines", "list": "block", "region": "CH"}"#])
    #expect(try workspace.compile().0.blockingNumbers.count == 24)
  }

  @Test(arguments: [
    #", "maxInvalidRatio": 1"#,
    #", "maxInvalidRatio": 0.9"#,
  ])
  func aSourceMayRaiseItsRatio(_ key: String) throws {
    let workspace = try Workspace()
    try workspace.write("bg.txt", Self.bulgarian)
    try workspace.config([#"{"path": "bg.txt", "format": "lines", "list": "block", "region": "CH"\#(key)}"#])
    #expect(try workspace.compile().0.blockingNumbers.count == 7)
  }

  @Test func theConfigMayRaiseTheRatioForAllSources() throws {
    let workspace = try Workspace()
    try workspace.write("bg.txt", Self.bulgarian)
    try workspace.config([#"{"path": "bg.txt", "format": "lines", "list": "block", "region": "CH"}"#], extra: #""maxInvalidRatio": 0.9,"#)
    #expect(try workspace.compile().0.blockingNumbers.count == 7)
    try workspace.config(
      [#"{"path": "bg.txt", "format": "lines", "list": "block", "region": "CH", "maxInvalidRatio": 0.5}"#],
      extra: #""maxInvalidRatio": 0.9,"#)
    #expect(throws: CompileError.self) { try workspace.compile() }
  }
}

@Suite struct NumberRulesConfigTests {
  func error(_ source: String) throws -> String {
    let workspace = try Workspace()
    try workspace.write("a.txt", "")
    try workspace.config([source])
    do {
      _ = try BuildConfig.load(contentsOf: workspace.path("calldir.json"))
      return "no error"
    } catch {
      return error.description
    }
  }

  @Test func unknownTypeNamesSuggestTheOneMeant() throws {
    let message = try error(#"{"path": "a.txt", "format": "lines", "list": "block", "types": ["mobile", "tollfree"]}"#)
    #expect(message.hasPrefix("sources[0].types[1]: unknown number type 'tollfree' (expected one of: fixedLine, mobile,"))
    #expect(message.hasSuffix("; did you mean 'tollFree'?"), "\(message)")
  }

  @Test(arguments: [
    (#""types": []"#, "sources[0].types: must name at least one number type"),
    (#""types": "mobile""#, "sources[0].types: expected an array of strings"),
    (#""require": "vaild""#, "sources[0].require: unknown requirement 'vaild' (expected 'valid'); did you mean 'valid'?"),
    (#""maxInvalidRatio": 2"#, "sources[0].maxInvalidRatio: must be between 0 and 1"),
  ])
  func badValuesAreConfigErrors(key: String, expected: String) throws {
    let message = try error(#"{"path": "a.txt", "format": "lines", "list": "block", \#(key)}"#)
    #expect(message.hasPrefix(expected), "\(message)")
  }

  @Test func rulesAreRead() throws {
    let workspace = try Workspace()
    try workspace.write("a.txt", "")
    try workspace.config(
      [#"{"path": "a.txt", "format": "lines", "list": "block", "require": "valid", "types": ["uan", "voip"], "maxInvalidRatio": 0.25}"#],
      extra: #""maxInvalidRatio": 0.75,"#)
    let config = try BuildConfig.load(contentsOf: workspace.path("calldir.json"))
    #expect(config.maxInvalidRatio == 0.75)
    #expect(config.sources[0].numberRules == NumberRules(requireValid: true, types: [.uan, .voip], maxInvalidRatio: 0.25))
  }
}
