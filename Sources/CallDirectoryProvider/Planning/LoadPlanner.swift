import CallDirectoryFormat

/// Chooses how to serve a request from the request kind, the provider's
/// state and the available blobs. A pure function: the CLI runs it too, to
/// refuse a load before touching the device.
///
/// Rules, newest snapshot first:
/// - **Complete request** (`isIncremental == false`): the full snapshot with
///   the highest version (``LoadStrategy/complete``); without one, refused.
/// - **Incremental request** with a known held snapshot (see
///   ``ProviderState/heldSnapshot``):
///   1. a delta whose base version **and** digest equal the held snapshot,
///      if its target version is at least the newest full snapshot's
///      (``LoadStrategy/delta``; the highest target wins);
///   2. else a full snapshot: ``LoadStrategy/upToDate`` when it holds the
///      held content (the held digest, at the held version or an older
///      one), or when a delta's target holds it and every full snapshot is
///      older (an app keeps the full snapshot it last downloaded next to
///      the delta it applied since, so that a complete request can always
///      be served); otherwise ``LoadStrategy/replace``;
///   3. else, when a delta's target holds the held content (it was applied
///      already), ``LoadStrategy/upToDate``;
///   4. else refused: only deltas on other bases are available. A delta
///      whose base has the held version but another digest (a snapshot
///      rebuilt under the same number) is named in the message.
/// - **Incremental request without a known held snapshot** (no state file,
///   or a request whose outcome was never recorded): ``LoadStrategy/replace``
///   with the newest full snapshot; without one, refused.
/// - **No downgrades:** a plan whose target version is lower than the held
///   snapshot's (an older full snapshot, or a delta that goes backwards) is
///   refused with ``CallDirectoryProviderError/downgrade(held:offered:)``
///   unless `allowsDowngrade` is set; reloading the held version is not a
///   downgrade. An app's sync can plan a downloaded blob against the
///   extension's state the same way before it places the blob.
///
/// "The held content" is judged by content digest: a sync moves an
/// extension's recorded version forward without a reload when the new
/// version left its entries as they were
/// (``ProviderStateStore/recordSameContent(as:)``), so the blobs in its
/// container may carry an older version of the very entries it holds; a
/// request then changes nothing, rather than reloading them or going back.
///
/// Ties between blobs of the same version keep the first in path order.
public enum LoadPlanner {
  /// Plans a request.
  ///
  /// - Parameters:
  ///   - isIncremental: What the context's `isIncremental` returned.
  ///   - state: The provider's state.
  ///   - candidates: The readable blobs.
  ///   - skipped: Blobs whose header could not be read (kept in the plan
  ///     and in the refusal message).
  ///   - allowsDowngrade: Whether a plan may replace the held snapshot with
  ///     an older version (default `false`).
  /// - Returns: The plan.
  /// - Throws: ``CallDirectoryProviderError/noUsableBlob(_:)`` when nothing
  ///   fits, ``CallDirectoryProviderError/downgrade(held:offered:)`` when
  ///   the plan would load an older version; the context must then be left
  ///   untouched.
  public static func plan(
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
