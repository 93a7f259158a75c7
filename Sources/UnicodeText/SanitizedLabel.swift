/// A label cleaned by ``LabelSanitizer``, with what the cleanup changed.
public struct SanitizedLabel: Hashable, Sendable {
  /// The cleaned label: NFC, trimmed, at most the sanitizer's cap.
  public let text: String
  /// Whether the label was cut to the sanitizer's ``LabelSanitizer/maximumCharacters``.
  public let wasTruncated: Bool
  /// Whether the cleaned text differs from the input in any way.
  public let wasModified: Bool
}
