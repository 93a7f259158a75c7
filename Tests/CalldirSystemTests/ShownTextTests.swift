import CalldirSystem
import Testing

/// The one escaping rule for paths, labels and inputs wherever they are shown.
@Suite struct ShownTextTests {
  @Test func everyC0ControlAndDeleteIsEscaped() {
    for value in UInt32(0)..<0x20 {
      let scalar = Unicode.Scalar(value)!
      #expect(ShownText.isHidden(scalar))
      let shown = ShownText.escaped("a" + String(scalar) + "b")
      let expected: String
      switch value {
      case 0x09: expected = "a\\tb"
      case 0x0A: expected = "a\\nb"
      case 0x0D: expected = "a\\rb"
      default: expected = "a\\x" + (value < 0x10 ? "0" : "") + String(value, radix: 16, uppercase: true) + "b"
      }
      #expect(shown == expected, "U+\(String(value, radix: 16))")
    }
    #expect(ShownText.escaped("a\u{7F}b") == "a\\x7Fb")
  }

  @Test func everyC1ControlIsEscaped() {
    for value in UInt32(0x80)...0x9F {
      let scalar = Unicode.Scalar(value)!
      #expect(ShownText.isHidden(scalar))
      #expect(ShownText.escaped(String(scalar)) == "\\u00" + String(value, radix: 16, uppercase: true))
    }
  }

  @Test func anEscapeSequenceCannotReachTheTerminal() {
    // Clear the screen, then print a fake result.
    let name = "lists\u{1B}[2J\u{1B}[Hpublished version 99.txt"
    let shown = ShownText.escaped(name)
    #expect(!shown.unicodeScalars.contains { $0.value < 0x20 })
    #expect(shown == "lists\\x1B[2J\\x1B[Hpublished version 99.txt")
    // A terminal line keeps its tabs and line feeds, nothing else.
    #expect(ShownText.laidOut("a\tb\n") == nil)
    #expect(ShownText.laidOut("plain ASCII and Zürich") == nil)
    #expect(ShownText.laidOut("a\tb\u{1B}c\r\n") == "a\tb\\x1Bc\\r\n")
  }

  @Test(arguments: [
    0x061C, 0x200B, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2060, 0x2066, 0x2067, 0x2068, 0x2069,
    0xFEFF, 0x2028, 0x2029,
  ] as [UInt32])
  func bidirectionalAndInvisibleFormatCharactersAreEscaped(value: UInt32) {
    let scalar = Unicode.Scalar(value)!
    #expect(ShownText.isHidden(scalar))
    let digits = String(value, radix: 16, uppercase: true)
    #expect(ShownText.escaped("x" + String(scalar) + "y") == "x\\u" + String(repeating: "0", count: 4 - digits.count) + digits + "y")
  }

  @Test func aFormatCharacterAboveTheBasicPlaneHasBraces() {
    // A tag character.
    #expect(ShownText.escaped("a\u{E0041}") == "a\\u{E0041}")
  }

  @Test(arguments: [
    "Zürich", "東京", "مرحبا بالعالم", "שלום עולם", "Ελληνικά", "नमस्ते", "🚫 démarchage", "👨‍👩‍👧 family",
    "می‌خواهم", "a\\x1B stays a backslash", "1️⃣",
  ])
  func ordinaryTextOfEveryScriptIsKept(text: String) {
    #expect(ShownText.escaped(text) == text)
    #expect(ShownText.laidOut(text) == nil)
  }

  @Test func bytesThatAreNotUTF8AreEscapedByteByByte() {
    let bytes: [UInt8] = [0x61, 0xFF, 0xC3, 0x28, 0xE2, 0x80, 0xAE, 0xED, 0xA0, 0x80, 0xC0, 0xAF, 0x62]
    let shown = bytes.withUnsafeBufferPointer { ShownText.escaped($0) }
    // 0xC3 0x28 is a broken pair; ED A0 80 a surrogate; C0 AF overlong.
    #expect(shown == "a\\xFF\\xC3(\\u202E\\xED\\xA0\\x80\\xC0\\xAFb")
  }

  @Test func aCutNeverSplitsAnEscape() {
    let text = Array((String(repeating: "a", count: 118) + "\u{1B}zz").utf8)
    let shown = text.withUnsafeBufferPointer { ShownText.escaped($0, maxCharacters: 120) }
    #expect(shown == String(repeating: "a", count: 118))
    let fits = Array((String(repeating: "a", count: 116) + "\u{1B}zz").utf8)
    #expect(fits.withUnsafeBufferPointer { ShownText.escaped($0, maxCharacters: 120) }
      == String(repeating: "a", count: 116) + "\\x1B")
  }

  @Test func jsonWritesHiddenCharactersAsEscapesAndReadsThemBack() throws {
    let value = "report\u{202E}txt.exe \u{7F}\u{85}\u{1B} Zürich 東京 \u{E0041}"
    let text = JSONValue.string(value).serialized()
    #expect(text == "\"report\\u202etxt.exe \\u007f\\u0085\\u001b Zürich 東京 \\udb40\\udc41\"")
    #expect(try JSONParser.parse(text) == .string(value))
    // Ordinary text is written as it is.
    #expect(JSONValue.string("مرحبا \"q\" \\").serialized() == "\"مرحبا \\\"q\\\" \\\\\"")
  }
}
