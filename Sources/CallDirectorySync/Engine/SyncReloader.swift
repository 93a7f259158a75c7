/// The device a sync loads into, as the sync engine (``SyncCoordinator``)
/// sees it: what each Call Directory extension holds, a reservation that
/// keeps other loads out of an extension, the plan of a blob's load made
/// exactly as the extension's provider will serve it, the load itself
/// (placing the blob and asking the system to reload the extension), and
/// the record of a version whose content the extension holds already.
///
/// `calldir device sync` implements it over its simulated device
/// (`CalldirDevice`'s `DeviceSyncReloader`: CallKitMock's reload of the
/// extension, its provider's state in the extension's container); an app,
/// over `CXCallDirectoryManager` and its app-group container. Calls block
/// until done.
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
  func heldSnapshots() throws(Failure) -> [Int: HeldSnapshot?]

  /// Reserves extension `index` for the sync until ``release(_:)``.
  ///
  /// - Throws: The device's failure; another load or sync holding the
  ///   extension included (CallKit's `currentlyLoading`).
  func reserve(extension index: Int) throws(Failure) -> Reservation

  /// Releases a reservation.
  func release(_ reservation: Reservation)

  /// Plans loading the blob at `path` (a staged, verified file) into
  /// extension `index` exactly as its provider will serve the request.
  /// Nothing changes on the device.
  ///
  /// - Throws: The refusal: ``unfitReason(_:)`` tells one saying the blob
  ///   does not fit what the extension holds.
  func planLoad(ofBlobAt path: String, intoExtension index: Int) throws(Failure) -> PlannedLoad

  /// Why a blob does not fit the extension, when `failure` is that
  /// refusal of ``planLoad(ofBlobAt:intoExtension:)`` (a delta on another
  /// base, or for an extension whose last outcome is unknown); nil for any
  /// other failure.
  func unfitReason(_ failure: Failure) -> String?

  /// Runs a planned load under the extension's reservation: places the
  /// blob, reloads the extension and records the outcome in its
  /// provider's state.
  ///
  /// - Throws: Why the extension does not hold the load's target (the
  ///   request failed, or its outcome could not be made durable).
  func load(_ load: PlannedLoad, intoExtension index: Int, under reservation: Reservation) throws(Failure)
    -> LoadResult

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
  ) throws(Failure) -> Bool
}

/// Why a ``SyncCoordinator`` run stopped: a step of the sync itself (the
/// manifest, the source, the sync's own files) or the device's.
public enum SyncRunError<DeviceFailure: Error>: Error {
  /// The manifest, the source or the sync directory (``SyncError``).
  case sync(SyncError)
  /// The device refused or failed a reservation, a load's plan, a load or
  /// a record (``SyncReloader/Failure``).
  case device(DeviceFailure)
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
