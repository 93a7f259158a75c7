/// What can be wrong with a label's bytes.
enum _LabelIssue: Hashable {
  /// No bytes.
  case empty
  /// Not valid UTF-8 (overlong forms, surrogates and values past U+10FFFF included).
  case invalidUTF8
  /// Valid UTF-8 holding a control character (the first one is kept).
  case control(UInt32)

  var kind: ViolationKind {
    switch self {
    case .empty: .emptyLabel
    case .invalidUTF8: .invalidUTF8
    case .control: .controlCharacter
    }
  }

  /// The message for the entry with `number` (if it could be read).
  func message(number: Int64?) -> String {
    let subject = number.map { "label for \($0)" } ?? "label"
    switch self {
    case .empty: return "empty " + subject
    case .invalidUTF8: return subject + " is not valid utf-8"
    case .control(let value): return subject + " contains control character " + _Display.scalar(value)
    }
  }
}

/// Checks label bytes.
enum _LabelCheck {
  /// The issue with `bytes`, or `nil` for a good label. Invalid UTF-8 wins
  /// over control characters; control characters are only looked for when
  /// `controls` is `true`.
  static func inspect(_ bytes: UnsafeBufferPointer<UInt8>, controls: Bool) -> _LabelIssue? {
    if bytes.isEmpty { return .empty }
    // Fast path: printable ASCII.
    var printable = true
    for byte in bytes where byte &- 0x20 >= 0x5F {
      printable = false
      break
    }
    if printable { return nil }
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    var control: UInt32?
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar):
        if control == nil, isControl(scalar.value) { control = scalar.value }
      case .emptyInput:
        guard controls, let control else { return nil }
        return .control(control)
      case .error:
        return .invalidUTF8
      }
    }
  }

  /// Unicode general category Cc: U+0000–U+001F and U+007F–U+009F.
  static func isControl(_ value: UInt32) -> Bool {
    value < 0x20 || (0x7F...0x9F).contains(value)
  }
}
