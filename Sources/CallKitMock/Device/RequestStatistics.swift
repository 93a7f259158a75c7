/// Counts of the calls a request made.
public struct RequestStatistics: Hashable, Sendable {
  /// Reads of `isIncremental`.
  public var incrementalReads = 0
  /// `addBlockingEntry` calls.
  public var blockingAdds = 0
  /// `addIdentificationEntry` calls.
  public var identificationAdds = 0
  /// `removeBlockingEntry` calls.
  public var blockingRemoves = 0
  /// `removeIdentificationEntry` calls.
  public var identificationRemoves = 0
  /// `removeAllBlockingEntries` calls.
  public var removeAllBlockingCalls = 0
  /// `removeAllIdentificationEntries` calls.
  public var removeAllIdentificationCalls = 0

  /// Creates zero counts.
  public init() {}
}
