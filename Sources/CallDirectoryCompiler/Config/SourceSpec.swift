import CallDirectorySources

/// One entry of a config's `sources` array, validated and resolved.
public struct SourceSpec: Sendable, Hashable {
  /// The position in `sources`, for messages (`sources[2]`).
  public var index: Int
  /// The file path, resolved against the config file's directory.
  public var path: String
  /// The path exactly as the config writes it: reports and `explain` name
  /// the source this way, whatever the working directory.
  public var writtenPath: String
  /// The format name, registered in the registry the config was parsed
  /// with.
  public var format: String
  /// The list the source feeds.
  public var list: SourceList
  /// The region for national numbers: two uppercase letters, or `ZZ` (none;
  /// only international numbers). Falls back to the config's
  /// `defaultRegion`.
  public var region: String
  /// Higher wins when sources give different labels for one number
  /// (default 0).
  public var priority: Int
  /// Whether ``region`` is the config's `defaultRegion` (the source sets
  /// none, and its format no region of its own): a region the plan lacks
  /// is then the config's error, reported at `defaultRegion`.
  public var regionIsDefault = false
  /// Format-specific options (`number`, `label`, `delimiter`, …).
  public var options: SourceOptions
  /// The source's own removal guard: a build fails when the source gives
  /// more than this fraction fewer numbers than in the previous version;
  /// nil falls back to the config's `maxRemovalRatio`.
  public var maxRemovalRatio: Double?
  /// Which reports count and which label wins (`minReports`,
  /// `maxAgeDays`, `labelPolicy`).
  public var evidence = EvidenceRules()
  /// `require`, `types` and the source's `maxInvalidRatio`.
  public var numberRules = NumberRules()
  /// What kind of caller an identify source names (`category`), for Live
  /// Caller ID Lookup: the category of each entry whose label it gives.
  public var category = IdentityCategory.unspecified
  /// The HEIC icon of the callers an identify source names (`icon`),
  /// resolved against the config file's directory; nil for none.
  public var icon: String?
  /// `icon` exactly as the config writes it.
  public var writtenIcon: String?
  /// Whether another source of the config reads the same file (one file
  /// feeding two lists): ``shownName`` then names the list too.
  public var sharesPath = false

  /// Creates a spec.
  public init(
    index: Int, path: String, format: String, list: SourceList,
    region: String = BuildConfig.Defaults.region, priority: Int = 0,
    options: SourceOptions = [:], writtenPath: String? = nil, maxRemovalRatio: Double? = nil
  ) {
    self.index = index
    self.path = path
    self.writtenPath = writtenPath ?? path
    self.maxRemovalRatio = maxRemovalRatio
    self.format = format
    self.list = list
    self.region = region
    self.priority = priority
    self.options = options
  }

  /// The number column or key (`csv`, `tsv`, `jsonl`, `json`); the first one when
  /// a delimited source names several.
  public var number: String? { options["number"] ?? options[value: "number"]?.strings?.first }
  /// The label column or key, if any.
  public var label: String? { options["label"] }
  /// The source as guard messages name it: ``writtenPath``, with its list
  /// when another source reads the same file (`both.txt (block list)`).
  public var shownName: String { sharesPath ? "\(writtenPath) (\(list.rawValue) list)" : writtenPath }
  /// `sources[N]`, the key path for messages.
  public var keyPath: String { "sources[\(index)]" }
  /// The key that set ``region``: `sources[N].region`, or `defaultRegion`.
  public var regionKeyPath: String { regionIsDefault ? "defaultRegion" : "\(keyPath).region" }
  /// The file as a reader input.
  public var input: SourceInput { .file(path: path) }
  /// The column whose dates the evidence rules read, if any.
  public var dateColumn: String? { options["dateColumn"] }
  /// Whether the source's records go through the evidence rules (counted
  /// per number, dated, labels chosen) rather than straight into the lists.
  public var weighsEvidence: Bool { !evidence.isDefault || dateColumn != nil }
}
