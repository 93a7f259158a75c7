import CICUShim
import Testing

@Suite struct CICUShimTests {
  @Test func decimalDigitValues() {
    #expect(cd_decimal_digit_value(0x37) == 7)  // 7
    #expect(cd_decimal_digit_value(0xFF15) == 5)  // ５
    #expect(cd_decimal_digit_value(0x1D7D7) == 9)  // 𝟗 (supplementary plane)
    #expect(cd_decimal_digit_value(0xB2) == -1)  // ² is No, not Nd
    #expect(cd_decimal_digit_value(0x41) == -1)
    #expect(cd_decimal_digit_value(0xD800) == -1)  // surrogate
    #expect(cd_decimal_digit_value(0x110000) == -1)  // beyond Unicode
  }

  @Test func characterClasses() {
    #expect(cd_is_control_or_format(0x07) == 1)  // BEL, Cc
    #expect(cd_is_control_or_format(0x202E) == 1)  // RLO, Cf
    #expect(cd_is_control_or_format(0x200B) == 1)  // ZWSP, Cf
    #expect(cd_is_control_or_format(0xFEFF) == 1)  // BOM, Cf
    #expect(cd_is_control_or_format(0x200D) == 0)  // ZWJ kept
    #expect(cd_is_control_or_format(0x200C) == 0)  // ZWNJ kept (Persian spelling)
    #expect(cd_is_control_or_format(0xFE0F) == 0)  // VS16 kept
    #expect(cd_is_control_or_format(0xE0100) == 0)  // VS17 kept
    #expect(cd_is_control_or_format(0x41) == 0)
    #expect(cd_is_whitespace(0x09) == 1)
    #expect(cd_is_whitespace(0xA0) == 1)  // NBSP
    #expect(cd_is_whitespace(0x3000) == 1)  // ideographic space
    #expect(cd_is_whitespace(0x200B) == 0)  // ZWSP is not White_Space
    #expect(cd_is_whitespace(0x41) == 0)
  }

  @Test func nfcPreflightAndOverflow() {
    let input: [CChar] = Array("e\u{301}".utf8).map { CChar(bitPattern: $0) }
    var status: Int32 = -99
    let needed = cd_nfc_utf8(input, Int32(input.count), nil, 0, &status)
    #expect(needed == 2)  // U+00E9 is two UTF-8 bytes
    #expect(status == CD_ICU_BUFFER_OVERFLOW)

    var output = [CChar](repeating: 0, count: Int(needed))
    let written = cd_nfc_utf8(input, Int32(input.count), &output, needed, &status)
    #expect(written == 2)
    #expect(status <= CD_ICU_SUCCESS)
    #expect(output.map { UInt8(bitPattern: $0) } == [0xC3, 0xA9])
  }

  @Test func nfcRejectsInvalidUTF8() {
    let input: [CChar] = [0x41, CChar(bitPattern: 0xC3)]
    var status: Int32 = 0
    var output = [CChar](repeating: 0, count: 8)
    _ = cd_nfc_utf8(input, 2, &output, 8, &status)
    #expect(status == CD_ICU_INVALID_CHAR_FOUND)
  }

  @Test func graphemes() {
    let family = Array("👨‍👩‍👧ab".utf8).map { CChar(bitPattern: $0) }
    #expect(cd_grapheme_count_utf8(family, Int32(family.count)) == 3)
    // One grapheme: the whole 18-byte family emoji.
    #expect(cd_grapheme_prefix_utf8(family, Int32(family.count), 1) == 18)
    #expect(cd_grapheme_prefix_utf8(family, Int32(family.count), 0) == 0)
    #expect(cd_grapheme_prefix_utf8(family, Int32(family.count), 99) == Int32(family.count))
    #expect(cd_grapheme_prefix_utf8(family, Int32(family.count), -1) == -1)
  }
}
