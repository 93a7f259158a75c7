/// The changes from a base snapshot to a target snapshot (in-memory model).
///
/// Removes come before adds when applied; a label change is a remove plus an
/// add of the same number. Every list is strictly ascending.
public struct SnapshotDelta: Sendable, Hashable {
  /// The version of the snapshot this delta applies to.
  public var baseVersion: UInt64
  /// The content digest of the snapshot this delta applies to.
  public var baseDigest: ContentDigest
  /// The version of the snapshot this delta produces.
  public var targetVersion: UInt64
  /// The content digest of the snapshot this delta produces.
  public var targetDigest: ContentDigest
  /// Blocking numbers to remove.
  public var blockingRemoves: [Int64]
  /// Blocking numbers to add.
  public var blockingAdds: [Int64]
  /// Identification numbers to remove.
  public var identificationRemoves: [Int64]
  /// Identification entries to add.
  public var identificationAdds: [IdentificationEntry]

  /// Creates a delta from its parts.
  public init(
    baseVersion: UInt64, baseDigest: ContentDigest, targetVersion: UInt64,
    targetDigest: ContentDigest, blockingRemoves: [Int64] = [], blockingAdds: [Int64] = [],
    identificationRemoves: [Int64] = [], identificationAdds: [IdentificationEntry] = []
  ) {
    self.baseVersion = baseVersion
    self.baseDigest = baseDigest
    self.targetVersion = targetVersion
    self.targetDigest = targetDigest
    self.blockingRemoves = blockingRemoves
    self.blockingAdds = blockingAdds
    self.identificationRemoves = identificationRemoves
    self.identificationAdds = identificationAdds
  }

  /// Computes the delta that turns `base` into `target`.
  /// - Throws: `BlobError` if either snapshot is invalid.
  public init(from base: Snapshot, to target: Snapshot) throws(BlobError) {
    let baseDigest = try base.contentDigest()
    let targetDigest = try target.contentDigest()
    var blockingRemoves = [Int64](), blockingAdds = [Int64]()
    _diff(base.blocking, target.blocking, key: { $0 }, same: { _, _ in true },
          removed: { blockingRemoves.append($0) }, added: { blockingAdds.append($0) })
    var identificationRemoves = [Int64](), identificationAdds = [IdentificationEntry]()
    _diff(base.identification, target.identification, key: { $0.number }, same: { $0 == $1 },
          removed: { identificationRemoves.append($0.number) },
          added: { identificationAdds.append($0) })
    self.init(
      baseVersion: base.version, baseDigest: baseDigest, targetVersion: target.version,
      targetDigest: targetDigest, blockingRemoves: blockingRemoves, blockingAdds: blockingAdds,
      identificationRemoves: identificationRemoves, identificationAdds: identificationAdds)
    _checkInvariants(base: base, target: target)
  }

  /// Checks, in debug builds, what ``init(from:to:)`` makes true of two
  /// valid snapshots (it has checked both): every list strictly ascending,
  /// no blocking number both removed and added, and the base with the
  /// removes taken out and the adds put in is the target. O(entries), as
  /// the diff is. Release builds compile none of it.
  func _checkInvariants(base: Snapshot, target: Snapshot) {
    #if DEBUG
      func ascending(_ numbers: [Int64]) -> Bool { zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 } }
      precondition(ascending(blockingRemoves) && ascending(blockingAdds), "blocking changes not strictly ascending")
      precondition(
        ascending(identificationRemoves) && ascending(identificationAdds.map(\.number)),
        "identification changes not strictly ascending")
      precondition(Set(blockingRemoves).isDisjoint(with: blockingAdds), "a blocking number both removed and added")
      precondition(baseVersion == base.version && targetVersion == target.version, "versions not the snapshots'")
      let blocking = try? _merge(base.blocking, removing: blockingRemoves, adding: blockingAdds, key: { $0 }, section: .blocking)
      precondition(blocking == target.blocking, "the base's blocking numbers with the changes are not the target's")
      let identification = try? _merge(
        base.identification, removing: identificationRemoves, adding: identificationAdds, key: { $0.number },
        section: .identification)
      precondition(identification == target.identification, "the base's entries with the changes are not the target's")
    #endif
  }

  /// Whether the delta changes nothing.
  public var isEmpty: Bool {
    blockingRemoves.isEmpty && blockingAdds.isEmpty && identificationRemoves.isEmpty
      && identificationAdds.isEmpty
  }
}

/// Walks two ascending lists; reports removed and added elements (an
/// element present in both but not `same` is removed and added).
private func _diff<Element>(
  _ old: [Element], _ new: [Element], key: (Element) -> Int64,
  same: (Element, Element) -> Bool, removed: (Element) -> Void, added: (Element) -> Void
) {
  var i = 0, j = 0
  while i < old.count || j < new.count {
    if j == new.count || (i < old.count && key(old[i]) < key(new[j])) {
      removed(old[i])
      i += 1
    } else if i == old.count || key(new[j]) < key(old[i]) {
      added(new[j])
      j += 1
    } else {
      if !same(old[i], new[j]) {
        removed(old[i])
        added(new[j])
      }
      i += 1
      j += 1
    }
  }
}
