import CallDirectoryFormat
import CalldirSystem
import CommandLineKit
import Testing
@testable import CallDirectoryValidation

/// Runs validation and the writer together, as the command does.
private func report(
  _ bytes: [UInt8], style: ValidationReportWriter.Style, maxReported: Int? = 20
) throws -> String {
  var text = ""
  let writer = ValidationReportWriter(name: "list.txt", style: style) { text += $0 }
  let summary = try DatasetValidator(options: ValidationOptions(maxReported: maxReported))
    .validate(bytes: bytes, name: "list.txt") { writer.write($0) }
  writer.finish(summary)
  return text
}

@Suite struct ReportWriterTests {
  @Test func textFormat() throws {
    let text = try report(Array("1\n10\n2\n3\tBell\u{7}\n".utf8), style: .text)
    #expect(text == """
      list.txt:3: error: out of order: 2 after 10 in the blocking list
      list.txt:4: warning: label for 3 contains control character U+0007
      list.txt: note: blocking entries look sorted as text, not numerically (e.g. 2 after 10); \
      sort with `sort -n` or let `calldir build` do it
      list.txt: invalid: 1 error, 1 warning in 4 entries (3 blocking, 1 identification)

      """)
  }

  @Test func textValidAndTruncated() throws {
    #expect(try report(Array("1\n2\n".utf8), style: .text)
      == "list.txt: valid: 2 entries (2 blocking, 0 identification)\n")
    let truncated = try report(Array("x\ny\nz\n".utf8), style: .text, maxReported: 1)
    #expect(truncated == """
      list.txt:1: error: not a number: 'x'
      list.txt: note: 2 more violations not shown (use --max-errors 0 to show all)
      list.txt: invalid: 3 errors in 3 entries (3 blocking, 0 identification)

      """)
  }

  @Test func blobLocation() throws {
    let bytes = try fullBlob(blocking: [], identification: [(7, 0)], labels: [""])
    let text = try report(bytes, style: .text)
    #expect(text == """
      list.txt:entry 1 (identification): error: empty label for 7
      list.txt: invalid: 1 error in 1 entry (0 blocking, 1 identification)

      """)
  }

  @Test func jsonShape() throws {
    let output = try report(Array("1\n10\n2\n\u{22}q\u{22}\n3\t\n".utf8), style: .json, maxReported: 2)
    #expect(output.hasSuffix("}\n"))
    #expect(output.filter { $0 == "\n" }.count == 1)
    let json = try JSONParser.parse(output)
    #expect(json["valid"]?.boolValue == false)
    #expect(json["entries"]?.intValue == 5)
    #expect(json["truncated"]?.boolValue == true)
    #expect(json["errors"]?.intValue == 3)
    #expect(json["warnings"]?.intValue == 0)
    #expect(json["format"]?.stringValue == "text")
    #expect(json["file"]?.stringValue == "list.txt")
    #expect(json["hint"]?.stringValue?.contains("sorted as text") == true)
    #expect(json["lists"]?["blocking"]?.intValue == 4)
    let violations = try #require(json["violations"]?.arrayValue)
    #expect(violations.count == 2)
    let first = try #require(violations.first)
    #expect(first["line"]?.intValue == 3)
    #expect(first["entry"]?.isNull == true)
    #expect(first["kind"]?.stringValue == "out-of-order")
    #expect(first["severity"]?.stringValue == "error")
    #expect(first["number"]?.intValue == 2)
    #expect(first["previous"]?.intValue == 10)
    #expect(first["list"]?.stringValue == "blocking")
    #expect(first["message"]?.stringValue == "out of order: 2 after 10 in the blocking list")
    let second = try #require(violations.last)
    #expect(second["kind"]?.stringValue == "not-a-number")
    #expect(second["number"]?.isNull == true)
    #expect(second["previous"]?.isNull == true)
    #expect(second["message"]?.stringValue == "not a number: '\"q\"'")
  }

  @Test func jsonValidAndBlob() throws {
    let valid = try JSONParser.parse(try report(Array("1\n".utf8), style: .json))
    #expect(valid["valid"]?.boolValue == true)
    #expect(valid["violations"]?.arrayValue?.isEmpty == true)
    #expect(valid["truncated"]?.boolValue == false)
    #expect(valid["hint"]?.isNull == true)

    let bytes = try deltaBlob(
      blockingRemoves: [1], blockingAdds: [2], identificationRemoves: [],
      identificationAdds: [(9, 0)], labels: [""])
    let blob = try JSONParser.parse(try report(bytes, style: .json))
    #expect(blob["format"]?.stringValue == "delta")
    #expect(blob["entries"]?.intValue == 3)
    #expect(blob["lists"]?["identificationAdds"]?.intValue == 1)
    let violation = try #require(blob["violations"]?[0])
    #expect(violation["line"]?.isNull == true)
    #expect(violation["entry"]?.intValue == 1)
    #expect(violation["list"]?.stringValue == "identificationAdds")
    #expect(violation["kind"]?.stringValue == "empty-label")
    #expect(violation["number"]?.intValue == 9)
  }

  @Test func jsonEscapesControlCharacters() {
    #expect(ValidationReportWriter.json("a\u{1}b\"\\\n") == "\"a\\u0001b\\\"\\\\\\n\"")
  }

  /// A file name or message is written as every other `--json` document
  /// writes strings: DEL and the characters `ShownText` hides as escapes,
  /// so that a name cannot fake text when the document is shown raw.
  @Test func jsonEscapesHiddenCharactersAsJSONValueDoes() {
    for text in ["evil\u{202E}txt.cdir", "a\u{7F}b", "tag\u{E0041}", "Zürich 東京 🚫"] {
      #expect(ValidationReportWriter.json(text) == JSONValue.string(text).serialized())
    }
    #expect(ValidationReportWriter.json("evil\u{202E}txt") == "\"evil\\u202etxt\"")
  }
}
