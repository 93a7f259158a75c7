import CallDirectoryCompiler
import CalldirSystem

/// What an export wrote: `export.json` (``document``, specified in
/// `schemas/export.schema.json`), which `--json` prints too.
public struct LiveCallerIDExport: Sendable {
  /// A file the export wrote, relative to the output directory.
  public struct File: Sendable, Hashable {
    public var path: String
    public var bytes: Int
    /// SHA-256 (hex) of its bytes.
    public var sha256: String

    var json: JSONValue { ["path": .string(path), "bytes": .int(Int64(bytes)), "sha256": .string(sha256)] }
  }

  /// One use case.
  public struct UseCase: Sendable {
    public var kind: UseCaseKind
    /// `<useCase>.block` or `<useCase>.identity`.
    public var name: String
    public var shardCount: Int
    /// Rows per keyword form, in the settings' order.
    public var keywords: [(form: LiveCallerIDSettings.KeywordForm, count: Int)]
    /// Numbers left without a national row: another number shares it.
    public var sharedNational: Int
    public var paddingRows: Int
    /// The shards whose files this export wrote, ascending.
    public var written: [Int]
    /// Why those.
    public var reason: String
    public var sizing: CuckooSizing
    /// Whether this export sized the use case (the first time, or re-sized).
    public var resized: Bool
    public var settings: LiveCallerIDSettings
    public var files: [File]
    /// The `PIRProcessDatabase` command lines of the shards written, run
    /// from the output directory.
    public var commands: [String]
    /// The use case's processed database, every shard.
    public var estimate: ProcessingEstimate
    /// Processing the shards written.
    public var writtenEstimate: ProcessingEstimate

    /// Rows of numbers (every form), padding left out.
    public var keywordRows: Int { keywords.reduce(0) { $0 + $1.count } }
    /// Every row of the inputs, padding included.
    public var rows: Int { keywordRows + paddingRows }

    var json: JSONValue {
      [
        "name": .string(name),
        "kind": .string(kind.rawValue),
        "fileStem": .string(ExportLayout.fileStem(kind)),
        "shardCount": .int(Int64(shardCount)),
        "shardingFunction": .string(KeywordSharding.name),
        "rows": .int(Int64(rows)),
        "keywords": .object(keywords.map { ($0.form.rawValue, .int(Int64($0.count))) }),
        "sharedNationalDigits": .int(Int64(sharedNational)),
        "paddingRows": .int(Int64(paddingRows)),
        "shardsWritten": [
          "indices": .array(written.map { .int(Int64($0)) }),
          "reason": .string(reason),
        ],
        "parameters": [
          "rlweParameters": .string(settings.rlweParameters.name),
          "trialsPerShard": .int(Int64(settings.trialsPerShard)),
          "hashFunctionCount": .int(Int64(CuckooSizing.hashFunctionCount)),
          "bucketCount": .int(Int64(sizing.bucketCount)),
          "maxSerializedBucketSize": .int(Int64(sizing.maxSerializedBucketSize)),
          "resized": .bool(resized),
        ],
        "files": .array(files.map(\.json)),
        "commands": .array(commands.map { .string($0) }),
        "estimatedProcessedBytes": .int(Int64(estimate.processedBytes)),
        "estimatedProcessingSeconds": .double((writtenEstimate.seconds * 10).rounded(.up) / 10),
      ]
    }
  }

  public var dataset: String
  public var version: Int
  public var keywordForms: [LiveCallerIDSettings.KeywordForm]
  public var useCases: [UseCase]
  /// `service-config.json`.
  public var serviceConfig: File
  /// The output directory, absolute.
  public var output: String

  /// `export.json`: the same document for the same store and version,
  /// byte for byte (it holds no time and no absolute path).
  public var document: JSONValue {
    [
      "dataset": .string(dataset),
      "version": .int(Int64(version)),
      "keywordForms": .array(keywordForms.map { .string($0.rawValue) }),
      "useCases": .array(useCases.map(\.json)),
      "serviceConfig": serviceConfig.json,
      "commandsFile": .string(ExportLayout.commands),
    ]
  }
}
