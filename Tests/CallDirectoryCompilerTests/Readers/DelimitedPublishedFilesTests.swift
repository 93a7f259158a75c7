import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectorySources

/// The delimited keys for files as regulators publish them: `encoding`,
/// `rangeStart`/`rangeEnd`, `where`, `regionColumn` with `regions`.
@Suite struct DelimitedPublishedFilesTests {
  /// A reader built from config-style options, as the registry builds it.
  func reader(_ bytes: [UInt8], _ options: SourceOptions) throws -> DelimitedSourceReader {
    let format = try #require(SourceFormatRegistry.standard["csv"])
    let made = try format.makeReader(input: .bytes(bytes), options: options)
    return try #require(made as? DelimitedSourceReader)
  }

  func latin1(_ text: String) -> [UInt8] {
    text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
  }

  @Test func latin1HeaderAndValuesAreConvertedAtEveryChunkSize() throws {
    // "Mnémo;Numéro\nORAN;0612345678\n" in ISO-8859-1: é is 0xE9.
    let bytes = latin1("Mnémo;Numéro;Nom\nORAN;0612345678;Société\n")
    #expect(bytes.contains(0xE9))
    let contents = try readAll(try reader(bytes, [
      "delimiter": ";", "encoding": "ISO-8859-1", "number": "Numéro", "label": "Nom",
      "where": .object(["Mnémo": .strings(["ORAN"])]),
    ]))
    #expect(contents.records == [SourceRecord(number: "0612345678", label: "Société", line: 2)])
    #expect(contents.issues.isEmpty)
  }

  @Test func windows1252Byte0x80IsTheEuroSign() throws {
    let bytes: [UInt8] = Array("phone,name\n2125550100,".utf8) + [0x80, 0x20, 0xE9] + Array("\n".utf8)
    let contents = try readAll(try reader(bytes, ["encoding": "cp1252", "number": "phone", "label": "name"]))
    #expect(contents.records.map(\.label) == ["€ é"])
  }

  @Test func withoutAnEncodingLatin1BytesStayInvalidUTF8() throws {
    let bytes = latin1("phone,name\n2125550100,Café\n")
    let contents = try readAll(try reader(bytes, ["number": "phone", "label": "name"]))
    #expect(contents.issues.map(\.reason) == ["invalid utf-8 in label"])
    let utf8 = try readAll(try reader(bytes, ["encoding": "UTF-8", "number": "phone", "label": "name"]))
    #expect(utf8 == contents)
  }

  @Test func aUTF8CharacterAcrossAChunkBoundaryThroughTheConverter() throws {
    // Windows-1252 bytes become 2- and 3-byte UTF-8; every chunk size of
    // `readAll` cuts them somewhere.
    let label: [UInt8] = [0x80, 0xE9, 0x80, 0xE9, 0x80]
    let bytes = Array("phone,name\n2125550100,".utf8) + label + Array("\n2125550101,x\n".utf8)
    let contents = try readAll(try reader(bytes, ["encoding": "Windows-1252", "number": "phone", "label": "name"]))
    #expect(contents.records.map(\.label) == ["€é€é€", "x"])
    #expect(contents.summary.bytes == bytes.count)
  }

  /// A byte-order mark says what the file is, whatever `encoding` says.
  @Test func aByteOrderMarkDecidesOverTheEncoding() throws {
    // Saved as UTF-8 with a mark, configured as the publisher's usual Latin-1.
    let utf8 = [0xEF, 0xBB, 0xBF] + Array("phone,name\n2125550100,Zoé\n".utf8)
    let marked = try readAll(try reader(utf8, ["encoding": "ISO-8859-1", "number": "phone", "label": "name"]))
    #expect(marked.records == [SourceRecord(number: "2125550100", label: "Zoé", line: 2)])
    // UTF-16 with a mark (Excel's "Unicode text") needs no encoding at all.
    for form in [UnicodeEncodingForm.utf16LE, .utf16BE] {
      let bytes = form.encode("\u{FEFF}phone,name\r\n2125550100,Zoé\r\n")
      let converted = try readAll(try reader(bytes, ["number": "phone", "label": "name"]))
      #expect(converted.records == marked.records)
      #expect(converted.summary.bytes == bytes.count)
    }
  }

  @Test func theChecksumIsOfTheFileAsPublished() throws {
    let bytes = latin1("phone\n2125550100\n")
    let converted = try readAll(try reader(bytes, ["encoding": "latin1", "number": "phone"]))
    let plain = try readAll(try reader(bytes, ["number": "phone"]))
    #expect(converted.summary.checksum == plain.summary.checksum)
    #expect(converted.summary.bytes == plain.summary.bytes)
  }

