import Foundation
import Testing

/// `"format": "xml"` and the `fritzbox-phonebook` preset through the built
/// binary: a FRITZ!Box export with several phonebooks, contacts with one to
/// three numbers, an internal number, names with special characters and an
/// ISO-8859-1 file; provenance in `explain`; refused documents and
/// expressions; byte-identical stores.
@Suite struct XMLSourceCommandTests {
  /// A FRITZ!Box export as the box writes it (line numbers matter: the
  /// tests name them).
  static let phonebook = """
    <?xml version="1.0" encoding="utf-8"?>
    <phonebooks>
    <phonebook owner="1" name="Telefonbuch">
    <contact>
    <category>0</category>
    <person>
    <realName>Spam GmbH &amp; Co. KG</realName>
    </person>
    <telephony nid="3">
    <number type="work" prio="1" id="0">+49 30 1234567</number>
    <number type="mobile" id="1">0171 2345678</number>
    <number type="intern" id="2">**610</number>
    </telephony>
    <services />
    <setup />
    <mod_time>1700000000</mod_time>
    <uniqueid>1</uniqueid>
    </contact>
    <contact>
    <category>0</category>
    <person>
    <realName>Dr. Jürgen Weiß „Zahnarzt“ &lt;Praxis&gt;</realName>
    </person>
    <telephony nid="1">
    <number type="home" prio="1" id="0">030 98765432</number>
    </telephony>
    <uniqueid>2</uniqueid>
    </contact>
    </phonebook>
    <phonebook owner="2" name="Firma">
    <contact>
    <person><realName>Gewinnspiel-Hotline</realName></person>
    <telephony nid="2"><number type="work" id="0">089 55512345</number><number type="fax_work" id="1">089 55512346</number></telephony>
    </contact>
    <contact>
    <person><realName>Nur E-Mail</realName></person>
    <telephony nid="0"><number type="home" id="0" /></telephony>
    <services><email classifier="private" id="0">nur@example.org</email></services>
    </contact>
    </phonebook>
    </phonebooks>

    """

