import CallDirectoryFormat

/// What the provider remembers between requests: the snapshot the system
/// last committed for it, and a request that may or may not have committed.
///
/// The loader writes ``pending`` just before `completeRequest` and replaces
/// the whole state once the completion reports success (or failure). A
/// state that still has ``pending`` set means the extension died in that
/// short window, so nobody knows which snapshot the system holds:
/// ``heldSnapshot`` is then `nil` and the next incremental request resets
/// the lists and loads a full blob.
public struct ProviderState: Hashable, Sendable {
  /// The snapshot the last committed request left in the system, if known.
  public var loaded: SnapshotIdentity?
  /// The snapshot of a request whose outcome was never recorded.
  public var pending: SnapshotIdentity?

  /// Creates a state (the default is the state of a fresh install).
  public init(loaded: SnapshotIdentity? = nil, pending: SnapshotIdentity? = nil) {
    self.loaded = loaded
    self.pending = pending
  }

  /// The snapshot a delta may be applied to: ``loaded`` when no request is
  /// in doubt, else `nil`.
  public var heldSnapshot: SnapshotIdentity? {
    pending == nil ? loaded : nil
  }
}
