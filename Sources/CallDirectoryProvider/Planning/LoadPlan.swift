/// How the provider serves one request.
public enum LoadStrategy: String, Hashable, Sendable, CaseIterable {
  /// A complete request (`isIncremental` was `false`): every entry of a
  /// full snapshot is added, nothing is removed.
  case complete
  /// An incremental request applying a delta whose base is the held
  /// snapshot: blocking removes, identification removes, blocking adds,
  /// identification adds.
  case delta
  /// An incremental request without a fitting delta: `removeAllBlockingEntries()`,
  /// `removeAllIdentificationEntries()`, then every entry of a full snapshot.
  case replace
  /// An incremental request when the system already holds the newest
  /// available snapshot: no entry calls, just `completeRequest`.
  case upToDate
}

/// The provider's decision for one request.
public struct LoadPlan: Hashable, Sendable {
  /// How the request is served.
  public var strategy: LoadStrategy
  /// The blob streamed; `nil` for ``LoadStrategy/upToDate``.
  public var blob: BlobCandidate?
  /// The snapshot the system holds once the request commits.
  public var target: SnapshotIdentity
  /// The snapshot the provider held before (`nil` when unknown).
  public var held: SnapshotIdentity?
  /// Candidates that were skipped because their header was unreadable.
  public var skipped: [CallDirectoryProviderError]

  /// Creates a plan.
  public init(
    strategy: LoadStrategy, blob: BlobCandidate?, target: SnapshotIdentity, held: SnapshotIdentity?,
    skipped: [CallDirectoryProviderError] = []
  ) {
    self.strategy = strategy
    self.blob = blob
    self.target = target
    self.held = held
    self.skipped = skipped
  }

  /// Whether the request removes entries or applies on top of stored ones
  /// (everything but ``LoadStrategy/complete``).
  public var isIncremental: Bool { strategy != .complete }
}
