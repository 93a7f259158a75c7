import FormatFixtures
import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectorySources

/// Random inputs made of the bytes the readers treat specially must never
/// crash, must give the same result for every chunk size, and must deliver
/// one event per data line.
@Suite struct ReaderFuzzTests {
  static let alphabet: [UInt8] =
    Array("0123456789+-# ,;\t\"\r\n\n:/.{}[]TELFNabc".utf8)
    + [0xFF, 0xE2, 0x80, 0x93, 0xC3, 0xA9, 0xEF, 0xBB, 0xBF, 0x00]

  static func samples(seed: UInt64) -> [[UInt8]] {
    var generator = SplitMix64(seed: seed)
    return (0..<150).map { _ in
      let count = Int.random(in: 0..<120, using: &generator)
      return (0..<count).map { _ in
        alphabet.randomElement(using: &generator) ?? 0x30
      }
    }
  }

  @Test func linesAndPatterns() throws {
    for bytes in Self.samples(seed: 1) {
      _ = try readAll(LinesSourceReader(input: .bytes(bytes)))
      _ = try readAll(PatternsSourceReader(input: .bytes(bytes)))
    }
  }

  @Test func delimited() throws {
    for bytes in Self.samples(seed: 2) {
      let withHeader = Array("a,b\n".utf8) + bytes
      _ = try readAll(
        DelimitedSourceReader(
          input: .bytes(withHeader), numberColumn: "a", labelColumn: "b"))
      _ = try readAll(
        DelimitedSourceReader(
          input: .bytes(Array("a\tb\n".utf8) + bytes), delimiter: 0x09,
          numberColumn: "b"))
    }
  }

  @Test func vcardAndJSONLines() throws {
    for bytes in Self.samples(seed: 3) {
      _ = try readAll(
        VCardSourceReader(input: .bytes(Array("BEGIN:VCARD\n".utf8) + bytes)))
      // A first line that opens an array, or a `{` without the rest of
      // its object, stops the read: it is one JSON document.
      do {
        _ = try readAll(
          JSONLinesSourceReader(
            input: .bytes(bytes), numberKey: "n", labelKey: "l"))
      } catch SourceError.jsonDocumentInJSONLines(_, let line, nil) {
        #expect(line >= 1)
      }
    }
  }

  @Test func jsonDocuments() throws {
    for bytes in Self.samples(seed: 4) {
      for options: SourceOptions in [[:], ["number": "n", "label": "/l"]] {
        // Broken documents stop the read with a SourceError, never a crash.
        do {
          _ = try readAll(JSONDocumentSourceReader(input: .bytes(bytes), options: options))
        } catch is SourceError {}
      }
    }
  }
}
