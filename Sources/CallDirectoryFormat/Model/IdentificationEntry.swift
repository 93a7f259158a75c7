/// An identification entry with its label text (in-memory model).
///
/// Equality and hashing compare the label's UTF-8 bytes, not Swift's
/// canonical string equivalence, because the content digest does too:
/// `"é"` precomposed and `"e\u{301}"` are different labels here.
public struct IdentificationEntry: Sendable, Hashable, CustomStringConvertible {
  /// The phone number.
  public var number: Int64
  /// The label shown for the caller.
  public var label: String

  /// Creates an entry.
  public init(number: Int64, label: String) {
    self.number = number
    self.label = label
  }

  /// Equal numbers and byte-identical labels.
  public static func == (lhs: IdentificationEntry, rhs: IdentificationEntry) -> Bool {
    lhs.number == rhs.number && lhs.label.utf8.elementsEqual(rhs.label.utf8)
  }

  /// Hashes the number and the label's UTF-8 bytes.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(number)
    for byte in label.utf8 { hasher.combine(byte) }
  }

  /// `number: label`.
  public var description: String { "\(number): \(label)" }
}
