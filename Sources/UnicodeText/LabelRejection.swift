// Foundation is imported on purpose: this module must build next to it even
// though CICUShim uses ICU (see CICUShim.h and the style guide, §0).
import Foundation

/// Why a label was rejected by ``LabelSanitizer``.
public enum LabelRejection: Error, Hashable, Sendable, CustomStringConvertible {
  /// Nothing was left once control characters and white space were removed.
  case empty
  /// The bytes are not valid UTF-8; `offset` is the first bad byte.
  case invalidUTF8(offset: Int)
  /// ICU failed while normalizing or segmenting; `code` is ICU's `UErrorCode`.
  case unicodeFailure(code: Int32)

  /// A lowercase, human-readable reason.
  public var description: String {
    switch self {
    case .empty:
      return "label is empty after cleanup"
    case .invalidUTF8(let offset):
      return "label is not valid utf-8 (bad byte at offset \(offset))"
    case .unicodeFailure(let code):
      return "label could not be normalized (icu error \(code))"
    }
  }
}

extension LabelRejection: LocalizedError {
  /// The same text as ``description``.
  public var errorDescription: String? { description }
}
