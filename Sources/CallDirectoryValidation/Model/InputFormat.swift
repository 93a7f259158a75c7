/// The kind of input that was validated, detected from its first bytes.
public enum InputFormat: String, Sendable, Hashable, CustomStringConvertible {
  /// Text: one entry per line, `number` or `number<TAB>label`.
  case text
  /// A calldir full snapshot blob (starts with `CDIR`, kind 1).
  case fullSnapshot = "full"
  /// A calldir delta blob (starts with `CDIR`, kind 2).
  case delta

  /// `text`, `full` or `delta`, as printed in JSON.
  public var description: String { rawValue }
}
