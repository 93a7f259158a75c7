import CallDirectoryFormat
import CalldirSystem
import FormatFixtures
import Foundation
import Testing

@testable import CallDirectoryCompiler

/// `{"liveCallerID": <object>, "sources": [a block and an identify source]}`.
private func withLiveCallerID(_ object: String, identify: String = "") -> String {
  #"{"liveCallerID": "# + object + #", "sources": [{"path": "a", "format": "lines", "list": "block"}, "#
    + #"{"path": "n.csv", "format": "csv", "list": "identify", "number": "n", "label": "l""# + identify + "}]}"
}

@Suite struct LiveCallerIDConfigTests {
  @Test func theDefaultsAreWrittenOutInTheRecordedSettings() throws {
    let config = try BuildConfig.parse(Array(withLiveCallerID(#"{"useCase": "com.example.lookup"}"#).utf8), baseDirectory: "/d")
    let settings = try #require(config.liveCallerID)
    #expect(settings.keywordForms == [.e164])
    #expect(settings.cacheExpiryMinutes == 1440)
    #expect(settings.rlweParameters.name == "n_4096_logq_27_28_28_logt_5")
    #expect(settings.trialsPerShard == 0)
    #expect(settings.maxEntries == 100_000_000)
    #expect(
      settings.json.serialized()
        == #"{"useCase":"com.example.lookup","keywordForms":["e164"],"cacheExpiryMinutes":1440,"#
        + #""rlweParameters":"n_4096_logq_27_28_28_logt_5","trialsPerShard":0,"maxEntries":100000000,"#
        + #""block":{"shardCount":null},"identity":{"shardCount":null}}"#)
    #expect(try LiveCallerIDSettings(recorded: settings.json.serialized()) == settings)
  }

  @Test func twoConfigsThatMeanTheSameRecordTheSameText() throws {
    let spelled = try BuildConfig.parse(
      Array(
        withLiveCallerID(
          #"{"keywordForms": ["national", "e164"], "useCase": "a.b", "trialsPerShard": 0, "block": {}, "identity": {"shardCount": 8}}"#
        ).utf8), baseDirectory: "/d")
    let short = try BuildConfig.parse(
      Array(withLiveCallerID(#"{"useCase": "a.b", "keywordForms": ["e164", "national"], "identity": {"shardCount": 8}}"#).utf8),
      baseDirectory: "/d")
    #expect(spelled.liveCallerID?.json.serialized() == short.liveCallerID?.json.serialized())
    #expect(spelled.liveCallerID?.keywordForms == [.e164, .national])
  }

  @Test func identifySourcesTakeACategoryAndAnIcon() throws {
    let config = try BuildConfig.parse(
      Array(withLiveCallerID(#"{"useCase": "a.b"}"#, identify: #", "category": "business", "icon": "icons/shop.heic""#).utf8),
      baseDirectory: "/data")
    #expect(config.sources[1].category == .business)
    #expect(config.sources[1].icon == "/data/icons/shop.heic")
    #expect(config.sources[1].writtenIcon == "icons/shop.heic")
    #expect(config.sources[0].category == .unspecified)
    #expect(config.sources[0].icon == nil)
  }

  static let errorCases: [ConfigErrorCase] = [
    .init(name: "not an object", json: withLiveCallerID("true"), message: "liveCallerID: expected an object, found boolean"),
    .init(
      name: "no use case", json: withLiveCallerID("{}"),
      message: "liveCallerID: missing required key 'useCase' (the Live Caller ID Lookup extension's bundle identifier)"),
    .init(
      name: "bad use case", json: withLiveCallerID(#"{"useCase": "com..lookup"}"#),
      message: "liveCallerID.useCase: 'com..lookup' is not a bundle identifier (letters, digits, '-' and '.', such as 'com.example.lookup')"),
    .init(
      name: "unknown key", json: withLiveCallerID(#"{"useCase": "a", "keywordForm": ["e164"]}"#),
      message: "liveCallerID.keywordForm: unknown key (did you mean 'keywordForms'?)"),
    .init(
      name: "unknown form", json: withLiveCallerID(#"{"useCase": "a", "keywordForms": ["e164", "nationl"]}"#),
      message: "liveCallerID.keywordForms[1]: unknown keyword form 'nationl' (expected one of: e164, national); did you mean 'national'?"),
    .init(
      name: "no e164", json: withLiveCallerID(#"{"useCase": "a", "keywordForms": ["national"]}"#),
      message: "liveCallerID.keywordForms: must list 'e164': every number is exported as the phone presents it, '+' and its digits"),
    .init(
      name: "form twice", json: withLiveCallerID(#"{"useCase": "a", "keywordForms": ["e164", "e164"]}"#),
      message: "liveCallerID.keywordForms[1]: 'e164' is listed twice"),
    .init(
      name: "expiry negative", json: withLiveCallerID(#"{"useCase": "a", "cacheExpiryMinutes": -1}"#),
      message: "liveCallerID.cacheExpiryMinutes: must be between 0 and 4294967295, got -1"),
    .init(
      name: "unknown parameters", json: withLiveCallerID(#"{"useCase": "a", "rlweParameters": "n_4096_logq_27_28_28_logt_7"}"#),
      message: "liveCallerID.rlweParameters: unknown RLWE parameters 'n_4096_logq_27_28_28_logt_7' (expected one of Apple's predefined: "
        + RLWEParameters.all.map(\.name).joined(separator: ", ") + "); did you mean 'n_4096_logq_27_28_28_logt_17'?"),
    .init(
      name: "trials", json: withLiveCallerID(#"{"useCase": "a", "trialsPerShard": 1001}"#),
      message: "liveCallerID.trialsPerShard: must be between 0 and 1000, got 1001"),
    .init(
      name: "max entries", json: withLiveCallerID(#"{"useCase": "a", "maxEntries": 0}"#),
      message: "liveCallerID.maxEntries: must be between 1 and 1000000000000, got 0"),
    .init(
      name: "shard count not a power of two", json: withLiveCallerID(#"{"useCase": "a", "block": {"shardCount": 12}}"#),
      message: "liveCallerID.block.shardCount: must be a power of two (1, 2, 4, …), got 12: one lookup's shard then implies the other's"),
    .init(
      name: "shard count too large", json: withLiveCallerID(#"{"useCase": "a", "identity": {"shardCount": 131072}}"#),
      message: "liveCallerID.identity.shardCount: must be between 1 and 65536, got 131072"),
    .init(
      name: "unknown use case key", json: withLiveCallerID(#"{"useCase": "a", "block": {"shards": 2}}"#),
      message: "liveCallerID.block.shards: unknown key"),
    .init(
      name: "unknown category", json: withLiveCallerID(#"{"useCase": "a"}"#, identify: #", "category": "buisness""#),
      message: "sources[1].category: unknown category 'buisness' (expected one of: person, business); did you mean 'business'?"),
    .init(
      name: "category of a block source",
      json: #"{"sources": [{"path": "a", "format": "lines", "list": "block", "category": "person"}]}"#,
      message: "sources[0].category: only an 'identify' source names callers, so 'category' belongs on one"),
    .init(
      name: "icon of an allow source",
      json: #"{"sources": [{"path": "a", "format": "lines", "list": "allow", "icon": "x.heic"}]}"#,
      message: "sources[0].icon: only an 'identify' source names callers, so 'icon' belongs on one"),
    .init(
      name: "empty icon", json: withLiveCallerID(#"{"useCase": "a"}"#, identify: #", "icon": """#),
      message: "sources[1].icon: must be a file's path (not empty, no nul character)"),
  ]

  @Test(arguments: errorCases)
  func rejects(_ testCase: ConfigErrorCase) throws {
    do {
      let config = try BuildConfig.parse(Array(testCase.json.utf8), baseDirectory: "/data")
      Issue.record("parsed \(config)")
    } catch {
      #expect(error.description == testCase.message)
    }
  }
}
