@_exported import CalldirTestSupport
import CallDirectoryCompiler
import CallDirectoryStore
import CalldirSystem
import Foundation
import Testing

@testable import LiveCallerID

/// libphonenumber's national format, for the numbers these tests use
/// (answers from Python's `phonenumbers` 9.0.43), standing in for the
/// PhoneNumbers module's.
struct KnownNationalDigits: NationalDigitsFormatting {
  static let answers: [Int64: String] = [
    442_079_460_018: "02079460018", 12_125_550_142: "2125550142", 33_412_345_678: "0412345678",
    61_412_345_678: "0412345678", 14_085_551_212: "4085551212", 4_930_123_456: "030123456",
    819_012_345_678: "09012345678", 390_212_345_678: "0212345678", 8_613_800_138_000: "13800138000",
    79_161_234_567: "89161234567", 14_085_551_213: "4085551213", 18_005_551_234: "8005551234",
  ]

  func nationalDigits(ofE164 number: Int64) -> [UInt8]? {
    Self.answers[number].map { Array($0.utf8) }
  }
}

/// A directory with a config and its sources, built into a store.
extension Workspace {
  /// Writes `calldir.json` with these sources and `liveCallerID`, and builds.
  @discardableResult
  func build(liveCallerID: String, sources: [String], asOf: String = "2026-01-01") throws -> Publisher.Result {
    try write(
      "calldir.json",
      #"{"dataset": "com.example.test", "liveCallerID": "# + liveCallerID + #", "sources": ["#
        + sources.joined(separator: ",") + "]}")
    var options = Publisher.Options(asOf: try #require(CalendarDay(iso8601: asOf)))
    options.publishedAt = asOf + "T00:00:00Z"
    return try Publisher(configPath: path("calldir.json"), store: StoreLayout(root: path("store")), options: options)
      .build()
  }

  func exporter(
    output: String = "out", all: Bool = false, version: Int? = nil,
    formatter: (any NationalDigitsFormatting)? = KnownNationalDigits()
  ) -> LiveCallerIDExporter {
    LiveCallerIDExporter(
      store: StoreLayout(root: path("store")), output: path(output),
      options: LiveCallerIDExporter.Options(version: version, all: all), nationalFormatter: formatter)
  }

  /// Every row of every input file of `useCase` in `output`, by keyword,
  /// with the shard whose file holds it.
  func rows(_ useCase: String, output: String = "out") throws -> [String: (value: [UInt8], shard: Int)] {
    var rows: [String: (value: [UInt8], shard: Int)] = [:]
    let inputs = path(output) + "/inputs"
    for name in try FileManager.default.contentsOfDirectory(atPath: inputs) where name.hasPrefix(useCase + "-") {
      let shard = try #require(Int(name.dropFirst(useCase.count + 1).dropLast(".binpb".count)))
      let data = try Data(contentsOf: URL(fileURLWithPath: inputs + "/" + name))
      for row in try KeywordDatabase.decode(Array(data)) {
        let keyword = String(decoding: row.keyword, as: UTF8.self)
        #expect(rows[keyword] == nil, "\(keyword) twice")
        rows[keyword] = (row.value, shard)
      }
    }
    return rows
  }
}

@Suite struct ExporterTests {
  static let settings = #"{"useCase": "com.example.lookup", "keywordForms": ["e164", "national"], "cacheExpiryMinutes": 60}"#

  static func sources(_ workspace: Workspace, block: [String], names: String, allow: [String] = []) throws -> [String] {
    try workspace.write("block.txt", block.joined(separator: "\n") + "\n")
    try workspace.write("names.csv", "number,name\n" + names)
    try workspace.write("people.csv", "number,name\n+4930123456,Erika Mustermann\n+12125550142,Lower Priority\n")
    try workspace.write("allow.txt", allow.joined(separator: "\n") + "\n")
    return [
      #"{"path": "block.txt", "format": "lines", "list": "block"}"#,
      #"{"path": "names.csv", "format": "csv", "list": "identify", "number": "number", "label": "name", "category": "business", "priority": 5}"#,
      #"{"path": "people.csv", "format": "csv", "list": "identify", "number": "number", "label": "name", "category": "person"}"#,
      #"{"path": "allow.txt", "format": "lines", "list": "allow"}"#,
    ]
  }

