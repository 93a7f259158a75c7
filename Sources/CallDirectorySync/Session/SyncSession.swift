import CallDirectoryFormat
import CalldirSystem

/// What a blocker's containing app does to bring its Call Directory
/// extensions to a store's latest version:
///
///     let session = SyncSession(directory: directory, source: source, trust: trust, hashing: hashing)
///     let trusted = try await session.fetchManifest() // fetch and verify the manifest
///     let planned = try session.plan(trusted)         // plan against the state
///     guard !planned.isUpToDate else { return }
///     let staged = try await session.stage(planned)   // download and verify every file
///     let lock = try session.directory.lock()         // one sync loads at a time
///     guard try session.plan(trusted) == planned else { … }  // the device may have changed meanwhile
///     for load in staged.loads { … }                  // place each blob, reloadExtension (the app's part)
///     for item in staged.plan.unchanged { … }         // no reload: the extension's state takes the version
///     try session.record(staged)                      // only then: the new SyncState
///
/// Nothing on the device changes before ``stage(_:)`` returns: a bad
/// signature, another dataset, an older manifest, a file whose size or
/// SHA-256 is not the manifest's, or a failed transfer stops the sync with
/// the device as it was (a transfer cut short keeps its bytes for the next
/// sync to resume). Nothing is locked while files download, so a slow
/// server holds no device: the lock is taken once every file is verified,
/// and the plan checked again under it. Every transfer keeps to the
/// session's ``TransferLimits``. The state is written last, so a sync whose
/// loads fail is planned again, from the same state, by the next one.
public struct SyncSession: Sendable {
  /// The manifest's path at the source.
  public static let manifestPath = "manifest.json"
  /// Its signature's path at the source.
  public static let signaturePath = "manifest.json.sig"
  /// The largest manifest accepted, in bytes.
  public static let manifestLimit = 16 << 20
  /// The largest signature file accepted, in bytes.
  public static let signatureLimit = 4096

  /// Where the state and the staged files are kept.
  public let directory: SyncDirectory
  /// Where the files come from.
  public let source: any SyncSource
  /// The pinned public key and the signature check.
  public let trust: ManifestTrust
  /// The SHA-256 the files are checked with.
  public let hashing: any SHA256Hashing
  /// How long transfers may take (``TransferLimits``).
  public let limits: TransferLimits

  public init(
    directory: SyncDirectory, source: any SyncSource, trust: ManifestTrust, hashing: any SHA256Hashing,
    limits: TransferLimits = .standard
  ) {
    self.directory = directory
    self.source = source
    self.trust = trust
    self.hashing = hashing
    self.limits = limits
  }

  /// Fetches the manifest and its signature and verifies them
  /// (``ManifestTrust``). A pair that does not verify is fetched again
  /// when it may have been read while the store published a new one
  /// (``ManifestVerification``): only a pair that reads the same twice is
  /// refused.
  ///
  /// - Throws: ``SyncError/source(_:)``, ``SyncError/untrusted(_:)`` (a
  ///   missing signature file included, and a manifest or signature larger
  ///   than ``manifestLimit`` or ``signatureLimit``).
  public func fetchManifest() async throws(SyncError) -> TrustedManifest {
    var verification = ManifestVerification(trust: trust)
    let bounds = limits.bounds(bytes: Int64(Self.manifestLimit + Self.signatureLimit), transfers: 2)
    while true {
      let manifest: [UInt8]
      let signature: [UInt8]
      do {
        manifest = try await source.fetch(Self.manifestPath, limit: Self.manifestLimit, within: bounds)
        signature = try await source.fetch(Self.signaturePath, limit: Self.signatureLimit, within: bounds)
      } catch .notFound(let path, let source) where path == Self.signaturePath {
        // A manifest without a signature is never to be trusted, however
        // often the fetch is retried (a store built without a signing key).
        throw .untrusted(.missingSignature(source: source))
      } catch .tooLarge(let path, let limit) {
        // Larger than any a store publishes: bad data, not the network.
        let problem = "\(path) is larger than \(limit) bytes"
        throw .untrusted(path == Self.signaturePath ? .malformedSignature(problem) : .malformed(problem))
      } catch {
        throw .source(error)
      }
      do {
        if let trusted = try verification.check(manifest: manifest, signature: signature) { return trusted }
      } catch {
        throw .untrusted(error)
      }
    }
  }

