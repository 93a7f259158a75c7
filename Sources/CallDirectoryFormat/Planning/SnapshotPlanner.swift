/// The one answer to "the extension holds snapshot H; these full snapshots
/// and these deltas are on offer; what gets it to the target?": nothing, a
/// record-only move, a delta or a full replace. A pure function over
/// versions and content digests, generic over how a caller spells them
/// (`CallDirectorySync`'s `SyncPlanner`: `Int` versions and hex digests
/// from a manifest; `CallDirectoryProvider`'s `LoadPlanner`: `UInt64`
/// versions and ``ContentDigest``s from blob headers). Each caller maps its
/// inputs to offers and the ``Choice`` back to its own result, and keeps
/// its own policies (a manifest's periodic full sync and delta cost, a
/// request's complete-or-incremental kind, its refusal messages and
/// downgrade check).
///
/// The rules, in order:
/// 1. **Nothing known is held:** the newest full snapshot (none: nothing
///    fits).
/// 2. **The held content** (where ``Options/sameContentBeforeDeltas`` puts
///    it; content is compared only where both digests are known):
///    - the newest full snapshot has the held digest: ``Choice/upToDate``
///      at the held version, ``Choice/sameContent`` at an older one, and at
///      a newer one too when ``Options/newerSameContentNeedsNoReload``;
///    - else at the held version: ``Choice/upToDate`` when either digest is
///      unknown (judged by version alone), its ``Choice/full(_:)`` when the
///      digests differ (a snapshot rebuilt under the same number);
///    - else, when no full snapshot is newer than the held one, a delta
///      whose target has the held digest at no newer version (it was
///      applied already; the older full snapshot is kept beside it):
///      ``Choice/sameContent``.
/// 3. **A delta built on the held snapshot** (its base version is the held
///    version and, where both are known, its base digest the held digest):
///    the one with the newest target, the first on ties, when its target is
///    no older than the newest full snapshot.
/// 4. Otherwise the newest full snapshot (the first on ties); none: nothing
///    fits.
///
/// Where the two callers decided the same situation differently, the
/// ``Options`` keep each one's behaviour; these are the design decisions:
/// - **Held content or delta first** (``Options/sameContentBeforeDeltas``):
///   a sync makes no request for content an extension holds, not even an
///   empty delta; an extension serving a request applies a delta built on
///   exactly its snapshot even when it changes nothing, and judges the held
///   content only when no such delta wins.
/// - **A newer snapshot with the held content**
///   (``Options/newerSameContentNeedsNoReload``): a sync records the newer
///   version without a reload; an extension serving a request loads it (a
///   request that loads nothing does not move what it holds).
///
/// What the two decided alike, now written once: a delta's base matches by
/// version and by digest where both are known (a manifest names no base
/// digest; a blob header always does), the newest delta target wins and
/// never one older than the newest full snapshot, ties keep the first
/// offer, and a digest known on one side only is judged by version.
public struct SnapshotPlanner<Version: Comparable & Sendable, Digest: Equatable & Sendable>: Sendable {
  /// A snapshot as the planner compares them: its version and, when
  /// known, its content digest.
  public struct Snapshot: Equatable, Sendable {
    public var version: Version
    public var digest: Digest?

    public init(version: Version, digest: Digest?) {
      self.version = version
      self.digest = digest
    }
  }

  /// A delta on offer: the snapshot it applies to and the one it makes.
  public struct Delta: Equatable, Sendable {
    public var base: Snapshot
    public var target: Snapshot

    public init(base: Snapshot, target: Snapshot) {
      self.base = base
      self.target = target
    }
  }

  /// What gets the extension to the target.
  public enum Choice: Equatable, Sendable {
    /// It holds the target's version (and content, where known): nothing.
    case upToDate
    /// It holds an offer's content under another version: no reload; a
    /// caller that records versions may move its record.
    case sameContent
    /// The delta at this index of the offered deltas.
    case delta(Int)
    /// The full snapshot at this index of the offered full snapshots.
    case full(Int)
  }

