import CallDirectorySync

/// `SyncPlanner.step` as it was written before ``SnapshotPlanner`` (in
/// `CallDirectoryFormat`) planned for it: kept in the tests only, as the
/// oracle ``SyncPlannerAgreementTests`` checks the adapter against.
enum PreviousSyncPlanner {
  static func step(
    for item: Manifest.Extension, version: Int, held: HeldSnapshot?, fullOnly: Bool = false
  ) -> SyncPlan.Step {
    guard let held else { return .full(item.full) }
    if let digest = item.digest, let heldDigest = held.digest {
      if digest == heldDigest { return held.version == version ? .upToDate : .unchanged }
      if held.version == version { return .full(item.full) }
    } else if held.version == version {
      return .upToDate
    }
    if !fullOnly, let delta = item.deltas.first(where: { $0.from == held.version }),
      ReloadCost.prefersDelta(delta, over: item)
    {
      return .delta(delta)
    }
    return .full(item.full)
  }
}