  /// Fetches and verifies the manifest, and plans the sync against the
  /// recorded state and the dataset's rollback floor (``SyncPlanner``).
  ///
  /// A floor lower than the recorded state's version (a floor file lost,
  /// or kept by an older version of the app) is raised to it, when it can
  /// be written.
  ///
  /// - Throws: As ``fetchManifest()``; ``SyncError/untrusted(_:)`` for
  ///   another dataset or an older version; ``SyncError/storage(_:)`` or
  ///   ``SyncError/stateMalformed(path:reason:)`` for the state;
  ///   ``SyncError/rollbackFloorMalformed(path:reason:)`` for the floor
  ///   unless `allowingDowngrade`.
  /// - Parameters:
  ///   - held: What each extension holds by its own record (its
  ///     provider state's version and content digest), by index (nil:
  ///     unknown, so it takes a full snapshot): corrects the recorded state
  ///     where a load outside the sync changed an extension, and tells
  ///     which extensions hold the manifest's content already.
  ///   - allowingDowngrade: Whether a manifest older than the synced
  ///     version or the rollback floor may be installed (the user's
  ///     explicit choice; ``SyncPlan/isDowngrade`` says when it is).
  public func plan(held: [Int: HeldSnapshot?] = [:], allowingDowngrade: Bool = false) async throws(SyncError) -> PlannedSync {
    try plan(try await fetchManifest(), held: held, allowingDowngrade: allowingDowngrade)
  }

  /// Plans the sync of a verified manifest against the recorded state and
  /// the dataset's rollback floor (``SyncPlanner``): the first plan, and
  /// the same plan made again once the device is locked, to see whether it
  /// changed meanwhile.
  ///
  /// - Throws: As ``plan(held:allowingDowngrade:)``, but for the fetch.
  public func plan(
    _ trusted: TrustedManifest, held: [Int: HeldSnapshot?] = [:], allowingDowngrade: Bool = false
  ) throws(SyncError) -> PlannedSync {
    var previous = try directory.stateStore.load()
    let floors: [String: Int]
    do {
      floors = try directory.rollbackFloorStore.load()
    } catch .rollbackFloorMalformed where allowingDowngrade {
      floors = [:]
    }
    let dataset = trusted.manifest.dataset
    var floor = floors[dataset]
    if let state = previous, state.dataset == dataset, state.version > floor ?? 0 {
      floor = state.version
      _ = try? directory.rollbackFloorStore.record(dataset, version: state.version)
    }
    if var state = previous {
      for (index, snapshot) in held where state.extensions[index] != nil {
        state.extensions[index] = snapshot?.version ?? 0  // 0: no version, so a full snapshot
        state.digests[index] = snapshot?.digest
      }
      previous = state
    }
    do {
      let plan = try SyncPlanner.plan(trusted, state: previous, floor: floor, allowsDowngrade: allowingDowngrade)
      return PlannedSync(plan: plan, previous: previous, rollbackFloor: floor)
    } catch {
      throw .untrusted(error)
    }
  }