  /// A FRITZ!Box list saved as ISO-8859-1: `Müller Straßenbau` in Latin-1 bytes.
  static let latin1: Data = {
    var bytes = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<phonebooks>\n<phonebook name=\"Sperrliste\">\n<contact><person><realName>M".utf8)
    bytes += [0xFC] + Array("ller Stra".utf8) + [0xDF] + Array("enbau</realName></person>\n<telephony><number type=\"home\" id=\"0\">0221 4711000</number></telephony></contact>\n</phonebook>\n</phonebooks>\n".utf8)
    return Data(bytes)
  }()

  static func write(_ directory: TemporaryDirectory, config: String? = nil) throws -> String {
    try directory.write("fritz/phonebook.xml", phonebook)
    try latin1.write(to: URL(fileURLWithPath: directory.path("fritz/sperrliste.xml")))
    let text = config ?? """
      {"defaultRegion": "ZZ", "maxRejectRatio": 0.5, "sources": [
        {"path": "fritz/phonebook.xml", "format": "fritzbox-phonebook", "list": "identify"},
        {"path": "fritz/sperrliste.xml", "format": "xml", "list": "block", "region": "DE",
         "records": "/phonebooks/phonebook/contact", "number": "telephony/number", "label": "person/realName"}
      ]}
      """
    try directory.write("calldir.json", text)
    return directory.path("calldir.json")
  }

  @Test func aFritzBoxPhonebookBuildsWithProvenance() throws {
    let directory = try TemporaryDirectory()
    let config = try Self.write(directory)
    let store = directory.path("store")
    let built = try CalldirProcess.run(["build", "--config", config, "--store", store, "--json"])
    #expect(built.status == 0, "\(built.standardError)")
    let document = try parseJSON(built.standardOutput)
    let counts = try #require(document["counts"] as? [String: Any])
    #expect(counts["identification"] as? Int == 5, "\(counts)")
    #expect(counts["blocking"] as? Int == 1, "\(counts)")

    // The internal number is rejected at its element's line, with its reason.
    let rejects = try String(contentsOfFile: "\(store)/rejects/rejects-000001.txt", encoding: .utf8)
    let rejected = rejects.split(separator: "\n").filter { $0.contains("phonebook.xml") }
    #expect(rejected.count == 1, "\(rejects)")
    #expect(rejected.first?.hasPrefix("fritz/phonebook.xml:12: ") == true, "\(rejects)")
    #expect(rejected.first?.contains("an internal number ('**' dials an extension of the phone system)") == true, "\(rejects)")
    #expect(rejected.first?.contains(#"<number type="intern" id="2">**610</number>"#) == true, "\(rejects)")

    let explained = try CalldirProcess.run([
      "explain", "--store", store, "--json", "+4917123456 78", "+493098765432", "+4989 55512346", "+49221 4711000",
    ])
    #expect(explained.status == 0, "\(explained.standardError)")
    #expect(explained.lines.count == 4)
    func sources(_ line: String) throws -> [String] {
      let object = try parseJSON(line)
      return (object["sources"] as? [[String: Any]] ?? []).map { "\($0["path"] ?? ""):\($0["line"] ?? "")" }
    }
    let mobile = try parseJSON(explained.lines[0])
    #expect(mobile["label"] as? String == "Spam GmbH & Co. KG")
    #expect(try sources(explained.lines[0]) == ["fritz/phonebook.xml:11"])
    let dentist = try parseJSON(explained.lines[1])
    #expect(dentist["label"] as? String == "Dr. Jürgen Weiß „Zahnarzt“ <Praxis>")
    #expect(try sources(explained.lines[1]) == ["fritz/phonebook.xml:25"])
    #expect(try sources(explained.lines[2]) == ["fritz/phonebook.xml:33"])
    let latin = try parseJSON(explained.lines[3])
    #expect(latin["blocked"] as? Bool == true)
    #expect(try sources(explained.lines[3]) == ["fritz/sperrliste.xml:5"])
  }

  /// The document is read through CalldirSystem's file descriptors: a
  /// read that fails (fault injection) fails the build with 74, naming
  /// the file, and publishes nothing.
  @Test func aFailedReadOfTheDocumentPublishesNothing() throws {
    let directory = try TemporaryDirectory()
    let config = try Self.write(directory)
    var failedOnTheDocument = 0
    for call in 1...14 {
      let store = directory.path("store-\(call)")
      let result = try CalldirProcess.run(
        ["build", "--config", config, "--store", store], environment: ["CALLDIR_FAULTS": "read:\(call):EIO"])
      guard result.standardError.contains("phonebook.xml: input/output error") else { continue }
      failedOnTheDocument += 1
      #expect(result.status == 74, "\(result.standardError)")
      #expect(!FileManager.default.fileExists(atPath: "\(store)/snapshots/snapshot-000001.cdir"))
    }
    #expect(failedOnTheDocument >= 1)
  }

  @Test func theSameDocumentsGiveByteIdenticalStores() throws {
    let directory = try TemporaryDirectory()
    let config = try Self.write(directory)
    for store in ["one", "two"] {
      let built = try CalldirProcess.run(["build", "--config", config, "--store", directory.path(store), "--as-of", "2026-12-01"])
      #expect(built.status == 0, "\(built.standardError)")
    }
    let name = "snapshots/snapshot-000001.cdir"
    let one = try Data(contentsOf: URL(fileURLWithPath: directory.path("one/\(name)")))
    #expect(one == (try Data(contentsOf: URL(fileURLWithPath: directory.path("two/\(name)")))))
    #expect(one.count > 0)
  }

  func refusedBuild(_ document: String, records: String = "//contact") throws -> CalldirProcess.Result {
    let directory = try TemporaryDirectory()
    try directory.write("book.xml", document)
    try directory.write("calldir.json", """
      {"defaultRegion": "DE", "sources": [
        {"path": "book.xml", "format": "xml", "list": "identify", "records": "\(records)",
         "number": "telephony/number", "label": "person/realName"}
      ]}
      """)
    return try CalldirProcess.run(
      ["build", "--config", directory.path("calldir.json"), "--store", directory.path("store")], timeout: 60)
  }

  @Test func anExternalEntityIsRefusedAndNothingIsRead() throws {
    let directory = try TemporaryDirectory()
    try directory.write("secret.txt", "+4930999999\n")
    let result = try refusedBuild("""
      <?xml version="1.0"?>
      <!DOCTYPE phonebooks [
      <!ENTITY xxe SYSTEM "file://\(directory.path("secret.txt"))">
      ]>
      <phonebooks><contact><person><realName>x</realName></person><telephony><number>&xxe;</number></telephony></contact></phonebooks>
      """)
    #expect(result.status == 65, "\(result.standardError)")
    #expect(result.standardError.contains("book.xml: the document type declares the external entity 'xxe'"), "\(result.standardError)")
    #expect(!result.standardError.contains("+4930999999"))
  }

  @Test func anEntityNeedingAnExternalDTDIsRefused() throws {
    let result = try refusedBuild("""
      <?xml version="1.0"?>
      <!DOCTYPE phonebooks SYSTEM "http://127.0.0.1:9/phonebook.dtd">
      <phonebooks><contact><person><realName>&company;</realName></person><telephony><number>+4930123456</number></telephony></contact></phonebooks>
      """)
    #expect(result.status == 65, "\(result.standardError)")
    #expect(result.standardError.contains("book.xml:3:"), "\(result.standardError)")
    #expect(result.standardError.contains("company"), "\(result.standardError)")
  }

  @Test func billionLaughsIsRefusedPromptly() throws {
    var declarations = "<!ENTITY lol0 \"lol\">\n"
    for level in 1...9 {
      declarations += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">\n"
    }
    let started = Date()
    let result = try refusedBuild("""
      <?xml version="1.0"?>
      <!DOCTYPE phonebooks [
      \(declarations)]>
      <phonebooks><contact><person><realName>&lol9;</realName></person><telephony><number>+4930123456</number></telephony></contact></phonebooks>
      """)
    #expect(result.status == 65, "\(result.standardError)")
    #expect(!result.timedOut)
    #expect(Date().timeIntervalSince(started) < 30)
    #expect(result.standardError.contains("entity"), "\(result.standardError)")
  }

  /// Six levels of ten references (3 MB of text) behind a megabyte of
  /// comment: too little amplification for libxml2's own entity-loop
  /// heuristic (it weighs expansion against the bytes parsed so far), so
  /// only calldir's bound on an entity's replacement text refuses it,
  /// before any record is read.
  @Test func aPaddedEntityBombIsRefusedByTheEntityBound() throws {
    var declarations = "<!ENTITY lol0 \"lol\">\n"
    for level in 1...6 {
      declarations += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">\n"
    }
    let result = try refusedBuild("""
      <?xml version="1.0"?>
      <!DOCTYPE phonebooks [
      \(declarations)]>
      <phonebooks>
      <!--\(String(repeating: "x", count: 1 << 20))-->
      <contact><person><realName>&lol6;</realName></person><telephony><number>+4930123456</number></telephony></contact></phonebooks>
      """)
    #expect(result.status == 65, "\(result.standardError)")
    #expect(
      result.standardError.contains("book.xml: entity 'lol6' expands to more than 1048576 bytes (entity expansion is limited)"),
      "\(result.standardError)")
  }

  /// One 64 KiB entity, referenced 200 times in a name: 12.8 MB of text
  /// from a 66 KB file. Without the bound the label would be read whole
  /// (and rejected as too long, the build succeeding).
  @Test func quadraticBlowupIsRefused() throws {
    let big = String(repeating: "A", count: 64 * 1024)
    let result = try refusedBuild("""
      <?xml version="1.0"?>
      <!DOCTYPE phonebooks [
      <!ENTITY big "\(big)">
      ]>
      <phonebooks>
      <contact><person><realName>\(String(repeating: "&big;", count: 200))</realName></person><telephony><number>+4930123456</number></telephony></contact></phonebooks>
      """)
    #expect(result.status == 65, "\(result.standardError)")
    #expect(result.standardError.contains("book.xml:6: entity references expand to more than"), "\(result.standardError)")
  }

  @Test func malformedXMLNamesTheLineAndLibxml2sMessage() throws {
    let result = try refusedBuild("""
      <phonebooks>
      <contact><person><realName>A</realName></person><telephony><number>+4930123456</number></telephony></contact>
      <contact><person><realName>B</realName></person>
      <telephony><number>+4930123457</numbr></telephony></contact>
      </phonebooks>
      """)
    #expect(result.status == 65, "\(result.standardError)")
    #expect(result.standardError.contains("book.xml:4: Opening and ending tag mismatch"), "\(result.standardError)")
  }

  @Test func aNonStreamablePatternIsAConfigError() throws {
    let result = try refusedBuild("<phonebooks/>", records: "//contact[person]")
    #expect(result.status == 65, "\(result.standardError)")
    #expect(result.standardError.contains("sources[0].records"), "\(result.standardError)")
    #expect(result.standardError.contains("/phonebooks/phonebook/contact"), "\(result.standardError)")
  }

  @Test func aBadXPathIsAConfigErrorWithLibxml2sReason() throws {
    let directory = try TemporaryDirectory()
    try directory.write("book.xml", "<a/>")
    try directory.write("calldir.json", """
      {"sources": [{"path": "book.xml", "format": "xml", "list": "block", "records": "//contact", "number": "telephony/number["}]}
      """)
    let result = try CalldirProcess.run(["build", "--config", directory.path("calldir.json"), "--store", directory.path("s")])
    #expect(result.status == 65, "\(result.standardError)")
    #expect(result.standardError.contains("sources[0].number"), "\(result.standardError)")
    #expect(result.standardError.contains("invalid xpath 'telephony/number[': invalid expression"), "\(result.standardError)")

    // An unknown function is found when the config is read; libxml2's own
    // message goes to the handler, not to standard error.
    try directory.write("calldir.json", """
      {"sources": [{"path": "book.xml", "format": "xml", "list": "block", "records": "//contact", "number": "foo(1)"}]}
      """)
    let unknown = try CalldirProcess.run(["build", "--config", directory.path("calldir.json"), "--store", directory.path("s")])
    #expect(unknown.status == 65)
    #expect(unknown.standardError == "error: sources[0].number: invalid xpath 'foo(1)': unregistered function\n")
  }
}
