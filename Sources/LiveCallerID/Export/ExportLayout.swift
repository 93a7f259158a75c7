import CallDirectoryCompiler
import CalldirSystem

/// Where an export puts its files, relative to the output directory, which
/// is where the listed commands run (every path in the configs is relative
/// to it):
///
///     OUT/export.json                      what the export wrote (schemas/export.schema.json)
///     OUT/commands.txt                     the PIRProcessDatabase command lines of the shards written
///     OUT/service-config.json              the `usecases` section of Apple's example PIRService
///     OUT/inputs/block-3.binpb             shard 3's KeywordDatabase rows
///     OUT/configs/block-3.json             its PIRProcessDatabase config
///     OUT/processed/block-3.bin            what PIRProcessDatabase makes of it (and block-3.params.txtpb)
///
/// The file stem of a use case is `processed/block` or
/// `processed/identity`; `SHARD_ID` is the shard's index without padding,
/// as the tool and the server spell it.
public enum ExportLayout {
  public static let document = "export.json"
  public static let commands = "commands.txt"
  public static let serviceConfig = "service-config.json"
  public static let inputs = "inputs"
  public static let configs = "configs"
  public static let processed = "processed"
  /// The export's scratch directory in the output (`.calldir-export-PID`).
  static let scratchPrefix = ".calldir-export-"

  static func input(_ useCase: UseCaseKind, shard: Int) -> String { "\(inputs)/\(useCase.rawValue)-\(shard).binpb" }
  static func config(_ useCase: UseCaseKind, shard: Int) -> String { "\(configs)/\(useCase.rawValue)-\(shard).json" }
  /// The stem of the processed files (`PIRService`'s `fileStem`).
  static func fileStem(_ useCase: UseCaseKind) -> String { "\(processed)/\(useCase.rawValue)" }

  /// The command that processes one shard, run from the output directory.
  static func command(_ useCase: UseCaseKind, shard: Int) -> String {
    "PIRProcessDatabase \(config(useCase, shard: shard))"
  }

  /// A shard's `PIRProcessDatabase` config: keyword database, the shard's
  /// input, the use case's fixed shard count, `sha256` sharding and cuckoo
  /// table, so that processing the input alone makes exactly this shard's
  /// files, with the parameters every other shard has. Keys are those
  /// `PIRProcessDatabase` (swift-homomorphic-encryption 6867588) reads;
  /// `"shardingFunction": {"sha256": null}` is how the tool itself writes
  /// the `sha256` function.
  static func processConfig(
    _ useCase: UseCaseKind, shard: Int, shardCount: Int, sizing: CuckooSizing, settings: LiveCallerIDSettings
  ) -> JSONValue {
    [
      "databaseType": "keyword",
      "inputDatabase": .string(input(useCase, shard: shard)),
      "outputDatabase": .string("\(fileStem(useCase))-SHARD_ID.bin"),
      "outputPirParameters": .string("\(fileStem(useCase))-SHARD_ID.params.txtpb"),
      "rlweParameters": .string(settings.rlweParameters.name),
      "sharding": ["shardCount": .int(Int64(shardCount))],
      "shardingFunction": [KeywordSharding.name: .null],
      "trialsPerShard": .int(Int64(settings.trialsPerShard)),
      "cuckooTableArguments": [
        "hashFunctionCount": .int(Int64(CuckooSizing.hashFunctionCount)),
        "maxEvictionCount": .int(Int64(CuckooSizing.maxEvictionCount)),
        "maxSerializedBucketSize": .int(Int64(sizing.maxSerializedBucketSize)),
        "bucketCount": ["fixedSize": ["bucketCount": .int(Int64(sizing.bucketCount))]],
      ],
    ]
  }

  /// The `usecases` section of Apple's example `PIRService` config: per
  /// use case its name (`<useCase>.block`), file stem and shard count.
  static func serviceConfig(_ useCases: [(kind: UseCaseKind, name: String, shardCount: Int)]) -> JSONValue {
    [
      "usecases": .array(
        useCases.map { useCase in
          [
            "fileStem": .string(fileStem(useCase.kind)),
            "shardCount": .int(Int64(useCase.shardCount)),
            "name": .string(useCase.name),
          ]
        })
    ]
  }

  /// A JSON document as a file: its compact serialization and a line feed
  /// (as `--json` prints it).
  static func fileBytes(_ value: JSONValue) -> [UInt8] {
    var bytes: [UInt8] = []
    value.serialize(into: &bytes)
    bytes.append(UInt8(ascii: "\n"))
    return bytes
  }
}
