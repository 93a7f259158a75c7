import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectorySources

@Suite struct DelimitedSourceReaderTests {
  static let ftcHeader =
    "Company_Phone_Number, Created_Date, Violation_Date, Consumer_City, "
    + "Consumer_State, Consumer_Area_Code, Subject, "
    + "Recorded_Message_Or_Robocall\r\n"

  @Test func ftcComplaintFile() throws {
    let text =
      Self.ftcHeader
      + "8005551234, 2019-02-04 10:00:00, 2019-02-03 09:00:00, Austin, "
      + "Texas, 512, Dropped call or no message, Y\r\n"
      + ", 2019-02-04 10:01:00, 2019-02-03 09:00:00, Austin, Texas, 512, "
      + "Other, N\r\n"
      + "\"(212) 555-0100\", 2019-02-04, 2019-02-04, \"New York, NY\", NY, "
      + "212, \"Reducing your debt (credit cards, mortgage, student loans)\", N\r\n"
    let reader = DelimitedSourceReader(
      input: input(text), numberColumn: "Company_Phone_Number")
    let contents = try readAll(reader)
    #expect(
      contents.records == [
        SourceRecord(number: "8005551234", line: 2),
        SourceRecord(number: "(212) 555-0100", line: 4),
      ])
    #expect(
      contents.issues.map(\.reason) == ["empty number"])
    #expect(contents.issues.map(\.line) == [3])
    #expect(contents.summary.dataLines == 3)
    #expect(contents.summary.physicalLines == 4)
  }

  @Test func quotedFieldsWithCommasQuotesAndNewlines() throws {
    let text =
      [
        #"phone,name,note"#,
        #""+1 555 0100","Acme, Inc.",x"#,
        #"+1 555 0101,"Say ""hi""",y"#,
        #""+1 555 0102","Two"#,
        #"lines"#,
        #"here",z"#,
        #"+1 555 0103, plain label ,"note with"# + "\n" + #"newline""#,
        #"+1 555 0104,,"#,
        #"+1 555 0105, "  spaced  " ,"#,
      ].joined(separator: "\r\n") + "\r"
    let reader = DelimitedSourceReader(
      input: input(text), numberColumn: "phone", labelColumn: "name")
    let contents = try readAll(reader)
    #expect(
      contents.records == [
        SourceRecord(number: "+1 555 0100", label: "Acme, Inc.", line: 2),
        SourceRecord(number: "+1 555 0101", label: "Say \"hi\"", line: 3),
        SourceRecord(
          number: "+1 555 0102", label: "Two\r\nlines\r\nhere", line: 4),
        SourceRecord(number: "+1 555 0103", label: "plain label", line: 7),
        SourceRecord(number: "+1 555 0104", label: nil, line: 9),
        SourceRecord(number: "+1 555 0105", label: "spaced", line: 10),
      ])
    #expect(contents.issues.isEmpty)
    #expect(contents.summary.physicalLines == 10)
  }

  @Test func shortRowsBadQuotesAndUnterminatedQuotes() throws {
    let text =
      [
        #"number,label"#,
        #"+1 555 0100"#,
        #""+1 555 0101"x,bad"#,
        #"+1 555 0102,ok"#,
        #""+1 555 0103,never closed"#,
        #"+1 555 0104,after"#,
        #"+1 555 0105,"a ""quote"" inside""#,
      ].joined(separator: "\n") + "\n"
    let reader = DelimitedSourceReader(
      input: input(text), numberColumn: "number", labelColumn: "label")
    let contents = try readAll(reader)
    #expect(
      contents.records == [
        SourceRecord(number: "+1 555 0102", label: "ok", line: 4),
        SourceRecord(number: "+1 555 0104", label: "after", line: 6),
        SourceRecord(
          number: "+1 555 0105", label: "a \"quote\" inside", line: 7),
      ])
    #expect(
      contents.issues == [
        SourceIssue(
          line: 2, reason: "short row: 1 field, expected at least 2",
          text: "+1 555 0100"),
        SourceIssue(
          line: 3, reason: "unexpected text after closing quote",
          text: "\"+1 555 0101\"x,bad"),
        SourceIssue(
          line: 5, reason: "unbalanced quotes",
          text: "\"+1 555 0103,never closed"),
      ])
    #expect(contents.summary.dataLines == 6)
  }

  @Test func unterminatedQuoteAtEndOfFile() throws {
    let reader = DelimitedSourceReader(
      input: input("n\n1\n\"2\n3\n4"), numberColumn: "n")
    let contents = try readAll(reader)
    #expect(numbers(contents) == ["1", "3", "4"])
    #expect(contents.records.map(\.line) == [2, 4, 5])
    #expect(contents.issues.map(\.line) == [3])
    #expect(contents.summary.physicalLines == 5)
  }

  @Test func literalQuoteInsideUnquotedField() throws {
    let reader = DelimitedSourceReader(
      input: input("n,l\n+1 555,5\" \"Health\" products\n"),
      numberColumn: "n", labelColumn: "l")
    let contents = try readAll(reader)
    #expect(contents.records.first?.label == "5\" \"Health\" products")
  }

  @Test func headerMatchingAndErrors() throws {
    let text = "\u{FEFF} PhoneNumber , name\n+56908985137,Scotia\n"
    let contents = try readAll(
      DelimitedSourceReader(
        input: input(text), numberColumn: "PhoneNumber", labelColumn: "name"))
    #expect(
      contents.records == [
        SourceRecord(number: "+56908985137", label: "Scotia", line: 2)
      ])

    let missing = DelimitedSourceReader(
      input: input(Self.ftcHeader), numberColumn: "phone")
    #expect(throws: SourceError.self) { try missing.readAll() }
    do {
      _ = try missing.readAll()
    } catch let error as SourceError {
      #expect(
        error.description
          == "<memory>:1: column 'phone' not found in header (columns: "
          + "Company_Phone_Number, Created_Date, Violation_Date, "
          + "Consumer_City, Consumer_State, Consumer_Area_Code, Subject, "
          + "Recorded_Message_Or_Robocall)")
    }

    let nearly = DelimitedSourceReader(
      input: input("PhoneNumber,name\n"), numberColumn: "phonenumber")
    #expect(
      throws: SourceError.columnNotFound(
        path: "<memory>", column: "phonenumber",
        available: ["PhoneNumber", "name"], suggestion: "PhoneNumber")
    ) {
      try nearly.readAll()
    }

    let duplicate = DelimitedSourceReader(
      input: input("a,b,a\n1,2,3\n"), numberColumn: "a")
    #expect(throws: SourceError.duplicateColumn(path: "<memory>", column: "a"))
    {
      try duplicate.readAll()
    }

    for empty in ["", "\n\r\n  \n", "\u{FEFF}"] {
      let reader = DelimitedSourceReader(input: input(empty), numberColumn: "a")
      #expect(throws: SourceError.missingHeader(path: "<memory>")) {
        try reader.readAll()
      }
    }
  }

  @Test func aColumnMayGoByItsAliases() throws {
    let aliases = ["Advertiser Business Phone Number": ["Advertiser Number", "Advertiser Business Number"]]
    func numbers(_ text: String) throws -> [String] {
      try readAll(
        DelimitedSourceReader(
          input: input(text), numberColumn: "Advertiser Business Phone Number", columnAliases: aliases)
      ).records.map(\.number)
    }
    #expect(try numbers("Advertiser Business Number,x\n8005550100,1\n") == ["8005550100"])
    // The configured name wins over an alias, and an alias over a later one.
    #expect(try numbers("Advertiser Business Number,Advertiser Business Phone Number\n1,2\n") == ["2"])
    #expect(try numbers("Advertiser Business Number,Advertiser Number\n1,2\n") == ["2"])
    let neither = DelimitedSourceReader(
      input: input("phone\u{01},x\n1,2\n"), numberColumn: "Advertiser Business Phone Number", columnAliases: aliases)
    #expect(
      throws: SourceError.columnNotFound(
        path: "<memory>", column: "Advertiser Business Phone Number' or 'Advertiser Number' or 'Advertiser Business Number",
        available: ["phone\\x01", "x"], suggestion: nil)
    ) {
      try neither.readAll()
    }
  }

  @Test func aNumberCellWithoutALetterOrDigitIsEmpty() throws {
    let text = "caller,advertiser\n-,800-555-0100\n--,-\n N/A ,.\n/,+\n٣١٢,-\n"
    let contents = try readAll(
      DelimitedSourceReader(input: input(text), numberColumn: "caller", additionalNumberColumns: ["advertiser"]))
    #expect(contents.records.map(\.number) == ["800-555-0100", "N/A", "٣١٢"])
    #expect(contents.issues.map(\.line) == [3, 5] && contents.issues.allSatisfy { $0.reason == "empty number" })
  }

  @Test func aQuotedFieldNotClosedWithinAMebibyteSaysSo() throws {
    let text = "phone,note\n8005550100,\"" + String(repeating: "x", count: 3 << 20) + "\"\n8005550101,ok\n"
    // The default chunk size only: tiny chunks would parse the field anew for every few bytes.
    let contents = try DelimitedSourceReader(input: input(text), numberColumn: "phone").readAll()
    #expect(contents.issues.map(\.reason) == ["quoted field not closed within 1 MiB"])
    #expect(contents.records.map(\.number) == ["8005550101"])
  }

  @Test func malformedHeader() throws {
    let reader = DelimitedSourceReader(
      input: input("\"phone\"x,name\n1,2\n"), numberColumn: "phone")
    #expect(
      throws: SourceError.invalidHeader(
        path: "<memory>", reason: "unexpected text after closing quote")
    ) {
      try reader.readAll()
    }
    let open = DelimitedSourceReader(
      input: input("\"phone,name\n1,2\n"), numberColumn: "phone")
    #expect(
      throws: SourceError.invalidHeader(
        path: "<memory>", reason: "unterminated quoted field")
    ) {
      try open.readAll()
    }
  }

  @Test func headerOnlyHasNoDataLines() throws {
    let contents = try readAll(
      DelimitedSourceReader(input: input("a,b\r\n"), numberColumn: "b"))
    #expect(contents.summary.dataLines == 0)
    #expect(contents.summary.physicalLines == 1)
  }

  @Test func tsvAndCustomDelimiter() throws {
    let tsv = try readAll(
      DelimitedSourceReader(
        input: input(
          "name\tnumber\nAcme, Inc.\t+1 555 0100\n\"Tab\tCo\"\t+1 555 0101\n"),
        delimiter: 0x09, numberColumn: "number", labelColumn: "name"))
    #expect(
      tsv.records == [
        SourceRecord(number: "+1 555 0100", label: "Acme, Inc.", line: 2),
        SourceRecord(number: "+1 555 0101", label: "Tab\tCo", line: 3),
      ])
    let semicolon = try readAll(
      DelimitedSourceReader(
        input: input("nr;name\n+49 30 1234;Firma, GmbH\n"),
        delimiter: 0x3B, numberColumn: "nr", labelColumn: "name"))
    #expect(
      semicolon.records == [
        SourceRecord(number: "+49 30 1234", label: "Firma, GmbH", line: 2)
      ])
  }

  @Test func invalidUTF8OnlyMattersInChosenFields() throws {
    var bytes = Array("n,l,other\n".utf8)
    bytes += Array("+1,ok,".utf8) + [0xFF] + [0x0A]
    bytes += [0x2B, 0x32, 0xC0, 0x2C, 0x6F, 0x6B, 0x0A]
    bytes += Array("+3,".utf8) + [0xE2, 0x82] + Array(",x\n".utf8)
    let contents = try readAll(
      DelimitedSourceReader(
        input: .bytes(bytes), numberColumn: "n", labelColumn: "l"))
    #expect(
      contents.records == [SourceRecord(number: "+1", label: "ok", line: 2)])
    #expect(
      contents.issues.map(\.reason) == [
        "invalid utf-8", "invalid utf-8 in label",
      ])
    #expect(contents.issues.map(\.line) == [3, 4])
  }

  @Test func extraFieldsAreIgnored() throws {
    let contents = try readAll(
      DelimitedSourceReader(input: input("a\n1,2,3\n"), numberColumn: "a"))
    #expect(numbers(contents) == ["1"])
  }


  /// Excel's `sep=X` first line names the delimiter and is no header.
  @Test func anExcelDelimiterLineSetsTheDelimiter() throws {
    for text in ["sep=;\r\nname;phone\r\nA;+1 555 0100\r\n", "\u{FEFF}SEP=;\nname;phone\nA;+1 555 0100"] {
      let contents = try readAll(DelimitedSourceReader(input: input(text), numberColumn: "phone", labelColumn: "name"))
      #expect(contents.records == [SourceRecord(number: "+1 555 0100", label: "A", line: 3)])
      #expect(contents.summary.physicalLines == 3)
    }
    // Not a delimiter line: a digit cannot separate fields, and more text
    // after the character makes it a header.
    #expect(throws: SourceError.self) {
      try DelimitedSourceReader(input: input("sep=1\nphone\n+1 555 0100\n"), numberColumn: "phone").readAll()
    }
    let header = try readAll(DelimitedSourceReader(input: input("sep=;x,phone\n,+1 555 0100\n"), numberColumn: "phone"))
    #expect(header.records == [SourceRecord(number: "+1 555 0100", line: 2)])
  }

  /// Excel for Mac's "CSV (Macintosh)" ends its lines in CR alone.
  @Test func macintoshCSVLinesEndInCarriageReturns() throws {
    let text = "name,phone\r\"Acme, Inc.\",+1 555 0100\rB,+1 555 0101\r"
    let contents = try readAll(DelimitedSourceReader(input: input(text), numberColumn: "phone", labelColumn: "name"))
    #expect(contents.records == [
      SourceRecord(number: "+1 555 0100", label: "Acme, Inc.", line: 2),
      SourceRecord(number: "+1 555 0101", label: "B", line: 3),
    ])
  }
}
