/// What is wrong with an entry or line, as named in JSON output (`kind`).
///
/// Every kind is an error (the input is invalid) except
/// ``controlCharacter``, which is a warning.
public enum ViolationKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// A number smaller than the one before it in the same list (`out-of-order`).
  case outOfOrder = "out-of-order"
  /// A number equal to the one before it in the same list (`duplicate`).
  case duplicate = "duplicate"
  /// A number outside `1...CXCallDirectoryPhoneNumberMax` (`Int64.max - 1`),
  /// including zero, negative numbers and numbers that overflow `Int64`
  /// (`out-of-range`).
  case outOfRange = "out-of-range"
  /// A number field that is not plain decimal digits (`not-a-number`): a
  /// leading `+`, a leading zero, spaces, separators or other junk.
  case notANumber = "not-a-number"
  /// An identification entry whose label is empty (`empty-label`).
  case emptyLabel = "empty-label"
  /// A label that is not valid UTF-8 (`invalid-utf8`).
  case invalidUTF8 = "invalid-utf8"
  /// An empty line that is followed by more content (`empty-line`); empty
  /// lines at the end of a text file are allowed.
  case emptyLine = "empty-line"
  /// A text line longer than ``ValidationOptions/maxLineLength`` (`line-too-long`).
  case lineTooLong = "line-too-long"
  /// A label holding a control character such as a tab (`control-character`);
  /// a warning.
  case controlCharacter = "control-character"

  /// The severity this kind is reported with.
  public var severity: ViolationSeverity {
    self == .controlCharacter ? .warning : .error
  }

  /// The JSON name, e.g. `out-of-order`.
  public var description: String { rawValue }
}

/// Whether a violation makes the input invalid.
public enum ViolationSeverity: String, Sendable, Hashable, CustomStringConvertible {
  /// The input is invalid: CallKit would refuse the request or the entry is unusable.
  case error
  /// Worth fixing, but CallKit accepts it.
  case warning

  /// `error` or `warning`.
  public var description: String { rawValue }
}
