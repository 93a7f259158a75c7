/// The sync engine: brings a device's Call Directory extensions to a
/// store's latest version, over a ``SyncSession`` (the source, the
/// manifest's trust, the sync directory that holds the state, the rollback
/// floor and the staged files) and a ``SyncReloader`` (the device).
///
/// One run:
/// 1. fetches and verifies the manifest (``SyncSession/fetchManifest()``);
/// 2. plans against the recorded state, corrected by what each extension
///    holds by its own record (``SyncReloader/heldSnapshots()``): refuses
///    another dataset, an older manifest (unless a downgrade is allowed) or
///    one past its `expires`;
/// 3. downloads and verifies every file (``SyncSession/stage(_:)``), and
///    fetches the full snapshot now for an extension that cannot apply its
///    delta although it holds the delta's base version
///    (``SyncSession/fallBackToFull(extension:in:because:)``). Nothing is
///    reserved while files download, so a slow server holds no device;
/// 4. takes the sync lock, reserves the extensions the sync changes and
///    plans again: when the device changed meanwhile (another load or
///    sync), plans and fetches again, at most ``attempts`` times;
/// 5. plans every load before the first one runs (a blob that does not fit
///    changes nothing), loads each extension, and moves the recorded
///    version of each extension whose content the manifest left as it was
///    (no reload request at all). A load that fails is handled as the
///    device's ``SyncReloader/recovery(after:)`` says: reloaded again
///    after a wait when the failure is passing (``ReloadRecovery/retry``,
///    with the backoff of ``retryPolicy``), or, a delta the system refused
///    or served with a complete request
///    (``ReloadRecovery/reloadWithFullSnapshot``), loaded again with the
///    full snapshot, fetched then (``SyncSession/fallBackToFull(extension:in:because:)``);
/// 6. only then records the sync state (``SyncSession/record(_:)``).
///
/// The run is `async`: the app drives it from a task, over its
/// URLSession source and `CXCallDirectoryManager` (the example app's
/// `DatasetSync`); `calldir device sync` over its simulated device, whose
/// calls block, and waits for it (`CalldirDevice`'s `runToCompletion()`).
/// A cancelled task stops the run before its next load or reload attempt
/// (``SyncRunError/cancelled``), or in the source's transfer.
public struct SyncCoordinator<Reloader: SyncReloader> {
  /// How often a run plans and fetches again when the device changed while
  /// it downloaded.
  public static var attempts: Int { 3 }

  /// Waits `nanoseconds` between two reload attempts; throws when the task
  /// is cancelled.
  public typealias Sleep = @Sendable (_ nanoseconds: UInt64) async throws -> Void

  /// The source, the trust and the sync directory.
  public let session: SyncSession
  /// The device.
  public let reloader: Reloader
  /// Whether a manifest older than the synced version or the rollback
  /// floor may be installed, and its blobs loaded.
  public let allowsDowngrade: Bool
  /// How a load whose failure is passing is tried again.
  public let retryPolicy: ReloadRetryPolicy
  /// How the run waits between reload attempts.
  let sleep: Sleep

  /// - Parameters:
  ///   - retryPolicy: How a passing reload failure is retried (default
  ///     ``ReloadRetryPolicy/none``: it stops the run).
  ///   - sleep: How to wait between reload attempts (default `Task.sleep`).
  public init(
    session: SyncSession, reloader: Reloader, allowsDowngrade: Bool = false, retryPolicy: ReloadRetryPolicy = .none,
    sleep: @escaping Sleep = { try await Task.sleep(nanoseconds: $0) }
  ) {
    self.session = session
    self.reloader = reloader
    self.allowsDowngrade = allowsDowngrade
    self.retryPolicy = retryPolicy
    self.sleep = sleep
  }

  private typealias Failure = SyncRunError<Reloader.Failure>
  private typealias PlannedLoads = [(index: Int, load: Reloader.PlannedLoad)]

