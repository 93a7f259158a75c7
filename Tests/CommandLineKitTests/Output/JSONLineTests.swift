import CalldirSystem
import CommandLineKit
import Testing

@Suite struct JSONLineTests {
  @Test func writesOneLinePerValue() {
    let sink = MemorySink()
    sink.writeJSONLine(["n": "+1 (555)\n"])
    sink.writeJSONLine(["n": 2])
    #expect(sink.text == "{\"n\":\"+1 (555)\\n\"}\n{\"n\":2}\n")
  }

  @Test func aMalformedDocumentIsADataError() {
    let error = JSONParseError(line: 3, column: 14, reason: .duplicateKey("region"))
    #expect(error.exitCode == .dataError)
  }
}
