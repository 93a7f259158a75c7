import Foundation
import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectorySources

@Suite struct XMLSourceReaderTests {
  static let phonebook = """
    <?xml version="1.0" encoding="utf-8"?>
    <phonebooks>
    <phonebook owner="1" name="Telefonbuch">
    <contact>
      <category>0</category>
      <person><realName>Spam GmbH &amp; Co. KG</realName></person>
      <telephony nid="2">
        <number type="work" prio="1" id="0">+4930123456</number>
        <number type="mobile" id="1">  0171 2345678
        </number>
      </telephony>
    </contact>
    <contact><person><realName>Ohne Nummer</realName></person><telephony nid="0"><number type="home" id="0"/></telephony></contact>
    </phonebook>
    <phonebook name="Sperrliste">
    <contact><person><realName>M&#252;ller &#x26; S&#246;hne</realName></person>
    <telephony><number type="home">030 9876543</number><number type="intern">**610</number><number type="fax"><![CDATA[089 111]]></number></telephony></contact>
    </phonebook>
    </phonebooks>

    """

  func reader(
    _ text: String, records: String = "//contact", number: String = "telephony/number",
    label: String? = "person/realName"
  ) throws -> XMLSourceReader {
    try XMLSourceReader(input: input(text), records: records, number: number, label: label)
  }