  /// Runs one sync (see the type's overview).
  ///
  /// - Returns: What the sync planned, staged, loaded and recorded.
  /// - Throws: ``SyncRunError/sync(_:)`` (``SyncError/busy(path:)`` when
  ///   the device kept changing under the sync), ``SyncRunError/device(_:)``,
  ///   ``SyncRunError/cancelled``. The state is written last: a sync that
  ///   stops is planned again, from the same state, by the next one.
  public func run() async throws(SyncRunError<Reloader.Failure>) -> SyncRun<Reloader.LoadResult> {
    let trusted = try await step { () async throws(SyncError) in try await session.fetchManifest() }
    try await device { () async throws(Reloader.Failure) in try reloader.accept(trusted.manifest) }
    attempts: for _ in 1...Self.attempts {
      let planned = try await plan(trusted)
      // Every extension holds the version, but the record says another:
      // a sync whose loads all ran stopped before recording its state.
      let recordsOnly = planned.isUpToDate && (planned.previous.map { $0.version != trusted.manifest.version } ?? false)
      if planned.isUpToDate && !recordsOnly {
        return SyncRun(planned: planned, staged: nil, results: [:], state: planned.previous)
      }
      try checkCancellation()
      let staged = planned.isUpToDate ? nil : try await fitted(try await step { () async throws(SyncError) in
        try await session.stage(planned)
      })
      // The sync lock, then the extensions the sync changes, for the rest
      // of the run: a concurrent load fails with currentlyLoading instead
      // of changing what was planned.
      let lock = try await step { () async throws(SyncError) in try session.directory.lock() }
      defer { withExtendedLifetime(lock) {} }
      var reservations: [Int: Reloader.Reservation] = [:]
      defer { reservations.values.forEach { reloader.release($0) } }
      for index in planned.changedExtensions {
        reservations[index] = try await device { () async throws(Reloader.Failure) in
          try await reloader.reserve(extension: index)
        }
      }
      guard try await plan(trusted) == planned else { continue attempts }
      guard var staged else {
        let state = try await step { () async throws(SyncError) in
          try session.record(StagedSync(plan: planned.plan, previous: planned.previous, loads: []))
        }
        return SyncRun(planned: planned, staged: nil, results: [:], state: state)
      }
      // Every load is planned before the first one runs: a blob that does
      // not fit an extension changes nothing.
      guard let loads = try await planLoads(staged) else { continue attempts }
      var results: [Int: Reloader.LoadResult] = [:]
      for (index, load) in loads {
        guard let reservation = reservations[index] else { continue }
        results[index] = try await reload(load, into: index, under: reservation, staged: &staged)
      }
      guard try await recordUnchanged(staged, under: reservations) else { continue attempts }
      let recorded = staged
      let state = try await step { () async throws(SyncError) in try session.record(recorded) }
      return SyncRun(planned: planned, staged: staged, results: results, state: state)
    }
    throw .sync(.busy(path: session.directory.lockPath))
  }

  /// The sync of `trusted` planned against the device: its sync state,
  /// corrected by what each extension holds by its own record (a load
  /// outside the sync may have changed it; one not installed holds
  /// nothing).
  private func plan(_ trusted: TrustedManifest) async throws(Failure) -> PlannedSync {
    var held = try await device { () async throws(Reloader.Failure) in try await reloader.heldSnapshots() }
    // An extension of the manifest that is not installed holds nothing.
    for item in trusted.manifest.extensions where held.index(forKey: item.index) == nil {
      held.updateValue(nil, forKey: item.index)
    }
    let known = held
    return try await step { () async throws(SyncError) in
      try session.plan(trusted, held: known, allowingDowngrade: allowsDowngrade)
    }
  }

  /// `staged` with the full snapshot (fetched now, before anything is
  /// reserved) for each extension that cannot apply its delta although it
  /// holds the delta's base version: the outcome of its last request was
  /// never recorded, or it holds other content under that version (the
  /// store was rebuilt). Without it the device would try the same delta at
  /// every sync. Any other refusal is the loads' to report.
  private func fitted(_ staged: StagedSync) async throws(Failure) -> StagedSync {
    var staged = staged
    for load in staged.loads {
      guard case .delta = load.content else { continue }
      let reason: String
      do {
        _ = try await reloader.planLoad(ofBlobAt: load.path, intoExtension: load.index)
        continue
      } catch {
        guard let unfit = reloader.unfitReason(error) else { continue }
        reason = unfit
      }
      let current = staged
      staged = try await step { () async throws(SyncError) in
        try await session.fallBackToFull(extension: load.index, in: current, because: reason)
      }
    }
    return staged
  }

