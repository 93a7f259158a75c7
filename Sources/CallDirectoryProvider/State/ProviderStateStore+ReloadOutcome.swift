extension ProviderStateStore {
  /// For the app: records what `reloadExtension` reported, in case the
  /// extension could not (it died, or lost the system, between completing
  /// the request and writing its state, which leaves the state pending).
  ///
  /// A committed reload means the system holds `plan.target`; a failed one
  /// that it still holds what it held before. The file is rewritten only
  /// when it says otherwise. Call it while no request for the extension can
  /// run (on the simulated device, under the extension's reservation).
  ///
  /// - Parameters:
  ///   - plan: The request's plan, as ``LoadPlanner`` chose it from
  ///     `previous` and the blob the extension was given.
  ///   - previous: The state before the request.
  ///   - committed: Whether the reload succeeded.
  /// - Returns: The state the file now holds.
  /// - Throws: ``CallDirectoryProviderError/stateWriteFailed(path:reason:)``.
  @discardableResult
  public func recordReloadOutcome(
    of plan: LoadPlan, previous: ProviderState, committed: Bool
  ) throws(CallDirectoryProviderError) -> ProviderState {
    let expected = committed ? ProviderState(loaded: plan.target) : previous
    if (try? load()) == expected { return expected }
    try save(expected)
    return expected
  }
}

extension ProviderStateStore {
  /// For the app's sync: records that the extension holds `target`
  /// without a reload, because it holds `target`'s entries already (its
  /// held snapshot has `target`'s content digest) under another version.
  ///
  /// A sync calls it for an extension whose content a new version left as
  /// it was (`CallDirectorySync`'s `SyncPlan.Step.unchanged`): the
  /// extension costs the phone nothing, and its recorded version moves to
  /// the new one so that the next delta, built from that version, applies
  /// (``LoadPlanner`` requires a delta's base version and digest to be the
  /// held snapshot's). Call it while no request for the extension can run
  /// (on the simulated device, under the extension's reservation).
  ///
  /// - Returns: The state the file now holds; nil, with the file
  ///   unchanged, when the extension does not hold `target`'s content (a
  ///   request whose outcome was never recorded, or other entries): it
  ///   needs a reload.
  /// - Throws: ``CallDirectoryProviderError/stateUnreadable(path:reason:)``,
  ///   ``CallDirectoryProviderError/stateWriteFailed(path:reason:)``.
  @discardableResult
  public func recordSameContent(as target: SnapshotIdentity) throws(CallDirectoryProviderError) -> ProviderState? {
    let state = try loadForPlanning()
    guard let held = state.heldSnapshot, held.digest == target.digest else { return nil }
    let recorded = ProviderState(loaded: target)
    if state != recorded { try save(recorded) }
    return recorded
  }
}
