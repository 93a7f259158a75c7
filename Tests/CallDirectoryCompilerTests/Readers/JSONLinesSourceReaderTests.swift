import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectorySources

@Suite struct JSONLinesSourceReaderTests {
  @Test func objectsWithConfiguredKeys() throws {
    let text = """
      {"number": "+1 555 0100", "description": "Robocall", "confidence": 0.9}
      {"number": 41215030004, "description": null}

      {"number": " +44 20 ", "description": "  Bank  ", "extra": [1, {"a": 2}]}\r
      {"description": "no number"}
      {"number": 1.5}
      {"number": 99999999999999999999}
      {"number": "+1", "description": 5}
      [1, 2]
      {"number": "+1"
      {"number": ""}
      {"number": null}

      """
    let reader = JSONLinesSourceReader(
      input: input(text), numberKey: "number", labelKey: "description")
    let contents = try readAll(reader)
    #expect(
      contents.records == [
        SourceRecord(number: "+1 555 0100", label: "Robocall", line: 1),
        SourceRecord(number: "41215030004", label: nil, line: 2),
        SourceRecord(number: "+44 20", label: "Bank", line: 4),
      ])
    #expect(
      contents.issues.map(\.reason) == [
        "missing key 'number'",
        "'number' must be a string or an integer, found number",
        "'number' must be a string or an integer, found number",
        "'description' must be a string, found integer",
        "expected a json object, found array",
        "invalid json (column 16: unexpected end of input)",
        "empty number",
        "missing key 'number'",
      ])
    #expect(contents.issues.map(\.line) == [5, 6, 7, 8, 9, 10, 11, 12])
    #expect(contents.summary.dataLines == 11)
  }

  @Test func invalidUTF8() throws {
    let bytes = Array("{\"n\": \"+1".utf8) + [0xFE] + Array("\"}\n".utf8)
    let contents = try readAll(
      JSONLinesSourceReader(input: .bytes(bytes), numberKey: "n"))
    #expect(contents.issues.map(\.reason) == ["invalid utf-8"])
  }
}