  /// Every load of `staged` planned, before the first one runs; nil when a
  /// delta no longer fits its extension (it changed since the delta was
  /// checked: the run plans again).
  private func planLoads(_ staged: StagedSync) async throws(Failure) -> PlannedLoads? {
    var loads: PlannedLoads = []
    for load in staged.loads {
      do {
        loads.append((load.index, try await reloader.planLoad(ofBlobAt: load.path, intoExtension: load.index)))
      } catch {
        if case .delta = load.content, reloader.unfitReason(error) != nil { return nil }
        throw .device(error)
      }
    }
    return loads
  }

  /// Runs extension `index`'s load under its reservation: again after a
  /// passing failure, with a wait, until ``retryPolicy`` has no attempt
  /// left; with the full snapshot when its delta did not take at reload
  /// time (refused, or served by a complete request), `staged` then saying
  /// so (``StagedLoad/unusableDelta``).
  private func reload(
    _ planned: Reloader.PlannedLoad, into index: Int, under reservation: Reloader.Reservation,
    staged: inout StagedSync
  ) async throws(Failure) -> Reloader.LoadResult {
    var load = planned
    var attempt = 1
    while true {
      try checkCancellation()
      let failure: Reloader.Failure
      do {
        return try await reloader.load(load, intoExtension: index, under: reservation)
      } catch {
        failure = error
      }
      switch reloader.recovery(after: failure) {
      case .retry where attempt < retryPolicy.maximumAttempts:
        try await wait(retryPolicy.delayNanoseconds(afterAttempt: attempt))
        attempt += 1
      case .reloadWithFullSnapshot where staged.loads.contains(where: { $0.index == index && $0.isDelta }):
        let reason = reloader.unfitReason(failure) ?? String(describing: failure)
        let current = staged
        staged = try await step { () async throws(SyncError) in
          try await session.fallBackToFull(extension: index, in: current, because: reason)
        }
        guard let full = staged.loads.first(where: { $0.index == index }) else { throw .device(failure) }
        load = try await device { () async throws(Reloader.Failure) in
          try await reloader.planLoad(ofBlobAt: full.path, intoExtension: index)
        }
        attempt = 1
      default:
        throw .device(failure)
      }
    }
  }

  /// Moves the recorded version of each extension whose content the
  /// manifest left as it was: no request, their provider state takes the
  /// version, so that the next build's delta from it applies. False when
  /// one no longer holds that content (it cannot change under the
  /// reservation, but a sync never records what is not so): plan again.
  private func recordUnchanged(_ staged: StagedSync, under reservations: [Int: Reloader.Reservation])
    async throws(Failure) -> Bool
  {
    let version = staged.plan.manifest.manifest.version
    for item in staged.plan.unchanged {
      guard let reservation = reservations[item.index], let digest = item.digest else { return false }
      let recorded = try await device { () async throws(Reloader.Failure) in
        try await reloader.recordSameContent(extension: item.index, version: version, digest: digest, under: reservation)
      }
      guard recorded else { return false }
    }
    return true
  }

  /// Waits between two reload attempts; a wait that throws is a cancelled
  /// task.
  private func wait(_ nanoseconds: UInt64) async throws(Failure) {
    do {
      try await sleep(nanoseconds)
    } catch {
      throw .cancelled
    }
  }

  /// Stops the run when its task was cancelled.
  private func checkCancellation() throws(Failure) {
    if Task.isCancelled { throw .cancelled }
  }

  /// Runs a step of the sync itself.
  private func step<T>(_ body: () async throws(SyncError) -> T) async throws(Failure) -> T {
    do {
      return try await body()
    } catch {
      throw .sync(error)
    }
  }

  /// Runs a step of the device.
  private func device<T>(_ body: () async throws(Reloader.Failure) -> T) async throws(Failure) -> T {
    do {
      return try await body()
    } catch {
      throw .device(error)
    }
  }
}
