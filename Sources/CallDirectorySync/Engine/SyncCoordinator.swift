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
///    (no reload request at all);
/// 6. only then records the sync state (``SyncSession/record(_:)``).
///
/// `calldir device sync` drives it over its simulated device.
public struct SyncCoordinator<Reloader: SyncReloader> {
  /// How often a run plans and fetches again when the device changed while
  /// it downloaded.
  public static var attempts: Int { 3 }

  /// The source, the trust and the sync directory.
  public let session: SyncSession
  /// The device.
  public let reloader: Reloader
  /// Whether a manifest older than the synced version or the rollback
  /// floor may be installed, and its blobs loaded.
  public let allowsDowngrade: Bool

  public init(session: SyncSession, reloader: Reloader, allowsDowngrade: Bool = false) {
    self.session = session
    self.reloader = reloader
    self.allowsDowngrade = allowsDowngrade
  }

  private typealias Failure = SyncRunError<Reloader.Failure>

  /// Runs one sync (see the type's overview).
  ///
  /// - Returns: What the sync planned, staged, loaded and recorded.
  /// - Throws: ``SyncRunError/sync(_:)`` (``SyncError/busy(path:)`` when
  ///   the device kept changing under the sync), ``SyncRunError/device(_:)``.
  ///   The state is written last: a sync that stops is planned again, from
  ///   the same state, by the next one.
  public func run() throws(SyncRunError<Reloader.Failure>) -> SyncRun<Reloader.LoadResult> {
    let trusted = try step { () throws(SyncError) in try session.fetchManifest() }
    attempts: for _ in 1...Self.attempts {
      let planned = try plan(trusted)
      // Every extension holds the version, but the record says another:
      // a sync whose loads all ran stopped before recording its state.
      let recordsOnly = planned.isUpToDate && (planned.previous.map { $0.version != trusted.manifest.version } ?? false)
      if planned.isUpToDate && !recordsOnly {
        return SyncRun(planned: planned, staged: nil, results: [:], state: planned.previous)
      }
      let staged = planned.isUpToDate ? nil : try fitted(try step { () throws(SyncError) in try session.stage(planned) })
      // The sync lock, then the extensions the sync changes, for the rest
      // of the run: a concurrent load fails with currentlyLoading instead
      // of changing what was planned.
      let lock = try step { () throws(SyncError) in try session.directory.lock() }
      defer { withExtendedLifetime(lock) {} }
      var reservations: [Int: Reloader.Reservation] = [:]
      defer { reservations.values.forEach { reloader.release($0) } }
      for index in planned.changedExtensions {
        reservations[index] = try device { () throws(Reloader.Failure) in try reloader.reserve(extension: index) }
      }
      guard try plan(trusted) == planned else { continue attempts }
      guard let staged else {
        let state = try step { () throws(SyncError) in
          try session.record(StagedSync(plan: planned.plan, previous: planned.previous, loads: []))
        }
        return SyncRun(planned: planned, staged: nil, results: [:], state: state)
      }
      // Every load is planned before the first one runs: a blob that does
      // not fit an extension changes nothing.
      var loads: [(index: Int, load: Reloader.PlannedLoad)] = []
      for load in staged.loads {
        let isDelta = if case .delta = load.content { true } else { false }
        do {
          loads.append((load.index, try reloader.planLoad(ofBlobAt: load.path, intoExtension: load.index)))
        } catch {
          // The extension changed since the delta was checked: again.
          if isDelta && reloader.unfitReason(error) != nil { continue attempts }
          throw .device(error)
        }
      }
      var results: [Int: Reloader.LoadResult] = [:]
      for (index, load) in loads {
        guard let reservation = reservations[index] else { continue }
        results[index] = try device { () throws(Reloader.Failure) in
          try reloader.load(load, intoExtension: index, under: reservation)
        }
      }
      // The extensions whose content the version left as it was: no
      // request, their provider state takes the version, so that the next
      // build's delta from it applies.
      for item in staged.plan.unchanged {
        guard let reservation = reservations[item.index], let digest = item.digest else { continue attempts }
        let recorded = try device { () throws(Reloader.Failure) in
          try reloader.recordSameContent(
            extension: item.index, version: staged.plan.manifest.manifest.version, digest: digest, under: reservation)
        }
        // The extension no longer holds the content (it cannot change under
        // the reservation, but a sync never records what is not so).
        guard recorded else { continue attempts }
      }
      let state = try step { () throws(SyncError) in try session.record(staged) }
      return SyncRun(planned: planned, staged: staged, results: results, state: state)
    }
    throw .sync(.busy(path: session.directory.lockPath))
  }

  /// The sync of `trusted` planned against the device: its sync state,
  /// corrected by what each extension holds by its own record (a load
  /// outside the sync may have changed it; one not installed holds
  /// nothing).
  private func plan(_ trusted: TrustedManifest) throws(Failure) -> PlannedSync {
    var held = try device { () throws(Reloader.Failure) in try reloader.heldSnapshots() }
    // An extension of the manifest that is not installed holds nothing.
    for item in trusted.manifest.extensions where held.index(forKey: item.index) == nil {
      held.updateValue(nil, forKey: item.index)
    }
    return try step { () throws(SyncError) in
      try session.plan(trusted, held: held, allowingDowngrade: allowsDowngrade)
    }
  }

  /// `staged` with the full snapshot (fetched now, before anything is
  /// reserved) for each extension that cannot apply its delta although it
  /// holds the delta's base version: the outcome of its last request was
  /// never recorded, or it holds other content under that version (the
  /// store was rebuilt). Without it the device would try the same delta at
  /// every sync. Any other refusal is the loads' to report.
  private func fitted(_ staged: StagedSync) throws(Failure) -> StagedSync {
    var staged = staged
    for load in staged.loads {
      guard case .delta = load.content else { continue }
      let reason: String
      do {
        _ = try reloader.planLoad(ofBlobAt: load.path, intoExtension: load.index)
        continue
      } catch {
        guard let unfit = reloader.unfitReason(error) else { continue }
        reason = unfit
      }
      staged = try step { () throws(SyncError) in
        try session.fallBackToFull(extension: load.index, in: staged, because: reason)
      }
    }
    return staged
  }

  /// Runs a step of the sync itself.
  private func step<T>(_ body: () throws(SyncError) -> T) throws(Failure) -> T {
    do {
      return try body()
    } catch {
      throw .sync(error)
    }
  }

  /// Runs a step of the device.
  private func device<T>(_ body: () throws(Reloader.Failure) -> T) throws(Failure) -> T {
    do {
      return try body()
    } catch {
      throw .device(error)
    }
  }
}
