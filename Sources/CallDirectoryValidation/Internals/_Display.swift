import CallDirectoryFormat

/// Text for messages: raw input bytes shown safely, list names.
enum _Display {
  /// At most `limit` bytes of `bytes`, decoded leniently, with control
  /// characters escaped as `\u{…}` and `…` appended when cut.
  static func raw(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int = 40) -> String {
    let shown = UnsafeBufferPointer(rebasing: bytes.prefix(limit))
    var text = ""
    for scalar in String(decoding: shown, as: UTF8.self).unicodeScalars {
      if _LabelCheck.isControl(scalar.value) {
        text += "\\u{" + String(scalar.value, radix: 16) + "}"
      } else {
        text.unicodeScalars.append(scalar)
      }
    }
    return bytes.count > limit ? text + "…" : text
  }

  /// `U+0009` style.
  static func scalar(_ value: UInt32) -> String {
    let hex = String(value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }

  /// "the blocking list", "the identification adds list".
  static func list(_ section: BlobSection) -> String {
    "the \(section) list"
  }
}
