/// The device a sync loads into, as the sync engine (``SyncCoordinator``)
/// sees it: what each Call Directory extension holds, a reservation that
/// keeps other loads out of an extension, the plan of a blob's load made
/// exactly as the extension's provider will serve it, the load itself
/// (placing the blob and asking the system to reload the extension), and
/// the record of a version whose content the extension holds already.
///
/// `calldir device sync` implements it over its simulated device
/// (`CalldirDevice`'s `DeviceSyncReloader`: CallKitMock's reload of the
/// extension, its provider's state in the extension's container, calls
/// that block until done); an app, over `CXCallDirectoryManager` and its
/// app-group container (the example app's `AppGroupReloader`, whose load
/// awaits `reloadExtension`). The methods are `async`: a synchronous
/// method meets the requirement.
public protocol SyncReloader {
  /// One extension held for the sync: no other load or sync changes it
  /// until ``release(_:)``.
  associatedtype Reservation
  /// One extension's load, planned before anything changes.
  associatedtype PlannedLoad
  /// What one extension's load did (what the caller reports).
  associatedtype LoadResult
  /// Why the device refused or failed a step.
  associatedtype Failure: Error

  /// What each installed extension holds by its own record (its
  /// provider's state: version and content digest), by index; nil for an
  /// extension whose content is unknown or that holds nothing, so that it
  /// is never judged unchanged (see
  /// ``SyncSession/plan(_:held:allowingDowngrade:)``).
  func heldSnapshots() async throws(Failure) -> [Int: HeldSnapshot?]

  /// Refuses a verified manifest the device cannot take, before anything
  /// is downloaded (an app with fewer extensions than the dataset). The
  /// default takes every manifest.
  func accept(_ manifest: Manifest) throws(Failure)

  /// Reserves extension `index` for the sync until ``release(_:)``.
  ///
  /// - Throws: The device's failure; another load or sync holding the
  ///   extension included (CallKit's `currentlyLoading`), or an extension
  ///   the user turned off.
  func reserve(extension index: Int) async throws(Failure) -> Reservation

  /// Releases a reservation.
  func release(_ reservation: Reservation)

  /// Plans loading the blob at `path` (a staged, verified file) into
  /// extension `index` exactly as its provider will serve the request.
  /// Nothing changes on the device.
  ///
  /// - Throws: The refusal: ``unfitReason(_:)`` tells one saying the blob
  ///   does not fit what the extension holds.
  func planLoad(ofBlobAt path: String, intoExtension index: Int) async throws(Failure) -> PlannedLoad

  /// Why a blob does not fit the extension, when `failure` is that
  /// refusal of ``planLoad(ofBlobAt:intoExtension:)`` (a delta on another
  /// base, or for an extension whose last outcome is unknown); nil for any
  /// other failure.
  func unfitReason(_ failure: Failure) -> String?

  /// Runs a planned load under the extension's reservation: places the
  /// blob, reloads the extension once and settles its provider's state by
  /// the reload's outcome (the extension records it itself; one stopped
  /// before it could is settled by whether the request committed).
  ///
  /// - Throws: Why the extension does not hold the load's target (the
  ///   request failed, or its outcome could not be made durable, or a
  ///   request that committed left it holding another snapshot): the
  ///   engine asks ``recovery(after:)`` what to do about it.
  func load(_ load: PlannedLoad, intoExtension index: Int, under reservation: Reservation) async throws(Failure)
    -> LoadResult

  /// What the engine does about a failed ``load(_:intoExtension:under:)``:
  /// reload again after a wait (``ReloadRecovery/retry``, up to the
  /// engine's ``ReloadRetryPolicy``), load the full snapshot instead of a
  /// delta (``ReloadRecovery/reloadWithFullSnapshot``), or stop. The
  /// default stops.
  func recovery(after failure: Failure) -> ReloadRecovery

  /// Records that extension `index` holds version `version` of the
  /// content whose digest is `digest` (lowercase hex), without a reload:
  /// an extension whose content the manifest left as it was. No request
  /// runs; only its provider's state takes the version.
  ///
  /// - Returns: `false` when the extension does not hold that content
  ///   (it changed since the sync planned, or `digest` is no digest): the
  ///   sync plans again.
  func recordSameContent(
    extension index: Int, version: Int, digest: String, under reservation: Reservation
  ) async throws(Failure) -> Bool
}

extension SyncReloader {
  public func accept(_ manifest: Manifest) throws(Failure) {}

  public func recovery(after failure: Failure) -> ReloadRecovery { .stop }
}

/// Why a ``SyncCoordinator`` run stopped: a step of the sync itself (the
/// manifest, the source, the sync's own files) or the device's.
public enum SyncRunError<DeviceFailure: Error>: Error {
  /// The manifest, the source or the sync directory (``SyncError``).
  case sync(SyncError)
  /// The device refused or failed a reservation, a load's plan, a load or
  /// a record (``SyncReloader/Failure``).
  case device(DeviceFailure)
  /// The task running the sync was cancelled (an app's background task
  /// ran out of time): the run stopped before its next load or between two
  /// reload attempts, and recorded nothing.
  case cancelled
}

/// What a ``SyncCoordinator`` run did.
public struct SyncRun<LoadResult> {
  /// The verified manifest's plan, and the state before.
  public var planned: PlannedSync
  /// The staged files; nil when nothing was loaded (the device up to
  /// date, or only its state left to record).
  public var staged: StagedSync?
  /// Each loaded extension's result, by index.
  public var results: [Int: LoadResult]
  /// The state recorded (or kept, when up to date).
  public var state: SyncState?

  public init(planned: PlannedSync, staged: StagedSync?, results: [Int: LoadResult], state: SyncState?) {
    self.planned = planned
    self.staged = staged
    self.results = results
    self.state = state
  }
}
