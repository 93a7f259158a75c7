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
