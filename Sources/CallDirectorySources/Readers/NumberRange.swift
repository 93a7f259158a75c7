/// An inclusive range of E.164 numbers written as 64-bit integers.
///
/// `33162######` is `33162000000...33162999999`; a single number is a range
/// whose bounds are equal. Readers guarantee `1 <= lower <= upper` and
/// `upper < Int64.max`, so `upper + 1` never overflows.
public struct NumberRange: Sendable, Hashable {
  /// The smallest number in the range.
  public var lower: Int64
  /// The largest number in the range (inclusive).
  public var upper: Int64

  /// Creates a range; returns `nil` unless `1 <= lower <= upper < Int64.max`.
  public init?(lower: Int64, upper: Int64) {
    guard lower >= 1, lower <= upper, upper < Int64.max else { return nil }
    self.lower = lower
    self.upper = upper
  }

  /// How many numbers the range holds.
  public var count: Int64 { upper - lower + 1 }

  /// Whether `number` lies inside the range.
  public func contains(_ number: Int64) -> Bool {
    lower <= number && number <= upper
  }
}

/// A ``NumberRange`` with the line of the source that produced it.
public struct SourceRange: Sendable, Hashable {
  /// The inclusive range.
  public var range: NumberRange
  /// The 1-based physical line of the pattern.
  public var line: Int
  /// The line as read, escaped and cut for reports, when the reader kept it.
  public var text: String?

  /// Creates a located range.
  public init(range: NumberRange, line: Int, text: String? = nil) {
    self.range = range
    self.line = line
    self.text = text
  }
}
