/// What the simulated system does when an incremental request adds a number
/// that is already in the store (and was not removed earlier in the request).
///
/// iOS's behaviour is unconfirmed. The default, ``reject``, is the strict
/// choice: a delta that loads under it also loads if iOS turns out to be
/// lenient. Either way a changed label should be sent as a remove followed by
/// an add, as Gogolook does.
public enum IncrementalReAddPolicy: String, Hashable, Sendable, CaseIterable {
  /// The request fails with
  /// ``CXErrorCodeCallDirectoryManagerError/Code/duplicateEntries``.
  case reject
  /// The added entry replaces the stored one (its label wins).
  case replace
}
