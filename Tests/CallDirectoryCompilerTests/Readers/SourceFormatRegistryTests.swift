import Foundation
import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectorySources

@Suite struct SourceFormatRegistryTests {
  @Test func standardFormats() {
    #expect(
      SourceFormatRegistry.standard.names
        == [
          "arcep-majnum", "csv", "fcc-complaints", "fritzbox-phonebook", "ftc-dnc", "json", "jsonl", "lines", "patterns", "tsv",
          "vcard", "xml",
        ])
    #expect(
      SourceFormatRegistry.standard["csv"]?.labels == .column(option: "label"))
    #expect(SourceFormatRegistry.standard["vcard"]?.labels == .intrinsic)
    #expect(
      SourceFormatRegistry.standard["lines"]?.labels == SourceFormat.Labels.none
    )
  }

  @Test func readerForSpec() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/names.csv"
    try Array("phone;name\n+1 555;Acme\n".utf8).write(to: path)
    let spec = SourceSpec(
      index: 0, path: path, format: "csv", list: .identify,
      options: ["number": "phone", "label": "name", "delimiter": ";"])
    let reader = try SourceFormatRegistry.standard.makeReader(for: spec)
    let contents = try reader.readAll()
    #expect(
      contents.records == [
        SourceRecord(number: "+1 555", label: "Acme", line: 2)
      ])
  }

  @Test func unknownFormatAndBadOptions() {
    let unknown = SourceSpec(index: 3, path: "/x", format: "xls", list: .block)
    #expect(
      throws: ConfigError.invalidValue(
        keyPath: "sources[3].format",
        reason: "unknown format 'xls' (expected one of: arcep-majnum, csv, fcc-complaints, fritzbox-phonebook, ftc-dnc, "
          + "json, jsonl, lines, patterns, tsv, vcard, xml)")
    ) {
      try SourceFormatRegistry.standard.makeReader(for: unknown)
    }
    let bad = SourceSpec(
      index: 1, path: "/x", format: "csv", list: .block,
      options: ["number": "n", "delimiter": "ab"])
    #expect(throws: ConfigError.self) {
      try SourceFormatRegistry.standard.makeReader(for: bad)
    }
  }

  @Test func customFormatPlugsIn() throws {
    struct Constant: SourceReader {
      func read(_ body: (SourceEvent) throws -> Void) throws -> SourceSummary {
        let range = try #require(NumberRange(lower: 5, upper: 9))
        try body(.range(SourceRange(range: range, line: 1)))
        return SourceSummary(ranges: 1, physicalLines: 1)
      }
    }
    var registry = SourceFormatRegistry.standard
    registry.register(
      SourceFormat(name: "constant", summary: "test") {
        _, _ throws(SourceOptionError) in
        Constant()
      })
    #expect(registry.names.contains("constant"))
    let config = try BuildConfig.parse(
      Array(
        #"{"sources": [{"path": "a", "format": "constant", "list": "block"}]}"#
          .utf8),
      baseDirectory: "/data", registry: registry)
    let reader = try registry.makeReader(for: config.sources[0])
    #expect(try reader.readAll().ranges.count == 1)
  }
}

extension Array where Element == UInt8 {
  /// Writes the bytes to a file.
  func write(to path: String) throws {
    try Data(self).write(to: URL(fileURLWithPath: path))
  }
}