  /// How the planner decides where its callers differ (see the type's
  /// documentation).
  public struct Options: Equatable, Sendable {
    /// Whether the held content is judged before a delta built on the held
    /// snapshot (true: no request for held content, not even an empty
    /// delta) or only when no such delta wins (false).
    public var sameContentBeforeDeltas: Bool
    /// Whether a full snapshot newer than the held one with the held
    /// content needs no reload (true: ``Choice/sameContent``) or is loaded
    /// (false: ``Choice/full(_:)``, unless a delta wins).
    public var newerSameContentNeedsNoReload: Bool

    public init(sameContentBeforeDeltas: Bool, newerSameContentNeedsNoReload: Bool) {
      self.sameContentBeforeDeltas = sameContentBeforeDeltas
      self.newerSameContentNeedsNoReload = newerSameContentNeedsNoReload
    }
  }

  /// The rules' options.
  public var options: Options

  public init(_ options: Options) {
    self.options = options
  }

  /// The choice for an extension that holds `held` (nil: unknown), or nil
  /// when nothing on offer fits.
  public func choose(held: Snapshot?, fulls: [Snapshot], deltas: [Delta]) -> Choice? {
    let newestFull = Self.newest(fulls.indices) { fulls[$0].version }
    guard let held else { return newestFull.map(Choice.full) }
    let full = newestFull.map { (index: $0, snapshot: fulls[$0]) }
    if options.sameContentBeforeDeltas, let choice = byHeldContent(held, full: full, deltas: deltas) {
      return choice
    }
    if let delta = deltaOnHeld(held, deltas: deltas, newestFull: full?.snapshot) {
      return .delta(delta)
    }
    if !options.sameContentBeforeDeltas, let choice = byHeldContent(held, full: full, deltas: deltas) {
      return choice
    }
    return newestFull.map(Choice.full)
  }

  /// Rule 2: what the held content settles, or nil when it settles nothing.
  private func byHeldContent(
    _ held: Snapshot, full: (index: Int, snapshot: Snapshot)?, deltas: [Delta]
  ) -> Choice? {
    if let (index, snapshot) = full {
      if Self.sameContent(snapshot, held) {
        if snapshot.version == held.version { return .upToDate }
        if snapshot.version < held.version || options.newerSameContentNeedsNoReload { return .sameContent }
      } else if snapshot.version == held.version {
        return snapshot.digest == nil || held.digest == nil ? .upToDate : .full(index)
      }
    }
    let noNewerFull = full.map { $0.snapshot.version < held.version } ?? true
    if noNewerFull, deltas.contains(where: { Self.sameContent($0.target, held) && $0.target.version <= held.version }) {
      return .sameContent
    }
    return nil
  }

  /// Rule 3: the index of the delta built on `held` that wins, if any.
  private func deltaOnHeld(_ held: Snapshot, deltas: [Delta], newestFull: Snapshot?) -> Int? {
    let fitting = deltas.indices.filter { index in
      let base = deltas[index].base
      guard base.version == held.version else { return false }
      guard let baseDigest = base.digest, let heldDigest = held.digest else { return true }
      return baseDigest == heldDigest
    }
    guard let best = Self.newest(fitting, version: { deltas[$0].target.version }) else { return nil }
    if let newestFull, deltas[best].target.version < newestFull.version { return nil }
    return best
  }

  /// Whether both digests are known and equal.
  private static func sameContent(_ snapshot: Snapshot, _ held: Snapshot) -> Bool {
    guard let digest = snapshot.digest, let heldDigest = held.digest else { return false }
    return digest == heldDigest
  }

  /// The index with the highest version, the first on ties.
  private static func newest<Indexes: Sequence<Int>>(_ indexes: Indexes, version: (Int) -> Version) -> Int? {
    var best: Int?
    for index in indexes where best.map({ version(index) > version($0) }) ?? true {
      best = index
    }
    return best
  }
}