  /// Downloads and verifies every file the plan needs into the staging
  /// area: the delta from the version each extension holds, or its full
  /// snapshot, which is also fetched when the source does not have the
  /// delta. Writes the empty snapshot of each retired extension. Every
  /// blob's header must say what the manifest says it is (kind, versions,
  /// dataset). Files staged by an earlier sync are reused; others left
  /// there are removed (unless another sync uses them). The downloads share
  /// one deadline: ``TransferLimits/allowance(bytes:transfers:)`` of each
  /// file fetched, from the start of the staging.
  ///
  /// - Returns: The staged loads; each blob stays locked against removal by
  ///   another sync while the value lives.
  /// - Throws: ``SyncError``; the device is unchanged.
  public func stage(_ planned: PlannedSync) async throws(SyncError) -> StagedSync {
    var plan = planned.plan
    let manifest = plan.manifest.manifest
    let staging = directory.staging
    let budget = _DownloadBudget(limits: limits)
    let fallbacks = plan.steps.compactMap { if case .delta = $0.step { $0.extension.full } else { nil } }
    try staging.removeAll(except: plan.files + fallbacks)
    var loads: [StagedLoad] = []
    for position in plan.steps.indices {
      let item = plan.steps[position].extension
      switch plan.steps[position].step {
      case .upToDate, .unchanged:
        continue
      case .full(let file):
        let staged = try await stageChecked(file, as: .full(file), manifest, budget)
        loads.append(StagedLoad(index: item.index, content: .full(file), path: staged.path, staged: staged))
      case .delta(let delta):
        do {
          let staged = try await stageChecked(delta.file, as: .delta(delta), manifest, budget)
          loads.append(StagedLoad(index: item.index, content: .delta(delta), path: staged.path, staged: staged))
        } catch .source(.notFound) {
          let staged = try await stageChecked(item.full, as: .full(item.full), manifest, budget)
          plan.steps[position].step = .full(item.full)
          loads.append(
            StagedLoad(
              index: item.index, content: .full(item.full), path: staged.path, staged: staged, missingDelta: delta))
        }
      }
    }
    if !plan.retired.isEmpty {
      let path = staging.directory + "/empty-\(manifest.version).cdir"
      let pin = try EmptySnapshot.stage(version: manifest.version, dataset: manifest.dataset, at: path)
      for index in plan.retired {
        loads.append(StagedLoad(index: index, content: .empty, path: path, staged: nil, pin: pin))
      }
    }
    return StagedSync(plan: plan, previous: planned.previous, loads: loads)
  }

  /// Replaces extension `index`'s delta with its full snapshot, staged and
  /// checked as every file is: for an extension that cannot apply the
  /// delta although it holds the delta's base version (the outcome of its
  /// last request was never recorded, or it holds other content under that
  /// version, from a store that was rebuilt). Without it the device would
  /// try the same delta at every sync.
  ///
  /// - Parameter reason: Why the extension cannot apply the delta, as the
  ///   sync reports it.
  /// - Returns: `staged` with the full snapshot in the extension's load and
  ///   plan; unchanged when the extension's load is not a delta.
  /// - Throws: As ``stage(_:)``; the device is unchanged.
  public func fallBackToFull(extension index: Int, in staged: StagedSync, because reason: String) async throws(SyncError)
    -> StagedSync
  {
    var result = staged
    guard let position = result.plan.steps.firstIndex(where: { $0.extension.index == index }),
      case .delta(let delta) = result.plan.steps[position].step,
      let loadPosition = result.loads.firstIndex(where: { $0.index == index })
    else { return staged }
    let item = result.plan.steps[position].extension
    let file = try await stageChecked(
      item.full, as: .full(item.full), result.plan.manifest.manifest, _DownloadBudget(limits: limits))
    result.plan.steps[position].step = .full(item.full)
    result.loads[loadPosition] = StagedLoad(
      index: index, content: .full(item.full), path: file.path, staged: file, unusableDelta: (delta, reason))
    return result
  }

  /// Records the state of a sync whose every load succeeded, atomically,
  /// and clears the staging area: the files this sync loaded, and any left
  /// over, but none another sync uses. The dataset's rollback floor is
  /// raised to the version first (never lowered: after an allowed
  /// downgrade it stays where it was).
  ///
  /// - Returns: The recorded state.
  /// - Throws: ``SyncError/storage(_:)``; the previous state stays.
  @discardableResult
  public func record(_ staged: StagedSync) throws(SyncError) -> SyncState {
    let state = staged.resultingState
    try directory.rollbackFloorStore.record(state.dataset, version: state.version)
    try directory.stateStore.save(state)
    // Leftovers are removed by the next sync's staging if this fails.
    for load in staged.loads { try? load.pin?.removeIfUnused() }
    try? directory.staging.removeAll(except: [])
    return state
  }

