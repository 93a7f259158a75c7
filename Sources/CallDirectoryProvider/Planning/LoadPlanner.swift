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
///
/// The choice is ``SnapshotPlanner``'s (in `CallDirectoryFormat`, the one
/// planner a sync's `SyncPlanner` uses too), with a delta built on the
/// held snapshot tried before the held content and a newer snapshot of the
/// held content loaded; the request's kind, the refusal messages and the
/// downgrade check are this type's own.
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

  /// The plan the rules choose, before the downgrade check:
  /// ``SnapshotPlanner``'s choice over the readable blobs (a complete
  /// request plans as if nothing were held), served as the request's kind
  /// asks, or the refusal that names what is available.
  private static func choose(
    isIncremental: Bool,
    state: ProviderState,
    candidates: [BlobCandidate],
    skipped: [CallDirectoryProviderError]
  ) throws(CallDirectoryProviderError) -> LoadPlan {
    let held = isIncremental ? state.heldSnapshot : nil
    let fulls = candidates.filter { $0.header.kind == .full }
    let deltas = candidates.filter { $0.header.kind == .delta }
    func make(_ strategy: LoadStrategy, _ blob: BlobCandidate?, _ target: SnapshotIdentity) -> LoadPlan {
      LoadPlan(strategy: strategy, blob: blob, target: target, held: held, skipped: skipped)
    }
    let choice = planner.choose(
      held: held.map(offered), fulls: fulls.map { offered($0.target) },
      deltas: deltas.map { delta in
        let base = Planner.Snapshot(version: delta.header.baseVersion, digest: delta.header.baseDigest)
        return Planner.Delta(base: base, target: offered(delta.target))
      })
    switch choice {
    case .full(let index)?: return make(isIncremental ? .replace : .complete, fulls[index], fulls[index].target)
    case .delta(let index)?: return make(.delta, deltas[index], deltas[index].target)
    case .upToDate?, .sameContent?: if let held { return make(.upToDate, nil, held) }
    case nil: break
    }
    let why = whyNothingFits(isIncremental: isIncremental, state: state, candidates)
    throw .noUsableBlob(refusal(why, candidates, skipped))
  }

  /// Why no blob serves the request: the request's kind, the unknown held
  /// snapshot, or a delta built on a snapshot rebuilt under the held
  /// version (its base digest is not the held one).
  private static func whyNothingFits(
    isIncremental: Bool, state: ProviderState, _ candidates: [BlobCandidate]
  ) -> String {
    guard isIncremental else { return "a complete request needs a full snapshot" }
    guard let held = state.heldSnapshot else {
      return state.pending != nil
        ? "the outcome of the last request was never recorded, so only a full snapshot can be loaded"
        : "the provider has no record of the loaded snapshot, so only a full snapshot can be loaded"
    }
    if let rebuilt = candidates.first(where: { $0.base?.version == held.version }), let base = rebuilt.base {
      return "\(rebuilt.summary) is built on a different version \(held.version) "
        + "(base digest \(abbreviated(base.digest)), the extension holds \(abbreviated(held.digest))); "
        + "load a full snapshot"
    }
    return "no delta applies to the loaded \(held)"
  }

  typealias Planner = SnapshotPlanner<UInt64, ContentDigest>

  /// The core's rules as a request needs them: a delta built on exactly
  /// the held snapshot first, and a newer snapshot loaded even when it
  /// holds the same entries.
  static let planner = Planner(.init(sameContentBeforeDeltas: false, newerSameContentNeedsNoReload: false))

  /// A blob's snapshot as the core compares them.
  private static func offered(_ identity: SnapshotIdentity) -> Planner.Snapshot {
    Planner.Snapshot(version: identity.version, digest: identity.digest)
  }

  /// The first 12 hexadecimal digits of a digest and an ellipsis.
  private static func abbreviated(_ digest: ContentDigest) -> String {
    String(digest.hex.prefix(12)) + "…"
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
