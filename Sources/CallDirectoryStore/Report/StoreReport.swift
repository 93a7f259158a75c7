import CallDirectoryCompiler

/// What a store's dataset looks like over time, gathered from its catalog
/// and its latest snapshot by ``StoreReportGatherer``: plain values, so it
/// can be checked without rendering, printed as JSON, or rendered as a page
/// by ``ReportPageRenderer``.
public struct StoreReport: Sendable, Hashable {
  /// The most entries (blocking plus identification) one Call Directory
  /// extension can hold.
  public static let extensionEntryLimit = 2_000_000
  /// The fill of an extension past which it is shown as a warning.
  public static let fillWarningRatio = 0.9

  /// The store directory as the user named it.
  public var store: String
  /// The dataset the latest version publishes (the config's `dataset`);
  /// empty when the store has none (built before datasets, or unnamed).
  public var dataset: String
  /// Every published version, oldest first.
  public var versions: [Version]
  /// Every build a guard refused, oldest first.
  public var refusals: [Refusal]
  /// The latest version's composition, sources and extensions; nil when
  /// nothing was published yet.
  public var latest: Latest?

  /// When the facts were current: the latest version's `createdAt` (never
  /// the wall clock, so that the same store gives the same report).
  public var generatedAt: String? { versions.last?.createdAt }

  /// What the report is titled by: the dataset, or the store's folder
  /// when the dataset has no name.
  public var title: String { dataset.isEmpty ? store : dataset }

  public init(store: String, dataset: String = "", versions: [Version], refusals: [Refusal], latest: Latest?) {
    self.store = store
    self.dataset = dataset
    self.versions = versions
    self.refusals = refusals
    self.latest = latest
  }

  /// One published version.
  public struct Version: Sendable, Hashable {
    public var version: Int
    /// ISO 8601 UTC.
    public var createdAt: String
    public var blocking: Int
    public var identification: Int
    public var labels: Int
    public var rejected: Int
    /// The size of the full snapshot blob.
    public var bytes: Int64
    /// Published with `--force`.
    public var forced: Bool
    /// Entries added and removed against the previous version; nil when
    /// not recorded (the first version, or one published by a calldir
    /// before catalog schema 2).
    public var changes: ListChanges?

    public init(
      version: Int, createdAt: String, blocking: Int, identification: Int, labels: Int, rejected: Int,
      bytes: Int64, forced: Bool, changes: ListChanges?
    ) {
      self.version = version
      self.createdAt = createdAt
      self.blocking = blocking
      self.identification = identification
      self.labels = labels
      self.rejected = rejected
      self.bytes = bytes
      self.forced = forced
      self.changes = changes
    }
  }

  /// A build a guard refused: nothing was published.
  public struct Refusal: Sendable, Hashable {
    /// ISO 8601 UTC.
    public var attemptedAt: String
    /// The version the build would have published.
    public var version: Int
    /// What refused it (``BuildRefusal/Kind``'s raw value).
    public var kind: String
    public var message: String
    /// The source at fault, as the config writes it.
    public var source: String?

    public init(attemptedAt: String, version: Int, kind: String, message: String, source: String?) {
      self.attemptedAt = attemptedAt
      self.version = version
      self.kind = kind
      self.message = message
      self.source = source
    }
  }

  /// The latest version in detail.
  public struct Latest: Sendable, Hashable {
    public var version: Int
    /// ISO 8601 UTC.
    public var createdAt: String
    /// Entries per country calling code, most entries first (then by code).
    public var callingCodes: [CallingCodeCount]
    /// Entries whose first 1–3 digits are no calling code.
    public var noCallingCode: EntryCounts
    /// The sources of the version, in config order.
    public var sources: [Source]
    /// The extensions that load the version: one per shard, or one holding
    /// every entry when the version was not sharded.
    public var extensions: [ExtensionFill]

    public init(
      version: Int, createdAt: String, callingCodes: [CallingCodeCount], noCallingCode: EntryCounts,
      sources: [Source], extensions: [ExtensionFill]
    ) {
      self.version = version
      self.createdAt = createdAt
      self.callingCodes = callingCodes
      self.noCallingCode = noCallingCode
      self.sources = sources
      self.extensions = extensions
    }
  }

  /// Blocking and identification entries.
  public struct EntryCounts: Sendable, Hashable {
    public var blocking: Int
    public var identification: Int
    public var total: Int { blocking + identification }

    public init(blocking: Int = 0, identification: Int = 0) {
      self.blocking = blocking
      self.identification = identification
    }
  }

  /// The entries of one country calling code.
  public struct CallingCodeCount: Sendable, Hashable {
    /// The calling code, e.g. 41.
    public var callingCode: Int
    /// The code's main region (`CH` for +41, `US` for +1), or `001` for a
    /// non-geographic code such as +800.
    public var region: String
    public var counts: EntryCounts

    public init(callingCode: Int, region: String, counts: EntryCounts) {
      self.callingCode = callingCode
      self.region = region
      self.counts = counts
    }
  }

  /// One source's contribution to the latest version.
  public struct Source: Sendable, Hashable {
    /// The index in the config's sources.
    public var position: Int
    /// The path as the config writes it.
    public var path: String
    /// `block`, `identify` or `allow`.
    public var list: String
    public var format: String
    /// The default region of its numbers (`ZZ` for none).
    public var region: String
    public var dataLines: Int
    public var accepted: Int
    public var rejected: Int
    /// Distinct numbers, repeats and entries only it gives; nil when not
    /// recorded (before catalog schema 2).
    public var contribution: SourceContribution?
    /// Its file was missing (published with `--force`).
    public var isMissing: Bool
    /// Its rejected lines by reason, most first (then by reason).
    public var rejectReasons: [RejectReason]

    public init(
      position: Int, path: String, list: String, format: String, region: String, dataLines: Int, accepted: Int,
      rejected: Int, contribution: SourceContribution?, isMissing: Bool, rejectReasons: [RejectReason]
    ) {
      self.position = position
      self.path = path
      self.list = list
      self.format = format
      self.region = region
      self.dataLines = dataLines
      self.accepted = accepted
      self.rejected = rejected
      self.contribution = contribution
      self.isMissing = isMissing
      self.rejectReasons = rejectReasons
    }
  }

  /// How many of a source's lines were rejected for one reason.
  public struct RejectReason: Sendable, Hashable {
    public var reason: String
    public var count: Int

    public init(reason: String, count: Int) {
      self.reason = reason
      self.count = count
    }
  }

  /// How full one extension is.
  public struct ExtensionFill: Sendable, Hashable {
    /// The shard (1-based), or nil for an unsharded version.
    public var shard: Int?
    /// The numbers the shard covers (inclusive); nil when unsharded.
    public var lowerBound: Int64?
    public var upperBound: Int64?
    public var counts: EntryCounts

    /// Its entries as a share of ``StoreReport/extensionEntryLimit``.
    public var fill: Double { Double(counts.total) / Double(StoreReport.extensionEntryLimit) }
    /// Whether it is past ``StoreReport/fillWarningRatio``.
    public var isNearLimit: Bool { fill > StoreReport.fillWarningRatio }

    public init(shard: Int?, lowerBound: Int64?, upperBound: Int64?, counts: EntryCounts) {
      self.shard = shard
      self.lowerBound = lowerBound
      self.upperBound = upperBound
      self.counts = counts
    }
  }
}
