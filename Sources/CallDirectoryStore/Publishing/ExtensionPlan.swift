import CallDirectoryFormat
import CallDirectorySync

/// Which numbers one Call Directory extension holds, how long iOS takes to
/// load it whole, and what a device one version behind reloads of it.
public struct ExtensionPlan: Sendable, Hashable {
  /// 1, 2, … (one per shard; an unsharded snapshot is extension 1).
  public var index: Int
  public var lower: Int64
  public var upper: Int64
  public var blocking: Int
  public var identification: Int
  /// What a device that holds the previous version reloads of the
  /// extension to reach this one; nil for a store's first version.
  public var oneVersionBehind: ReloadForecast? = nil

  public var entries: Int { blocking + identification }

  /// Seconds a reload of the whole extension takes on a phone, at the
  /// ~9 µs per entry measured on an iPhone 14 (15–16 s for 1.8M entries,
  /// `call-directory.md` §2; ``ReloadCost``).
  public var estimatedReloadSeconds: Double { ReloadCost.seconds(entries: entries) }

  /// Measured on an iPhone 14, iOS 26 (``ReloadCost/secondsPerEntry``).
  public static let secondsPerEntry = ReloadCost.secondsPerEntry

  /// The plan of a version: its shards, or one extension holding everything.
  static func plan(shards: [ShardRecord], blocking: Int, identification: Int) -> [ExtensionPlan] {
    guard !shards.isEmpty else {
      return [ExtensionPlan(index: 1, lower: 1, upper: BlobLimits.maxNumber, blocking: blocking, identification: identification)]
    }
    return shards.map {
      ExtensionPlan(
        index: $0.shard, lower: $0.lowerBound, upper: $0.upperBound, blocking: $0.blocking,
        identification: $0.identification)
    }
  }
}
