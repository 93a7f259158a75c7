/// Which list of the Call Directory dataset a source feeds.
public enum SourceList: String, Sendable, Hashable, CaseIterable {
  /// Numbers to block.
  case block
  /// Numbers to label (caller ID); needs labels.
  case identify
  /// Numbers never to block or label; they win over the other lists.
  case allow
}