  @Test func everyNumberInEveryFormWithSharedNationalDigitsLeftOut() throws {
    let workspace = try Workspace()
    let block = ["+33 4 12 34 56 78", "+61 412 345 678", "+44 20 7946 0018", "+1 408 555 1212", "+1 408 555 1213",
                 "+81 90 1234 5678"]
    try workspace.build(
      liveCallerID: Self.settings,
      sources: try Self.sources(
        workspace, block: block, names: "+12125550142,Bank\n+14085551212,Spam Co\n", allow: ["+1 408 555 1213"]))
    let export = try workspace.exporter().export()

    let blockRows = try workspace.rows("block")
    let expectedBlock = [
      "+33412345678", "+61412345678", "+442079460018", "02079460018", "+14085551212", "4085551212",
      "+819012345678", "09012345678",
    ]
    #expect(Set(blockRows.keys) == Set(expectedBlock))
    #expect(blockRows.values.allSatisfy { $0.value == [0x01] })
    let blockCase = try #require(export.useCases.first)
    #expect(blockCase.name == "com.example.lookup.block")
    #expect(blockCase.keywords.map(\.count) == [5, 3])
    #expect(blockCase.sharedNational == 2)
    for (keyword, row) in blockRows {
      #expect(KeywordSharding.shard(of: Array(keyword.utf8), shardCount: blockCase.shardCount) == row.shard)
    }

    // The label, category and icon are those of the source whose label
    // won (priority 5 over 0); allowlists leave identification alone.
    let identityRows = try workspace.rows("identity")
    let expected: [String: CallIdentity] = [
      "+12125550142": CallIdentity(name: "Bank", cacheExpiryMinutes: 60, category: 2),
      "2125550142": CallIdentity(name: "Bank", cacheExpiryMinutes: 60, category: 2),
      "+14085551212": CallIdentity(name: "Spam Co", cacheExpiryMinutes: 60, category: 2),
      "4085551212": CallIdentity(name: "Spam Co", cacheExpiryMinutes: 60, category: 2),
      "+4930123456": CallIdentity(name: "Erika Mustermann", cacheExpiryMinutes: 60, category: 1),
      "030123456": CallIdentity(name: "Erika Mustermann", cacheExpiryMinutes: 60, category: 1),
    ]
    #expect(Set(identityRows.keys) == Set(expected.keys))
    for (keyword, row) in identityRows {
      #expect(try CallIdentity(decoding: row.value) == expected[keyword], "\(keyword)")
    }
    // Every shard from 0 to N−1 exists, padded when nothing else is in it.
    for useCase in export.useCases {
      for shard in 0..<useCase.shardCount {
        #expect(FileManager.default.fileExists(atPath: workspace.path("out/inputs/\(useCase.kind.rawValue)-\(shard).binpb")))
        #expect(FileManager.default.fileExists(atPath: workspace.path("out/configs/\(useCase.kind.rawValue)-\(shard).json")))
      }
    }
  }

  /// PhoneNumbers' national format gives what Python's `phonenumbers`
  /// gives for the numbers these tests use.
  @Test func libphonenumbersNationalDigitsAreTheKnownAnswers() {
    let formatter = LibphonenumberNationalDigits()
    for (number, digits) in KnownNationalDigits.answers {
      #expect(formatter.nationalDigits(ofE164: number) == Array(digits.utf8), "\(number)")
    }
    #expect(formatter.nationalDigits(ofE164: 999_123) == nil)
  }

  @Test func theNationalFormNeedsAFormatter() throws {
    let workspace = try Workspace()
    try workspace.build(liveCallerID: Self.settings, sources: try Self.sources(workspace, block: ["+14085551212"], names: ""))
    #expect {
      try workspace.exporter(formatter: nil).export()
    } throws: { error in
      guard case .nationalFormatUnavailable = error as? LiveCallerIDExportError else { return false }
      return true
    }
    #expect(!FileManager.default.fileExists(atPath: workspace.path("out")))
  }

