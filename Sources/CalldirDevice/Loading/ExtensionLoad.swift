import CallDirectoryProvider
import CallKitMock

/// One extension's part of a load, planned before anything changes
/// (``DeviceLoader/plan(_:forExtension:)``).
public struct ExtensionLoad: Sendable {
  /// The extension's index (1-based).
  public let index: Int
  /// Its identifier.
  public let identifier: String
  /// The blob it is given.
  public let candidate: BlobCandidate
  /// How its provider will serve the request, as ``LoadPlanner`` decides.
  public let plan: LoadPlan
  /// The extension's status before the load; nil when not installed.
  public let status: ExtensionStatus?
  /// The provider's state before the load.
  public let previous: ProviderState
  /// Where the provider keeps its blobs and state; nil until installed.
  let layout: ProviderLayout?

  /// The blob's path.
  public var file: String { candidate.path }

  /// The entries the request adds or removes (`CallDirectorySync`'s
  /// `ReloadCost`): the blob's (every entry of a full snapshot, a delta's
  /// adds plus removes), none when the extension is up to date.
  public var reloadEntries: Int {
    plan.blob.map { Int(clamping: $0.header.reloadEntries) } ?? 0
  }
}

/// What one extension's request did (``DeviceLoader/load(_:under:)``).
public struct ExtensionLoadResult: Sendable {
  /// The planned load.
  public let load: ExtensionLoad
  /// The system's report of the request.
  public let report: ReloadReport
  /// The provider state the extension now has.
  public let state: ProviderState
  /// Why the load failed: the request, or recording its outcome; nil when
  /// the extension holds the plan's target.
  public let failure: DeviceLoadError?
}
