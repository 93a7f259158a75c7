import CallDirectorySources

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
    /// `maxInvalidRatio`: the wrong-region guard.
    public static let maxInvalidRatio = 0.5
    /// `deltaHistory`.
    public static let deltaHistory = 7
    /// `maxRangeSize`: 10^9 numbers, a whole 9-digit national range.
    public static let maxRangeSize: Int64 = 1_000_000_000
    /// `maxEntriesPerExtension`: 1.8M, what one extension was seen to load
    /// (2,000,000 failed after 1,990,000; `call-directory.md` §2).
    public static let maxEntriesPerExtension = 1_800_000
    /// The most a config may set: one below CallKit's "maximum allowed
    /// entries" (2,000,000), which a store may not reach.
    public static let extensionEntryLimit = 1_999_999
    /// `maxExtensions`.
    public static let maxExtensions = 20
    /// `fullEvery`: after 30 incremental syncs a phone loads full snapshots.
    public static let fullEvery = 30
    /// The longest `manifestLifetimeDays` a config may set: ten years.
    public static let manifestLifetimeDaysLimit = 3650
  }

  /// The region for national numbers of sources without `region`.
  public var defaultRegion: String
  /// A source fails when more than this fraction of its data lines is
  /// rejected (0…1).
  public var maxRejectRatio: Double
  /// A build fails when it would remove more than this fraction of the
  /// previous snapshot's entries (0…1).
  public var maxRemovalRatio: Double
  /// The wrong-region guard: a build fails when more than this fraction of
  /// a source's numbers written without a country code is invalid for the
  /// source's region (0…1; sources may set their own). Sources with fewer
  /// than ``BuildConfig/wrongRegionMinimum`` such numbers are not judged.
  public var maxInvalidRatio: Double = Defaults.maxInvalidRatio
  /// How many earlier snapshots get delta blobs (0 or more).
  public var deltaHistory: Int
  /// The dataset's name (`dataset`), carried by every blob, the catalog and
  /// the manifest; empty when the config names none.
  public var dataset: String
  /// The most entries one Call Directory extension holds: past it, a
  /// snapshot is sharded across extensions (1…1,999,999).
  public var maxEntriesPerExtension: Int
  /// The most extensions a plan may use.
  public var maxExtensions: Int
  /// The manifest's `fullEvery`.
  public var fullEvery: Int
  /// `manifestLifetimeDays`: every build's manifest expires this many days
  /// after the build (after `--as-of`'s midnight), and phones refuse it
  /// past that; nil for a manifest that never expires.
  public var manifestLifetimeDays: Int?
  /// The Ed25519 key that signs the manifest (`signingKey`, resolved), if any.
  public var signingKey: String?
  /// The most numbers one range or pattern line may hold; a larger one is
  /// rejected, so that no line makes a build, or anything that reads its
  /// output, do unbounded work.
  public var maxRangeSize: Int64
  /// The sources, in config order.
  public var sources: [SourceSpec]
  /// `liveCallerID`: how `calldir export live-caller-id` exports the
  /// versions this config builds (recorded with each); nil without.
  public var liveCallerID: LiveCallerIDSettings?
  /// The directory relative source paths were resolved against.
  public var baseDirectory: String

  /// Creates a config with the documented defaults.
  public init(
    defaultRegion: String = Defaults.region,
    maxRejectRatio: Double = Defaults.maxRejectRatio,
    maxRemovalRatio: Double = Defaults.maxRemovalRatio,
    deltaHistory: Int = Defaults.deltaHistory,
    dataset: String = "",
    maxEntriesPerExtension: Int = Defaults.maxEntriesPerExtension,
    maxExtensions: Int = Defaults.maxExtensions,
    fullEvery: Int = Defaults.fullEvery,
    manifestLifetimeDays: Int? = nil,
    signingKey: String? = nil,
    maxRangeSize: Int64 = Defaults.maxRangeSize,
    sources: [SourceSpec] = [],
    baseDirectory: String = "/"
  ) {
    self.defaultRegion = defaultRegion
    self.maxRejectRatio = maxRejectRatio
    self.maxRemovalRatio = maxRemovalRatio
    self.deltaHistory = deltaHistory
    self.dataset = dataset
    self.maxEntriesPerExtension = maxEntriesPerExtension
    self.maxExtensions = maxExtensions
    self.fullEvery = fullEvery
    self.manifestLifetimeDays = manifestLifetimeDays
    self.signingKey = signingKey
    self.maxRangeSize = maxRangeSize
    self.sources = sources
    self.baseDirectory = baseDirectory
  }
}

extension BuildConfig {
  /// The fewest numbers written without a country code the wrong-region
  /// guard judges a source by.
  public static let wrongRegionMinimum = 5
}
