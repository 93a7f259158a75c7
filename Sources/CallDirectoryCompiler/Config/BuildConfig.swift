/// A validated `calldir` build config: global limits and the sources.
///
/// Load it with ``load(contentsOf:registry:checkFiles:)``; see
/// `schemas/config.schema.json` for every key.
///
///     let config = try BuildConfig.load(contentsOf: "calldir.json")
///     for spec in config.sources {
///       let reader = try SourceFormatRegistry.standard.makeReader(for: spec)
///       …
///     }
public struct BuildConfig: Sendable, Hashable {
  /// The values of keys a config omits.
  public enum Defaults {
    /// `defaultRegion`: `ZZ`, no region, so only numbers written in
    /// international form are accepted.
    public static let region = "ZZ"
    /// `maxRejectRatio`.
    public static let maxRejectRatio = 0.5
    /// `maxRemovalRatio`.
    public static let maxRemovalRatio = 0.25
    /// `deltaHistory`.
    public static let deltaHistory = 7
    /// `maxRangeSize`: 10^9 numbers, a whole 9-digit national range.
    public static let maxRangeSize: Int64 = 1_000_000_000
  }

  /// The region for national numbers of sources without `region`.
  public var defaultRegion: String
  /// A source fails when more than this fraction of its data lines is
  /// rejected (0…1).
  public var maxRejectRatio: Double
  /// A build fails when it would remove more than this fraction of the
  /// previous snapshot's entries (0…1).
  public var maxRemovalRatio: Double
  /// How many earlier snapshots get delta blobs (0 or more).
  public var deltaHistory: Int
  /// The most entries one Call Directory extension may hold (1 or more).
  public var maxEntriesPerExtension: Int?
  /// The most numbers one range or pattern line may hold; a larger one is
  /// rejected, so that no line makes a build, or anything that reads its
  /// output, do unbounded work.
  public var maxRangeSize: Int64
  /// The sources, in config order.
  public var sources: [SourceSpec]
  /// The directory relative source paths were resolved against.
  public var baseDirectory: String

  /// Creates a config with the documented defaults.
  public init(
    defaultRegion: String = Defaults.region,
    maxRejectRatio: Double = Defaults.maxRejectRatio,
    maxRemovalRatio: Double = Defaults.maxRemovalRatio,
    deltaHistory: Int = Defaults.deltaHistory,
    maxEntriesPerExtension: Int? = nil,
    maxRangeSize: Int64 = Defaults.maxRangeSize,
    sources: [SourceSpec] = [],
    baseDirectory: String = "/"
  ) {
    self.defaultRegion = defaultRegion
    self.maxRejectRatio = maxRejectRatio
    self.maxRemovalRatio = maxRemovalRatio
    self.deltaHistory = deltaHistory
    self.maxEntriesPerExtension = maxEntriesPerExtension
    self.maxRangeSize = maxRangeSize
    self.sources = sources
    self.baseDirectory = baseDirectory
  }
}
