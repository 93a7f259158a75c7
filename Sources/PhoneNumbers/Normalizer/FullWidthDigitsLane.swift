/// Lines written with full-width digits (`＋１ ２１２ ５５５ ０１００`, as
/// East Asian input methods type them), read by the byte fast path after
/// transcoding those characters to ASCII, instead of by the general path.
///
/// libphonenumber treats U+FF10–U+FF19 exactly as `0`–`9` and U+FF0B
/// exactly as `+` in every step of `parse`: both are decimal digits (or a
/// plus) of the same value, both word characters, none is punctuation, a
/// letter, an extension label or a `phone-context` character. Only the
/// vanity reading would tell them apart (it keeps ASCII digits alone), and
/// it needs letters after the number's start, which the byte fast path
/// never takes. So the transcoded text's outcome is the original's;
/// `FullWidthDigitsLaneTests` checks it against the general path.
extension PhoneNumberNormalizer {
  /// The packed outcome for `bytes`, or `PackedOutcome.notHandled` when
  /// they hold another non-ASCII character, no full-width digit or plus,
  /// or the byte fast path declines the transcoded text.
  func fullWidthPackedOutcome(
    utf8 bytes: UnsafeBufferPointer<UInt8>, region: RegionMetadata?, national: UnsafeMutablePointer<Bool>?
  ) -> Int64 {
    let count = bytes.count
    // Over 250 characters either way: the general path counts them.
    guard count > 0 && count <= 750 else { return PackedOutcome.notHandled }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer -> Int64 in
      var length = 0
      var index = 0
      var transcoded = false
      while index < count {
        let byte = bytes[index]
        if byte < 0x80 {
          buffer[length] = byte
          length &+= 1
          index &+= 1
          continue
        }
        // U+FF0B is EF BC 8B; U+FF10...U+FF19 are EF BC 90...99.
        guard byte == 0xEF, index &+ 2 < count, bytes[index &+ 1] == 0xBC else { return PackedOutcome.notHandled }
        let last = bytes[index &+ 2]
        if last >= 0x90 && last <= 0x99 {
          buffer[length] = last &- 0x90 &+ 0x30
        } else if last == 0x8B {
          buffer[length] = 0x2B
        } else {
          return PackedOutcome.notHandled
        }
        length &+= 1
        index &+= 3
        transcoded = true
      }
      guard transcoded else { return PackedOutcome.notHandled }
      return fastPackedOutcome(
        utf8: UnsafeBufferPointer(rebasing: buffer[0..<length]), region: region, national: national)
    }
  }
}
