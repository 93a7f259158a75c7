import CallDirectoryCompiler
import CallDirectoryFormat
import CalldirSystem

/// The fourth stage of ``Publisher/build()``: how the new snapshot's lists
/// differ from the latest version's, and every guard's check, which all
/// passed (or were forced past, or the build is a dry run).
struct GuardedBuild {
  /// Additions and removals per list against the latest version (nil for
  /// the first version, or past a damaged previous blob with `--force`).
  let changes: ListChanges?
  let checks: [GuardCheck]
}

extension Publisher {
  /// Measures the changes against the latest version (only when its blob
  /// is the one the catalog recorded) for the list guards; a refused build
  /// keeps its reports under `refused/` and throws
  /// ``BuildError/refused(_:rejectsPath:conflictsPath:)``.
  func checkGuards(
    _ prepared: PreparedBuild, _ compiled: CompiledBuild, _ blobs: WrittenBlobs, pending: inout PendingFiles,
    warnings: inout [String]
  ) throws(BuildError) -> GuardedBuild {
    var checks = compiled.checks
    var changes: ListChanges?
    if let latest = prepared.latest {
      do {
        try verify(latest)
        changes = try countChanges(from: latest, to: blobs.pendingPath)
        checks += prepared.guards.listChecks(changes ?? ListChanges())
      } catch {
        // A damaged previous blob must not block publishing forever: with
        // --force the list guard is skipped and no delta is built on it.
        // A blob that cannot be read (an I/O error) stops the build.
        guard options.force, !Self.isIOFailure(error) else { throw error }
        warnings.append("the removal guard and the deltas from version \(latest.version) are skipped: \(error)")
      }
    }
    let refusals = checks.compactMap(\.refusal)
    if !refusals.isEmpty && !options.force && !options.dryRun {
      throw refuse(
        refusals, version: prepared.version, rejects: compiled.rejects.path, conflicts: compiled.conflicts.path,
        catalog: prepared.catalog, pending: &pending)
    }
    if !refusals.isEmpty && options.force && !options.dryRun {
      warnings += refusals.map { "published with --force past a guard: \($0.finding)" }
    }
    return GuardedBuild(changes: changes, checks: checks)
  }

  /// How the lists of the new snapshot (the blob at `pendingPath`) differ
  /// from the latest version's: entries added and removed per list (a
  /// relabelled number is neither), run by run (a 10^9-number range costs
  /// one step).
  func countChanges(from latest: SnapshotRecord, to pendingPath: String) throws(BuildError) -> ListChanges {
    let path = store.path(latest.path)
    do {
      let counts = try SnapshotDiffer.countChanges(from: try BlobReader(path: path), to: try BlobReader(path: pendingPath))
      return ListChanges(
        blockingAdded: counts.blockingAdded, blockingRemoved: counts.blockingRemoved,
        identificationAdded: counts.identificationAdded, identificationRemoved: counts.identificationRemoved)
    } catch {
      throw .blob(path: path, error: error)
    }
  }

  /// Keeps a refused build's reports under `refused/`, records the refusal
  /// in the catalog, and returns the error to throw.
  func refuse(
    _ refusals: [BuildRefusal], version: Int, rejects: String, conflicts: String, catalog: Catalog?,
    pending: inout PendingFiles
  ) -> BuildError {
    var kept: (rejects: String?, conflicts: String?) = (nil, nil)
    if (try? FileSystem.durableRename(rejects, to: store.path(StoreLayout.refusedRejectsName(version)))) != nil {
      kept.rejects = store.path(StoreLayout.refusedRejectsName(version))
    }
    if (try? FileSystem.durableRename(conflicts, to: store.path(StoreLayout.refusedConflictsName(version)))) != nil {
      kept.conflicts = store.path(StoreLayout.refusedConflictsName(version))
    }
    // Dated as a version would be: at --as-of's midnight when given.
    let now = options.publishedAt ?? UTCTime.iso8601(UTCTime.now())
    for refusal in refusals {
      // The refusal stands whether or not the catalog can keep a note of it.
      try? catalog?.record(refusal: RefusalRecord(
        attemptedAt: now, version: version, kind: refusal.kind.rawValue, message: refusal.message,
        source: refusal.source, rejectsPath: kept.rejects == nil ? nil : StoreLayout.refusedRejectsName(version)))
    }
    return .refused(refusals, rejectsPath: kept.rejects, conflictsPath: kept.conflicts)
  }
}
