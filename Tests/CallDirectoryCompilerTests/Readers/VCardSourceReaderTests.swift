import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectorySources

@Suite struct VCardSourceReaderTests {
  @Test func telPropertiesInEveryStyle() throws {
    let text = """
      BEGIN:VCARD\r
      VERSION:3.0\r
      FN:Spam Caller\r
      TEL;TYPE=VOICE,HOME:+35929034100\r
      item2.TEL;type=pref:+1 (567) 123-4567\r
      item2.X-ABLabel:_$!<Other>!$_\r
      TEL;VALUE=uri;PREF=1;TYPE="voice,home":tel:+1-555-555-5555;ext=5555\r
      tel;type=work,voice,pref,msg:+1-213-555-1234\r
      TEL:\r
      END:VCARD\r
      BEGIN:VCARD\r
      VERSION:4.0\r
      TEL;VALUE=uri;TYPE=home:tel:+33-01-23-45-67\r
      ORG:Acme\\, Inc.;Sales\r
      END:VCARD\r

      """
    let contents = try readAll(VCardSourceReader(input: input(text)))
    #expect(
      contents.records == [
        SourceRecord(number: "+35929034100", label: "Spam Caller", line: 4),
        SourceRecord(
          number: "+1 (567) 123-4567", label: "Spam Caller", line: 5),
        SourceRecord(number: "+1-555-555-5555", label: "Spam Caller", line: 7),
        SourceRecord(number: "+1-213-555-1234", label: "Spam Caller", line: 8),
        SourceRecord(number: "+33-01-23-45-67", label: "Acme, Inc.", line: 13),
      ])
    #expect(contents.issues.map(\.line) == [9])
    #expect(contents.issues.map(\.reason) == ["empty number"])
    #expect(contents.summary.dataLines == 6)
  }

  /// Real exports keep the category in `NOTE` or `CATEGORIES`: `label`
  /// names the property, its first non-empty value in the card, escapes
  /// decoded; a card without it gives unlabelled numbers.
  @Test(arguments: [
    ("NOTE", ["Werbung Anruf", nil, "Gewinnspiel"]),
    ("categories", ["Spam,Fraud", nil, nil]),
    ("ORG", ["Acme, Inc.", "Beta", nil]),
    ("X-SPAM-TYPE", [nil, "robocall", nil]),
    ("FN", ["Spam-github-bna-90001", nil, "Third"]),
  ])
  func labelNamesAProperty(property: String, labels: [String?]) throws {
    let text = """
      BEGIN:VCARD
      FN:Spam-github-bna-90001
      NOTE:
      NOTE:Werbung\\nAnruf
      CATEGORIES:Spam,Fraud
      ORG:Acme\\, Inc.;Sales
      TEL:+4930123456
      END:VCARD
      BEGIN:VCARD
      ORG:Beta
      item1.X-SPAM-TYPE:robocall
      TEL:+4930123457
      END:VCARD
      BEGIN:VCARD
      FN:Third
      TEL:+4930123458
      NOTE:Gewinnspiel
      END:VCARD

      """
    var reader = VCardSourceReader(input: input(text))
    reader.labelProperty = try VCardSourceReader.propertyName(property)
    let contents = try readAll(reader)
    #expect(contents.records.map(\.label) == labels)
    #expect(contents.records.map(\.line) == [7, 12, 16])
  }

  @Test(arguments: ["TEL", "tel", "", "X FOO", "NOTE;X", "Zäh"])
  func labelMustBeAPropertyName(name: String) {
    #expect(throws: SourceOptionError.self) { try VCardSourceReader.propertyName(name) }
  }

  @Test func configChoosesTheLabelProperty() throws {
    let format = try #require(SourceFormatRegistry.standard["vcard"])
    #expect(format.options.map(\.name) == ["label"])
    let reader = try #require(try format.makeReader(input: input(""), options: ["label": .string("note")]) as? VCardSourceReader)
    #expect(reader.labelProperty == "NOTE")
    let plain = try #require(try format.makeReader(input: input(""), options: [:]) as? VCardSourceReader)
    #expect(plain.labelProperty == nil)
  }

  @Test func foldedLinesAndLateNames() throws {
    let text = """
      BEGIN:VCARD
      TEL;TYPE=cell:+41 21
       5 50 30 04
      FN:Late
        Name
      END:VCARD
      TEL:+44 20 7946 0000

      """
    let contents = try readAll(VCardSourceReader(input: input(text)))
    #expect(
      contents.records == [
        SourceRecord(number: "+41 215 50 30 04", label: "Late Name", line: 2),
        SourceRecord(number: "+44 20 7946 0000", label: nil, line: 7),
      ])
  }

  @Test func invalidUTF8InNumberIsAnIssue() throws {
    let bytes =
      Array("BEGIN:VCARD\nTEL:+1".utf8) + [0xFF]
      + Array("\nEND:VCARD\n".utf8)
    let contents = try readAll(VCardSourceReader(input: .bytes(bytes)))
    #expect(contents.records.isEmpty)
    #expect(contents.issues.map(\.reason) == ["invalid utf-8"])
    #expect(contents.issues.map(\.line) == [2])
  }

  @Test func missingEndStillDelivers() throws {
    let contents = try readAll(
      VCardSourceReader(input: input("BEGIN:VCARD\nFN:X\nTEL:+1 555")))
    #expect(
      contents.records == [
        SourceRecord(number: "+1 555", label: "X", line: 3)
      ])
  }

  /// vCard 2.1 as Android and older phones export contacts: names in
  /// quoted-printable UTF-8 with soft line breaks, or in another charset.
  @Test func quotedPrintableNamesAndCharsetsAreDecoded() throws {
    var bytes = Array("""
      BEGIN:VCARD\r
      VERSION:2.1\r
      N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=D0=9F=D0=B5=D1=82=D1=80=D0=BE=D0=B2;=D0=98=D0=B2=D0=B0=D0=BD;;;\r
      FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=D0=98=D0=B2=D0=B0=D0=BD=20=D0=9F=D0=B5=D1=82=D1=\r
      =80=D0=BE=D0=B2\r
      TEL;CELL:+359 88 123 4567\r
      END:VCARD\r
      BEGIN:VCARD\r
      VERSION:2.1\r
      FN;QUOTED-PRINTABLE;CHARSET=ISO-8859-1:Soci=E9t=E9 =3D Caf=e9\r
      TEL;WORK;ENCODING=QUOTED-PRINTABLE:+33=201=2023=2045=2067=2089\r
      END:VCARD\r
      BEGIN:VCARD\r
      FN;CHARSET=Windows-1251:
      """.utf8)
    bytes += [0xC8, 0xE2, 0xE0, 0xED]  // "Иван" in Windows-1251
    bytes += Array("\r\nTEL:+7 495 123-45-67\r\nFN;ENCODING=QUOTED-PRINTABLE:x=\r\nEND:VCARD\r\n".utf8)
    let contents = try readAll(VCardSourceReader(input: .bytes(bytes)))
    #expect(
      contents.records == [
        SourceRecord(number: "+359 88 123 4567", label: "Иван Петров", line: 6),
        SourceRecord(number: "+33 1 23 45 67 89", label: "Société = Café", line: 11),
        SourceRecord(number: "+7 495 123-45-67", label: "x", line: 15),
      ])
    #expect(contents.issues.isEmpty)
  }
}
