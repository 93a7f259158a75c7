import CalldirSystem
import Foundation
import Testing

/// Golden files for the `--json` documents: each line a command prints is
/// validated against its schema (`schemas/output/<name>.schema.json`),
/// then compared, with the scratch directory and a few volatile members
/// normalized, to `Tests/EndToEndTests/Fixtures/goldens/<golden>.jsonl`.
///
/// `CALLDIR_UPDATE_GOLDENS=1 swift test --filter JSONOutputGoldenTests`
/// rewrites the golden files from what the binary prints (review the diff).
enum JSONGoldens {
  static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// Members whose values change from run to run (wall-clock times,
  /// durations, memory, fresh keys): replaced by `"<volatile>"` unless null.
  static let volatileMembers: Set<String> = [
    "createdAt", "generatedAt", "attemptedAt", "lastLoad", "lastSuccessfulLoad", "durationSeconds",
    "peakMemoryBytes", "baselineMemoryBytes", "publicKeyBase64",
  ]

  /// The schema `name` (`schemas/output/NAME.schema.json`, or a path under `schemas/`).
  static func schema(_ name: String) throws -> JSONSchemaValidator {
    let path = name.hasSuffix(".json") ? "schemas/\(name)" : "schemas/output/\(name).schema.json"
    return try JSONSchemaValidator(contentsOf: repositoryRoot.appendingPathComponent(path))
  }

  /// Validates every line of `output` against `schema` and compares the
  /// normalized lines to the golden file `golden`.
  static func check(
    _ output: String, schema name: String, golden: String, scratch: TemporaryDirectory,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let validator = try schema(name)
    let lines = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    try #require(!lines.isEmpty && output.hasSuffix("\n"), "no JSON lines: \(output)", sourceLocation: sourceLocation)
    var normalized = ""
    for line in lines {
      let document = try JSONParser.parse(String(line))
      let violations = try validator.violations(of: document)
      #expect(violations.isEmpty, "\(name): \(violations) in \(line)", sourceLocation: sourceLocation)
      normalized += normalize(document, scratch: scratch.url.path).serialized() + "\n"
    }
    let file = repositoryRoot.appendingPathComponent("Tests/EndToEndTests/Fixtures/goldens/\(golden).jsonl")
    if ProcessInfo.processInfo.environment["CALLDIR_UPDATE_GOLDENS"] == "1" {
      try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(normalized.utf8).write(to: file)
      return
    }
    let expected = String(decoding: try Data(contentsOf: file), as: UTF8.self)
    #expect(normalized == expected, "\(golden).jsonl differs:\n\(normalized)", sourceLocation: sourceLocation)
  }

  /// `document` with the scratch directory written `$SCRATCH` and the
  /// volatile members' values `"<volatile>"`.
  static func normalize(_ document: JSONValue, scratch: String) -> JSONValue {
    switch document {
    case .string(let text): return .string(text.replacingOccurrences(of: scratch, with: "$SCRATCH"))
    case .array(let elements): return .array(elements.map { normalize($0, scratch: scratch) })
    case .object(let members):
      return .object(members.map { member in
        if volatileMembers.contains(member.key) && !member.value.isNull { return (member.key, "<volatile>") }
        return (member.key, normalize(member.value, scratch: scratch))
      })
    default: return document
    }
  }
}
