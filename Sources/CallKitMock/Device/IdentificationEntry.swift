/// One identification entry of the system store: a number and its label.
public struct IdentificationEntry: Hashable, Sendable, CustomStringConvertible {
  /// The phone number.
  public var number: CXCallDirectoryPhoneNumber
  /// The label shown for incoming calls from ``number``.
  public var label: String

  /// Creates an entry.
  public init(number: CXCallDirectoryPhoneNumber, label: String) {
    self.number = number
    self.label = label
  }

  /// `<number> <label>`.
  public var description: String { "\(number) \(label)" }
}