  /// Stages `file` and checks that its blob header is what the manifest
  /// says; a blob that is not is discarded.
  private func stageChecked(
    _ file: Manifest.File, as content: StagedLoad.Content, _ manifest: Manifest, _ budget: _DownloadBudget
  ) async throws(SyncError) -> StagedFile {
    let staged = try await directory.staging.stage(file, from: source, hashing: hashing, within: budget.bounds(for: file))
    let header: BlobHeader
    do {
      header = try BlobReader.readHeader(path: staged.path)
    } catch {
      if case .io(let failure) = error { throw .storage(failure) }
      try? staged.pin?.removeIfUnused()
      throw .untrusted(.fileMismatch(path: file.path, problem: "it is not a blob: \(error)"))
    }
    if let problem = Self.headerProblem(header, content, manifest) {
      try? staged.pin?.removeIfUnused()
      throw .untrusted(.fileMismatch(path: file.path, problem: problem))
    }
    return staged
  }

  /// What is wrong with a blob's header for what the manifest says it is
  /// (kind, version, base version, dataset, a full snapshot's counts, a
  /// delta's adds and removes, the content digest it makes), `nil` when
  /// nothing is: the check every downloaded blob passes before it is
  /// loaded. The digest and a delta's counts are checked when the manifest
  /// gives them: the sync planned with them.
  public static func headerProblem(_ header: BlobHeader, _ content: StagedLoad.Content, _ manifest: Manifest) -> String? {
    if !header.dataset.isEmpty && header.dataset != manifest.dataset {
      return "it is a blob of dataset '\(header.dataset)', the manifest's is '\(manifest.dataset)'"
    }
    guard header.version == UInt64(manifest.version) else {
      return "it holds version \(header.version), the manifest's is \(manifest.version)"
    }
    let item: Manifest.Extension?
    switch content {
    case .full, .empty:
      if header.kind != .full { return "it is a delta, the manifest names a full snapshot" }
      guard case .full(let file) = content else { return nil }
      item = manifest.extensions.first { $0.full == file }
      if let counts = item?.counts,
        header.entryCount(.blocking) != UInt64(counts.blocking)
          || header.entryCount(.identification) != UInt64(counts.identification)
      {
        return "it holds \(header.entryCount(.blocking)) blocking and \(header.entryCount(.identification)) "
          + "identification entries, the manifest says \(counts.blocking) and \(counts.identification)"
      }
    case .delta(let delta):
      if header.kind != .delta { return "it is a full snapshot, the manifest names a delta" }
      if header.baseVersion != UInt64(delta.from) {
        return "it is a delta from version \(header.baseVersion), the manifest's is from \(delta.from)"
      }
      if let adds = delta.adds, let removes = delta.removes,
        header.addedEntries != UInt64(adds) || header.removedEntries != UInt64(removes)
      {
        return "it adds \(header.addedEntries) and removes \(header.removedEntries) entries, "
          + "the manifest says \(adds) and \(removes)"
      }
      item = manifest.extensions.first { $0.deltas.contains(delta) }
    }
    if let digest = item?.digest, header.contentDigest.hex != digest {
      return "it makes content digest \(header.contentDigest.hex), the manifest says \(digest)"
    }
    return nil
  }
}

/// The deadline a sync's downloads share: it starts when the staging
/// starts, and each file adds its allowance
/// (``TransferLimits/allowance(bytes:transfers:)``), so time a fast file
/// leaves is there for the next.
final class _DownloadBudget {
  let limits: TransferLimits
  private var deadline: MonotonicInstant

  init(limits: TransferLimits) {
    self.limits = limits
    deadline = .now()
  }

  /// The bounds of the transfer of `file`, its allowance added.
  func bounds(for file: Manifest.File) -> TransferBounds {
    deadline = deadline.advanced(byNanoseconds: limits.allowance(bytes: file.bytes, transfers: 1))
    return TransferBounds(limits: limits, deadline: deadline)
  }
}

@available(*, unavailable)
extension _DownloadBudget: Sendable {}