  @Test func rangeColumnsGiveBothEnds() throws {
    let text = "start;end;op\n0590100000;0590100099;A\n+33 1 00 00 00 00; 0100000009 ;B\n;0100000000;C\n0100000000;;D\n"
    let contents = try readAll(try reader(Array(text.utf8), [
      "delimiter": ";", "rangeStart": "start", "rangeEnd": "end",
    ]))
    #expect(contents.records == [
      SourceRecord(number: "0590100000", line: 2, rangeEnd: "0590100099"),
      SourceRecord(number: "+33 1 00 00 00 00", line: 3, rangeEnd: "0100000009"),
    ])
    #expect(contents.issues.map(\.reason) == ["empty range start", "empty range end"])
    #expect(contents.issues.map(\.line) == [4, 5])
  }

  @Test func whereKeepsRowsWhoseColumnHoldsAValueAndCountsTheRest() throws {
    let text = "n,op,kind\n1,ORAN, mobile \n2,SFR,mobile\n3,ORAN,fixed\n4, FRTE ,mobile\n5,oran,mobile\n"
    let contents = try readAll(try reader(Array(text.utf8), [
      "number": "n",
      "where": .object(["op": .strings(["ORAN", "FRTE"]), "kind": .strings(["mobile"])]),
    ]))
    #expect(numbers(contents) == ["1", "4"])
    #expect(contents.summary.filtered == 3)
    #expect(contents.summary.dataLines == 2)
    #expect(contents.issues.isEmpty)
    #expect(contents.summary.unmatchedFilterValues.isEmpty)
    let typo = try readAll(try reader(Array(text.utf8), [
      "number": "n", "where": .object(["op": .strings(["ORAN", "FRTEE", "BOUY"])]),
    ]))
    #expect(typo.summary.unmatchedFilterValues == ["op": ["BOUY", "FRTEE"]])
  }

  @Test func regionColumnPicksEachRowsRegion() throws {
    let text = "n,territory\n0690000000,Guadeloupe\n0612345678,Métropole\n0262000000,Atlantis\n0262000001,\n"
    let contents = try readAll(try reader(Array(text.utf8), [
      "number": "n", "regionColumn": "territory",
      "regions": .object(["Guadeloupe": "GP", "Métropole": "FR"]),
    ]))
    #expect(contents.records == [
      SourceRecord(number: "0690000000", line: 2, region: "GP"),
      SourceRecord(number: "0612345678", line: 3, region: "FR"),
    ])
    #expect(contents.issues.map(\.reason) == [
      "region column 'territory' value 'Atlantis' is not in regions",
      "region column 'territory' value '' is not in regions",
    ])
  }

  struct MissingColumn: CustomTestStringConvertible, Sendable {
    let options: SourceOptions
    let column: String
    var testDescription: String { column }
  }

  @Test(arguments: [
    MissingColumn(options: ["rangeStart": "from", "rangeEnd": "to"], column: "to"),
    MissingColumn(options: ["rangeStart": "From", "rangeEnd": "until"], column: "From"),
    MissingColumn(options: ["number": "from", "where": .object(["operator": .strings(["X"])])], column: "operator"),
    MissingColumn(
      options: ["number": "from", "regionColumn": "land", "regions": .object(["a": "FR"])], column: "land"),
  ])
  func aMissingColumnNamesItAndTheHeader(_ testCase: MissingColumn) throws {
    let reader = try reader(Array("from,until,op\n1,2,X\n".utf8), testCase.options)
    #expect(throws: SourceError.self) { try reader.readAll() }
    do {
      _ = try reader.readAll()
    } catch let error as SourceError {
      guard case .columnNotFound(_, let column, let available, _) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(column == testCase.column)
      #expect(available == ["from", "until", "op"])
      #expect(error.description.contains("column '\(testCase.column)' not found in header (columns: from, until, op)"))
    }
  }

  struct BadOptions: CustomTestStringConvertible, Sendable {
    let options: SourceOptions
    let key: String
    let reason: String
    var testDescription: String { "\(key): \(reason)" }
  }

  @Test(arguments: [
    BadOptions(options: ["number": "n", "encoding": "klingon"], key: "encoding", reason: "unknown encoding 'klingon'"),
    BadOptions(options: ["rangeStart": "a"], key: "rangeEnd", reason: "rangeStart needs rangeEnd"),
    BadOptions(options: ["rangeEnd": "a"], key: "rangeStart", reason: "rangeEnd needs rangeStart"),
    BadOptions(options: ["number": "n", "rangeStart": "a", "rangeEnd": "b"], key: "rangeStart", reason: "cannot be combined"),
    BadOptions(options: ["rangeStart": "a", "rangeEnd": "a"], key: "rangeEnd", reason: "another column"),
    BadOptions(options: ["number": "n", "regionColumn": "r"], key: "regions", reason: "regionColumn needs regions"),
    BadOptions(options: ["number": "n", "regions": .object(["x": "FR"])], key: "regionColumn", reason: "needs regionColumn"),
  ])
  func badOptionsAreRefused(_ testCase: BadOptions) throws {
    let format = try #require(SourceFormatRegistry.standard["csv"])
    do {
      _ = try format.makeReader(input: .bytes([]), options: testCase.options)
      Issue.record("accepted \(testCase.options)")
    } catch {
      #expect(error.key == testCase.key)
      #expect(error.reason.contains(testCase.reason), "\(error.reason)")
    }
  }
}
