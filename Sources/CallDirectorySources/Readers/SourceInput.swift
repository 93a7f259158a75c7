/// Where a reader gets its bytes from.
public enum SourceInput: Sendable, Hashable {
  /// A file, read in large chunks and never loaded whole.
  case file(path: String)
  /// An in-memory byte array (tests, stdin captured by the CLI).
  case bytes([UInt8])

  /// A name for messages: the path, or `<memory>`.
  public var displayName: String {
    switch self {
    case .file(let path): return path
    case .bytes: return "<memory>"
    }
  }
}