  @Test func aVersionPastMaxEntriesIsRefusedBeforeAnythingIsWritten() throws {
    let workspace = try Workspace()
    try workspace.write("ranges.txt", "+1408555####\n")
    try workspace.build(
      liveCallerID: #"{"useCase": "com.example.lookup", "maxEntries": 9999}"#,
      sources: [#"{"path": "ranges.txt", "format": "patterns", "list": "block"}"#])
    #expect {
      try workspace.exporter().export()
    } throws: { error in
      guard case .tooManyRows(let useCase, let rows, let limit, _) = error as? LiveCallerIDExportError else { return false }
      return useCase == "com.example.lookup.block" && rows == 10_000 && limit == 9999
    }
    #expect(!FileManager.default.fileExists(atPath: workspace.path("out")))
  }

  /// Shards are fixed: a second build that changes a few numbers makes the
  /// export write exactly the shards whose rows changed.
  @Test func aLaterExportWritesOnlyTheShardsWhoseRowsChanged() throws {
    let workspace = try Workspace()
    let settings = #"{"useCase": "com.example.lookup", "block": {"shardCount": 16}, "identity": {"shardCount": 4}}"#
    let numbers = (0..<2000).map { "+1408555\(String(1000 + $0 * 3))" }
    try workspace.build(
      liveCallerID: settings, sources: try Self.sources(workspace, block: numbers, names: "+12125550142,Bank\n"))
    let first = try workspace.exporter().export()
    #expect(first.useCases.map(\.written.count) == [16, 4])
    let before = try workspace.rows("block")

    // One number removed, one added: at most two block shards change.
    var changed = numbers
    let removed = changed.removeFirst()
    changed.append("+14085559999")
    try workspace.build(
      liveCallerID: settings, sources: try Self.sources(workspace, block: changed, names: "+12125550142,Bank\n"),
      asOf: "2026-01-02")
    let second = try workspace.exporter().export()
    let shardOf = { (text: String) in
      KeywordSharding.shard(of: Array(text.replacingOccurrences(of: " ", with: "").utf8), shardCount: 16)
    }
    let expected = Set([shardOf(removed), shardOf("+14085559999")]).sorted()
    #expect(second.useCases[0].written == expected)
    #expect(second.useCases[0].reason.hasPrefix("rows changed since export 1 (version 1)"))
    #expect(second.useCases[1].written.isEmpty)
    #expect(second.useCases[0].commands == expected.map { "PIRProcessDatabase configs/block-\($0).json" })
    let after = try workspace.rows("block")
    #expect(Set(after.keys) == Set(before.keys).subtracting([removed]).union(["+14085559999"]))

    // The same version again: nothing; with --all: everything.
    #expect(try workspace.exporter().export().useCases.allSatisfy { $0.written.isEmpty })
    let all = try workspace.exporter(output: "elsewhere", all: true).export()
    #expect(all.useCases.map(\.written.count) == [16, 4])
    #expect(try workspace.rows("block", output: "elsewhere").keys.sorted() == after.keys.sorted())
  }

  @Test func changingTheShardCountReSizesAndWritesEveryShard() throws {
    let workspace = try Workspace()
    let sources = try Self.sources(workspace, block: ["+14085551212", "+14085551213"], names: "")
    try workspace.build(liveCallerID: #"{"useCase": "a.b", "block": {"shardCount": 2}}"#, sources: sources)
    _ = try workspace.exporter().export()
    // Only the settings change: the build publishes a version all the same.
    let rebuilt = try workspace.build(
      liveCallerID: #"{"useCase": "a.b", "block": {"shardCount": 4}}"#, sources: sources, asOf: "2026-01-02")
    #expect(!rebuilt.unchanged)
    let export = try workspace.exporter().export()
    #expect(export.version == 2)
    #expect(export.useCases[0].written == [0, 1, 2, 3])
    #expect(export.useCases[0].reason.hasPrefix("liveCallerID.block.shardCount changed from 2 to 4"))
    #expect(export.useCases[1].written.isEmpty)
  }

  @Test func anOlderVersionCanBeExportedAndAPrunedOneCannot() throws {
    let workspace = try Workspace()
    let numbers = ["+14085551212", "+14085551213", "+14085551214"]
    for day in 1...3 {
      try workspace.build(
        liveCallerID: #"{"useCase": "a.b"}"#,
        sources: try Self.sources(workspace, block: Array(numbers.prefix(day)), names: ""), asOf: "2026-01-0\(day)")
    }
    let second = try workspace.exporter(version: 2).export()
    #expect(second.version == 2)
    #expect(try workspace.rows("block").keys.sorted() == ["+14085551212", "+14085551213"])
    _ = try StorePruner(store: StoreLayout(root: workspace.path("store"))).prune(keep: 1)
    #expect {
      try workspace.exporter(version: 1).export()
    } throws: { error in
      guard case .versionPruned(1, _) = error as? LiveCallerIDExportError else { return false }
      return true
    }
    #expect {
      try workspace.exporter(version: 9).export()
    } throws: { error in
      guard case .versionNotPublished(9, _) = error as? LiveCallerIDExportError else { return false }
      return true
    }
  }
}

/// By hand, for checking the national keyword form with Apple's tools:
/// `CALLDIR_LCID_NATIONAL_EXPORT=DIR swift test --filter NationalFormExport`
/// builds a store of the numbers ``KnownNationalDigits`` formats and
/// exports it to DIR with both keyword forms (see
/// data/check-live-caller-id.py for the e164 form through the binary).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["CALLDIR_LCID_NATIONAL_EXPORT"] != nil))
struct NationalFormExport {
  @Test func writeAnExportWithNationalRows() throws {
    let output = try #require(ProcessInfo.processInfo.environment["CALLDIR_LCID_NATIONAL_EXPORT"])
    let workspace = try Workspace()
    let numbers = KnownNationalDigits.answers.keys.sorted()
    try workspace.write("block.txt", numbers.prefix(8).map { "+\($0)\n" }.joined())
    try workspace.write("names.csv", "number,name\n" + numbers.suffix(6).map { "+\($0),Caller \($0 % 97)\n" }.joined())
    try workspace.build(
      liveCallerID: #"{"useCase": "com.example.lookup", "keywordForms": ["e164", "national"], "block": {"shardCount": 2}, "identity": {"shardCount": 2}}"#,
      sources: [
        #"{"path": "block.txt", "format": "lines", "list": "block"}"#,
        #"{"path": "names.csv", "format": "csv", "list": "identify", "number": "number", "label": "name", "category": "person"}"#,
      ])
    let export = try LiveCallerIDExporter(
      store: StoreLayout(root: workspace.path("store")), output: output, nationalFormatter: KnownNationalDigits()
    ).export()
    print("NATIONAL-EXPORT \(export.document.serialized())")
  }
}
