import CICUShim

/// Swift entry points over the UTF-8 functions of `CICUShim`.
enum _ICUText {
  /// Returns `text` in Normalization Form C, or ICU's error code.
  ///
  /// The corresponding shim call is `cd_nfc_utf8` (`unorm2_getNFCInstance`).
  static func nfc(_ text: String) -> Result<String, LabelRejection> {
    if text.utf8.allSatisfy({ $0 < 0x80 }) {
      return .success(text)  // ASCII is always NFC.
    }
    let source = Array(text.utf8)
    guard let sourceLength = Int32(exactly: source.count) else {
      return .failure(.unicodeFailure(code: CD_ICU_ILLEGAL_ARGUMENT))
    }
    // NFC rarely grows text; start with the same size plus slack.
    var capacity = source.count + 16
    for _ in 0..<2 {
      var status: Int32 = CD_ICU_SUCCESS
      var output = [UInt8](repeating: 0, count: capacity)
      let needed = source.withUnsafeBufferPointer { src in
        output.withUnsafeMutableBufferPointer { dst in
          src.withMemoryRebound(to: CChar.self) { srcChars in
            dst.withMemoryRebound(to: CChar.self) { dstChars in
              cd_nfc_utf8(
                srcChars.baseAddress, sourceLength, dstChars.baseAddress,
                Int32(clamping: dstChars.count), &status)
            }
          }
        }
      }
      if status == CD_ICU_BUFFER_OVERFLOW, needed > capacity {
        capacity = Int(needed)
        continue
      }
      guard status <= CD_ICU_SUCCESS, needed >= 0, needed <= output.count else {
        return .failure(.unicodeFailure(code: status))
      }
      return .success(String(decoding: output[..<Int(needed)], as: UTF8.self))
    }
    return .failure(.unicodeFailure(code: CD_ICU_BUFFER_OVERFLOW))
  }

  /// Returns the longest prefix of `text` with at most `maximum` extended
  /// grapheme clusters, never splitting one.
  ///
  /// The corresponding shim call is `cd_grapheme_prefix_utf8` (`ubrk_open`
  /// with `UBRK_CHARACTER`).
  static func prefix(
    _ text: String, maximumGraphemes maximum: Int
  ) -> Result<String, LabelRejection> {
    let utf8 = text.utf8
    if utf8.count <= maximum {
      return .success(text)  // Every grapheme takes at least one byte.
    }
    let source = Array(utf8)
    guard let sourceLength = Int32(exactly: source.count) else {
      return .failure(.unicodeFailure(code: CD_ICU_ILLEGAL_ARGUMENT))
    }
    let length = source.withUnsafeBufferPointer { src in
      src.withMemoryRebound(to: CChar.self) { chars in
        cd_grapheme_prefix_utf8(
          chars.baseAddress, sourceLength, Int32(clamping: maximum))
      }
    }
    guard length >= 0, length <= sourceLength,
      let end = utf8.index(
        utf8.startIndex, offsetBy: Int(length), limitedBy: utf8.endIndex),
      let scalarEnd = end.samePosition(in: text.unicodeScalars)
    else {
      return .failure(.unicodeFailure(code: CD_ICU_ILLEGAL_ARGUMENT))
    }
    return .success(String(Substring(text.unicodeScalars[..<scalarEnd])))
  }

  /// Returns the number of extended grapheme clusters in `text`, or `nil`
  /// if ICU fails.
  ///
  /// The corresponding shim call is `cd_grapheme_count_utf8`.
  static func graphemeCount(_ text: String) -> Int? {
    let source = Array(text.utf8)
    guard let sourceLength = Int32(exactly: source.count) else { return nil }
    let count = source.withUnsafeBufferPointer { src in
      src.withMemoryRebound(to: CChar.self) { chars in
        cd_grapheme_count_utf8(chars.baseAddress, sourceLength)
      }
    }
    return count >= 0 ? Int(count) : nil
  }
}
