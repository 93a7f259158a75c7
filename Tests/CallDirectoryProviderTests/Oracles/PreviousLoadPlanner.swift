import CallDirectoryFormat
import CallDirectoryProvider

/// `LoadPlanner` as it was written before ``SnapshotPlanner`` (in
/// `CallDirectoryFormat`) planned for it: kept in the tests only, as the
/// oracle ``LoadPlannerAgreementTests`` checks the adapter against.
enum PreviousLoadPlanner {
  static func plan(
    isIncremental: Bool,
    state: ProviderState,
    candidates: [BlobCandidate],
    skipped: [CallDirectoryProviderError] = [],
    allowsDowngrade: Bool = false
  ) throws(CallDirectoryProviderError) -> LoadPlan {
    // A blob that could not be read (an I/O error) may be the one that
    // fits: decide nothing without it.
    for failure in skipped {
      if case .blobReadFailed = failure { throw failure }
    }
    let plan = try choose(isIncremental: isIncremental, state: state, candidates: candidates, skipped: skipped)
    if let held = plan.held, plan.target.version < held.version, !allowsDowngrade {
      throw .downgrade(held: held, offered: plan.target)
    }
    return plan
  }

  /// The plan the rules choose, before the downgrade check.
  private static func choose(
    isIncremental: Bool,
    state: ProviderState,
    candidates: [BlobCandidate],
    skipped: [CallDirectoryProviderError]
  ) throws(CallDirectoryProviderError) -> LoadPlan {
    let held = isIncremental ? state.heldSnapshot : nil
    let fulls = candidates.filter { $0.header.kind == .full }
    let newestFull = newest(fulls)
    func make(_ strategy: LoadStrategy, _ blob: BlobCandidate?, _ target: SnapshotIdentity) -> LoadPlan {
      LoadPlan(strategy: strategy, blob: blob, target: target, held: held, skipped: skipped)
    }

    if !isIncremental {
      guard let full = newestFull else {
        throw .noUsableBlob(refusal("a complete request needs a full snapshot", candidates, skipped))
      }
      return make(.complete, full, full.target)
    }
    guard let held else {
      guard let full = newestFull else {
        let why = state.pending != nil
          ? "the outcome of the last request was never recorded, so only a full snapshot can be loaded"
          : "the provider has no record of the loaded snapshot, so only a full snapshot can be loaded"
        throw .noUsableBlob(refusal(why, candidates, skipped))
      }
      return make(.replace, full, full.target)
    }
    let fitting = candidates.filter { $0.header.kind == .delta && $0.base == held }
    if let delta = newest(fitting), delta.header.version >= (newestFull?.header.version ?? 0) {
      return make(.delta, delta, delta.target)
    }
    let heldIsADeltaTarget = candidates.contains { $0.header.kind == .delta && holdsHeldContent($0, held) }
    if let full = newestFull {
      if holdsHeldContent(full, held) || (heldIsADeltaTarget && full.header.version < held.version) {
        return make(.upToDate, nil, held)
      }
      return make(.replace, full, full.target)
    }
    if heldIsADeltaTarget {
      return make(.upToDate, nil, held)
    }
    if let rebuilt = candidates.first(where: { $0.base?.version == held.version }), let base = rebuilt.base {
      let reason = "\(rebuilt.summary) is built on a different version \(held.version) "
        + "(base digest \(abbreviated(base.digest)), the extension holds \(abbreviated(held.digest))); "
        + "load a full snapshot"
      throw .noUsableBlob(refusal(reason, candidates, skipped))
    }
    throw .noUsableBlob(refusal("no delta applies to the loaded \(held)", candidates, skipped))
  }

  /// Whether `blob` holds (or, a delta, makes) the held snapshot's
  /// entries: the held digest, at the held version or an older one.
  private static func holdsHeldContent(_ blob: BlobCandidate, _ held: SnapshotIdentity) -> Bool {
    blob.target.digest == held.digest && blob.target.version <= held.version
  }

  /// The first 12 hexadecimal digits of a digest and an ellipsis.
  private static func abbreviated(_ digest: ContentDigest) -> String {
    String(digest.hex.prefix(12)) + "…"
  }

  private static func newest(_ blobs: [BlobCandidate]) -> BlobCandidate? {
    var best: BlobCandidate?
    for blob in blobs where blob.header.version > (best?.header.version ?? 0) || best == nil {
      best = blob
    }
    return best
  }

  private static func refusal(
    _ reason: String, _ candidates: [BlobCandidate], _ skipped: [CallDirectoryProviderError]
  ) -> String {
    var parts = [reason]
    if candidates.isEmpty && skipped.isEmpty {
      parts.append("no blobs are available")
    } else if !candidates.isEmpty {
      parts.append("available: " + candidates.map(\.summary).joined(separator: ", "))
    }
    if !skipped.isEmpty {
      parts.append("unreadable: " + skipped.map(\.description).joined(separator: "; "))
    }
    return parts.joined(separator: "; ")
  }
}
