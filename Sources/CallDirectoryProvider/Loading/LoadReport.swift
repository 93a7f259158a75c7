/// How many entry calls a request made.
public struct EntryCallCounts: Hashable, Sendable {
  /// `addBlockingEntry` calls.
  public var blockingAdds: UInt64 = 0
  /// `addIdentificationEntry` calls.
  public var identificationAdds: UInt64 = 0
  /// `removeBlockingEntry` calls.
  public var blockingRemoves: UInt64 = 0
  /// `removeIdentificationEntry` calls.
  public var identificationRemoves: UInt64 = 0
  /// Whether `removeAllBlockingEntries()` and `removeAllIdentificationEntries()` were called.
  public var removedAll = false

  /// Zero counts.
  public init() {}
}

/// How a served request ended.
public enum LoadOutcome: Hashable, Sendable {
  /// The system committed the entries (`expired == false`); the provider
  /// state now names the plan's target.
  case committed
  /// The system did not add the entries (`expired == true`); the provider
  /// state is what it was before.
  case expired
  /// The provider cancelled the request with this error; the system commits
  /// nothing and the provider state is unchanged.
  case cancelled(CallDirectoryProviderError)
}

/// What ``CallDirectoryLoader/serve(_:completion:)`` did.
public struct LoadReport: Hashable, Sendable {
  /// What `isIncremental` returned.
  public var isIncremental: Bool
  /// The plan, or `nil` when the request was refused before planning ended.
  public var plan: LoadPlan?
  /// The entry calls made.
  public var counts: EntryCallCounts
  /// How the request ended.
  public var outcome: LoadOutcome
  /// A failure to record the outcome in the state file after the request
  /// ended (the next incremental request then resets and loads a full blob).
  public var stateError: CallDirectoryProviderError?

  /// Creates a report.
  public init(
    isIncremental: Bool, plan: LoadPlan?, counts: EntryCallCounts, outcome: LoadOutcome,
    stateError: CallDirectoryProviderError? = nil
  ) {
    self.isIncremental = isIncremental
    self.plan = plan
    self.counts = counts
    self.outcome = outcome
    self.stateError = stateError
  }
}