  @Test func everyNumberOfEveryRecordWithItsLabelAndLine() throws {
    let contents = try readAll(reader(Self.phonebook))
    #expect(
      contents.records == [
        SourceRecord(number: "+4930123456", label: "Spam GmbH & Co. KG", line: 8),
        SourceRecord(number: "0171 2345678", label: "Spam GmbH & Co. KG", line: 9),
        SourceRecord(number: "030 9876543", label: "Müller & Söhne", line: 17),
        SourceRecord(number: "089 111", label: "Müller & Söhne", line: 17),
      ])
    #expect(contents.issues == [SourceIssue(line: 17, reason: "an internal number ('**' dials an extension of the phone system)", text: contents.issues.first?.text)])
    #expect(contents.issues.first?.text?.contains("**610") == true)
    #expect(contents.summary.records == 4)
    #expect(contents.summary.physicalLines == 19)
    #expect(contents.summary.bytes == Self.phonebook.utf8.count)
  }

  @Test func rootedPathsAttributesAndStringExpressions() throws {
    let contents = try readAll(
      reader(
        Self.phonebook, records: "/phonebooks/phonebook/contact", number: "telephony/number[@type='work']",
        label: "concat(../@name, ': ', person/realName)"))
    #expect(contents.records == [SourceRecord(number: "+4930123456", label: "Telefonbuch: Spam GmbH & Co. KG", line: 8)])
    let byAttribute = try readAll(
      reader(Self.phonebook, records: "//phonebook", number: "contact/telephony/number", label: "@name"))
    #expect(byAttribute.records.map(\.label) == ["Telefonbuch", "Telefonbuch", "Sperrliste", "Sperrliste"])
    let alternatives = try readAll(reader(Self.phonebook, records: "//nothing | //phonebook/contact", label: nil))
    #expect(alternatives.records.count == 4 && alternatives.records.allSatisfy { $0.label == nil })
  }

  @Test func rejectsShowTheElementAsWritten() throws {
    var shown: [String] = []
    _ = try reader(Self.phonebook).read { event in
      if case .record(let record) = event { shown.append(record.reportedText) }
    }
    #expect(shown[0] == #"<number type="work" prio="1" id="0">+4930123456</number>"#)
    #expect(shown[3].contains("089 111"))
  }

  @Test func declaredEncodingsAreDecoded() throws {
    let latin1 = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<a><contact><n>+4930111</n><l>".utf8)
      + [0x4D, 0xFC, 0x6C, 0x6C, 0x65, 0x72] + Array("</l></contact></a>\n".utf8)
    let contents = try readAll(
      XMLSourceReader(input: .bytes(latin1), records: "//contact", number: "n", label: "l"))
    #expect(contents.records == [SourceRecord(number: "+4930111", label: "Müller", line: 2)])
    let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<a>\n<contact><n>+4930222</n><l>Ärger</l></contact></a>"
    for form in [UnicodeEncodingForm.utf16LE, .utf16BE] {
      let bytes = form.encode("\u{FEFF}" + text)
      let utf16 = try readAll(XMLSourceReader(input: .bytes(bytes), records: "//contact", number: "n", label: "l"))
      #expect(utf16.records == [SourceRecord(number: "+4930222", label: "Ärger", line: 3)], "\(form)")
    }
  }

  @Test func linesPast65535AreKept() throws {
    let text = "<a>" + String(repeating: "\n", count: 70_000) + "<contact><n>+4930333</n></contact></a>"
    let contents = try XMLSourceReader(input: input(text), records: "//contact", number: "n").readAll()
    #expect(contents.records.map(\.line) == [70_001])
  }

  @Test(arguments: [
    ("contact[@id]", "records"), ("//contact/@id", "records"), ("count(//contact)", "records"),
    ("ancestor::contact", "records"), ("", "records"), ("//contact[", "records"),
    ("telephony/[", "number"), ("foo(", "number"), ("unknownFunction(.)", "number"), ("$nope", "label"),
  ])
  func unusableExpressionsNameTheirKey(expression: String, key: String) {
    #expect {
      _ = try XMLSourceReader(
        input: input("<a/>"), records: key == "records" ? expression : "//contact",
        number: key == "number" ? expression : "n", label: key == "label" ? expression : nil)
    } throws: { error in
      guard let error = error as? SourceOptionError else { return false }
      return error.key == key
        && (key != "records" || error.reason.contains("//contact") && error.reason.contains("/phonebooks/phonebook/contact"))
    }
  }

  @Test func streamablePatternsAreAccepted() throws {
    for pattern in ["//contact", "/phonebooks/phonebook/contact", "//phonebook/contact", "contact", "//*", "//a | //b"] {
      _ = try XMLSourceReader(input: input("<a/>"), records: pattern, number: "n")
    }
  }

  func refusal(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (line: Int?, reason: String) {
    do {
      _ = try reader(text).readAll()
    } catch let error as SourceError {
      guard case .invalidDocument(_, let line, let reason) = error else {
        Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        return (nil, "")
      }
      return (line, reason)
    }
    Issue.record("not refused", sourceLocation: sourceLocation)
    return (nil, "")
  }

  @Test func malformedDocumentsNameTheLineAndLibxml2sReason() throws {
    let mismatch = try refusal("<a>\n<contact>\n<telephony><number>1</number>\n</contact>\n</a>")
    #expect(mismatch.line == 4)
    #expect(mismatch.reason.contains("mismatch"))
    let truncated = try refusal("<a><contact><telephony><number>+4930</number></telephony></contact>")
    #expect(truncated.reason.lowercased().contains("end"))
    let garbage = try refusal("not xml at all")
    #expect(garbage.line == 1)
  }

  @Test func externalEntitiesAreRefused() throws {
    for declaration in [
      #"<!ENTITY xxe SYSTEM "file:///etc/passwd">"#,
      #"<!ENTITY xxe PUBLIC "-//X//Y" "http://127.0.0.1:1/x">"#,
      #"<!ENTITY % pe SYSTEM "file:///etc/passwd">"#,
    ] {
      let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE a [\n\(declaration)\n]>\n<a><contact><person><realName>&xxe;</realName></person><telephony><number>+4930</number></telephony></contact></a>"
      let refused = try refusal(text)
      #expect(refused.reason.contains("external") || refused.reason.contains("not declared") || refused.reason.contains("not defined"), "\(refused.reason)")
    }
    let withoutParameterUse = try refusal(
      "<!DOCTYPE a [\n<!ENTITY xxe SYSTEM \"file:///etc/passwd\">\n]>\n<a><contact><telephony><number>+4930</number></telephony></contact></a>")
    #expect(withoutParameterUse.reason.contains("external entity 'xxe' SYSTEM \"file:///etc/passwd\""))
    let undeclared = try refusal(
      "<!DOCTYPE a SYSTEM \"http://127.0.0.1:1/a.dtd\">\n<a><contact><person><realName>&name;</realName></person><telephony><number>+4930</number></telephony></contact></a>")
    #expect(undeclared.reason.contains("name"))
  }

  @Test func internalEntitiesWithinBoundsAreExpanded() throws {
    let text = "<!DOCTYPE a [\n<!ENTITY firm \"Spam &amp; Eggs\">\n<!ENTITY full \"&firm; GmbH\">\n]>\n<a><contact><person><realName>&full;</realName></person><telephony><number>+4930</number></telephony></contact></a>"
    #expect(try reader(text).readAll().records == [SourceRecord(number: "+4930", label: "Spam & Eggs GmbH", line: 5)])
  }

  @Test func billionLaughsIsRefusedPromptly() throws {
    var declarations = "<!ENTITY lol0 \"lol\">\n"
    for level in 1...9 {
      declarations += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">\n"
    }
    let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE a [\n\(declarations)]>\n<a><contact><person><realName>&lol9;</realName></person><telephony><number>+4930</number></telephony></contact></a>"
    let refused = try refusal(text)
    #expect(refused.reason.contains("entity"), "\(refused.reason)")
    #expect(refused.reason.contains("limited"), "\(refused.reason)")
  }

  /// Six levels of ten references behind a megabyte of comment: libxml2's
  /// own heuristic lets it through (little amplification for the bytes
  /// parsed), the bound on an entity's replacement text does not.
  @Test func aPaddedEntityBombIsRefusedBeforeAnyRecord() throws {
    var declarations = "<!ENTITY lol0 \"lol\">\n"
    for level in 1...6 {
      declarations += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">\n"
    }
    let padding = "<!--" + String(repeating: "x", count: 1 << 20) + "-->"
    let text = "<!DOCTYPE a [\n\(declarations)]>\n<a>\(padding)<contact><person><realName>&lol6;</realName></person><telephony><number>+4930</number></telephony></contact></a>"
    let refused = try refusal(text)
    #expect(refused.line == nil)
    #expect(refused.reason == "entity 'lol6' expands to more than 1048576 bytes (entity expansion is limited)")
  }

  /// One entity of 64 KiB, referenced 40 times in a label: each
  /// expansion is within the bound, all of them together are not.
  @Test func quadraticBlowupIsRefused() throws {
    let big = String(repeating: "A", count: 64 * 1024)
    let references = String(repeating: "&big;", count: 40)
    let text = "<!DOCTYPE a [\n<!ENTITY big \"\(big)\">\n]>\n<a>\n<contact><person><realName>\(references)</realName></person><telephony><number>+4930</number></telephony></contact></a>"
    let refused = try refusal(text)
    #expect(refused.line == 5)
    #expect(refused.reason.contains("entity references expand to more than"), "\(refused.reason)")
  }

  @Test func aRecordPastTheBoundIsRefused() throws {
    let filler = String(repeating: "<x>filler text</x>", count: 80_000)
    let text = "<a>\n<contact>\(filler)<telephony><number>+4930</number></telephony></contact></a>"
    let refused = try refusal(text)
    #expect(refused.line == 2)
    #expect(refused.reason.contains("larger than \(XMLSourceReader.maximumRecordBytes) bytes"))
    // Outside records, large content streams past.
    let outside = "<a>\n\(filler)<contact><telephony><number>+4930</number></telephony></contact></a>"
    #expect(try reader(outside).readAll().records.count == 1)
  }

  @Test func aMissingFileIsAFileError() {
    #expect(throws: SourceError.self) {
      _ = try XMLSourceReader(input: .file(path: "/nonexistent/book.xml"), records: "//contact", number: "n").readAll()
    }
  }

  @Test func readersOnSeveralThreadsKeepTheirOwnErrors() async throws {
    try await withThrowingTaskGroup(of: Bool.self) { group in
      for index in 0..<8 {
        group.addTask {
          let text = index % 2 == 0 ? Self.phonebook : "<a>\n<contact>\n</a>"
          do {
            let contents = try XMLSourceReader(input: input(text), records: "//contact", number: "telephony/number").readAll()
            return contents.records.count == 4
          } catch SourceError.invalidDocument(_, let line, _) {
            return line == 3
          }
        }
      }
      for try await ok in group { #expect(ok) }
    }
  }

  @Test func theFormatAndPresetAreRegistered() throws {
    let registry = SourceFormatRegistry.standard
    #expect(registry["xml"] != nil)
    let preset = try #require(registry["fritzbox-phonebook"])
    #expect(preset.preset?.region == "DE")
    let contents = try preset.makeReader(input: input(Self.phonebook)).readAll()
    #expect(contents.records.count == 4)
    #expect(contents.records.first?.label == "Spam GmbH & Co. KG")
  }
}
