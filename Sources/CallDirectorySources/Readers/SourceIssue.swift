/// A data line that the reader itself could not parse.
///
/// Issues are not fatal: the compiler counts them against the source's
/// `maxRejectRatio`. `reason` is a short lowercase message such as
/// `invalid utf-8`, `empty number` or `'#' wildcard must be trailing`.
public struct SourceIssue: Sendable, Hashable, CustomStringConvertible {
  /// The 1-based physical line where the rejected record starts.
  public var line: Int
  /// Why the line was rejected, lowercase.
  public var reason: String
  /// The rejected line as read, escaped and cut at 120 characters (see
  /// the rejects report in `schemas/reports.md`), or nil when the reader
  /// kept none.
  public var text: String?

  /// Creates an issue.
  public init(line: Int, reason: String, text: String? = nil) {
    self.line = line
    self.reason = reason
    self.text = text
  }

  /// `line N: reason`.
  public var description: String { "line \(line): \(reason)" }
}
