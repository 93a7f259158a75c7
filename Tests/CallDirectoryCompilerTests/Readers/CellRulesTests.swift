import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectorySources

/// `numberSeparator`, `wildcard` and `rangeSeparator`: how the `csv`, `tsv`
/// and `lines` readers cut a cell into records.
@Suite struct CellRulesTests {
  static func rules(_ separator: String? = "|", _ wildcard: String? = "X", _ range: String? = " bis ") throws -> CellRules {
    try CellRules(numberSeparator: separator, wildcard: wildcard, rangeSeparator: range)
  }

  /// `number` or `first…last` (`+w3` for a block of three wildcards) of each record.
  static func shown(_ contents: SourceContents) -> [String] {
    contents.records.map { record in
      guard let end = record.rangeEnd else { return "\(record.line): \(record.number)" }
      let block = record.wildcardDigits > 0 ? " (\(record.wildcardDigits) wildcards)" : ""
      return "\(record.line): \(record.number)…\(end)\(block)"
    }
  }

  @Test func aCsvCellGivesEachOfItsNumbersBlocksAndRangesAtItsLine() throws {
    let text = """
      Bescheid vom,Rufnummer,Kategorie
      12.03.2024,0137 9876544|0137 9876545 | 0137 9876546,Gewinnspiel
      08.03.2024,0621 123XXX,Ping
      08.03.2024,"0621 124xxx|0621 125 X X X",Ping
      20.02.2024,01521 2345600 bis 01521 2345699,SMS
      20.02.2024,0900 51234XX bis 0900 51235XX|+49 30 1234567|,Mehrwert
      15.02.2024,0049 30 1234568,Fax
      """
    let reader = DelimitedSourceReader(input: input(text), numberColumn: "Rufnummer", cells: try Self.rules())
    let contents = try readAll(reader)
    #expect(Self.shown(contents) == [
      "2: 0137 9876544", "2: 0137 9876545", "2: 0137 9876546",
      "3: 0621 123000…0621 123999 (3 wildcards)",
      "4: 0621 124000…0621 124999 (3 wildcards)", "4: 0621 125 0 0 0…0621 125 9 9 9 (3 wildcards)",
      "5: 01521 2345600…01521 2345699",
      "6: 0900 5123400…0900 5123599", "6: +49 30 1234567",
      "7: 0049 30 1234568",
    ])
    #expect(contents.issues.isEmpty)
    #expect(contents.summary.records == 10)
    #expect(contents.summary.cells == CellCounts(splitCells: 3, wildcardBlocks: 3, ranges: 2))
  }

  @Test func piecesTheRulesCannotReadAreIssuesOfTheirLine() throws {
    let text = """
      number
      0621 12X 456|0621 1234
      0621 1 bis 2 bis 3
      0621 1 bis
      | - |
      XXX
      """
    let reader = DelimitedSourceReader(input: input(text), numberColumn: "number", cells: try Self.rules())
    let contents = try readAll(reader)
    #expect(Self.shown(contents) == ["2: 0621 1234"])
    #expect(contents.issues.map(\.line) == [2, 3, 4, 5, 6])
    #expect(contents.issues.map(\.reason) == [
      "wildcard 'X' must end the number", "more than one range separator (' bis ') in a cell",
      "range is missing its end", "empty number", "wildcard block has no digits before its wildcards",
    ])
    #expect(contents.issues[0].text == "0621 12X 456|0621 1234")
  }

  /// A letter is a wildcard only outside words, so that numbers written
  /// with `Fax`, `ext.` or `x` before an extension stay numbers.
  @Test func aLetterWildcardIsNoPartOfAWord() throws {
    let text = "number\nFax 0621 123456\n+1 212 555 0100 ext. 12\n+1 212 555 0100 x12\n0800 FAX\n0621 123XX\n"
    let contents = try readAll(
      DelimitedSourceReader(input: input(text), numberColumn: "number", cells: try Self.rules(nil, "X", nil)))
    #expect(Self.shown(contents) == [
      "2: Fax 0621 123456", "3: +1 212 555 0100 ext. 12", "4: +1 212 555 0100 x12", "5: 0800 FAX",
      "6: 0621 12300…0621 12399 (2 wildcards)",
    ])
  }

  @Test func aQuotedCellOfSeveralLinesIsCutAtItsLineBreaks() throws {
    let text = "number,name\r\n\"0621 123456\r\n0621 654321\r\n\",Two\r\n+49 30 1,Three\r\n"
    let contents = try readAll(
      DelimitedSourceReader(
        input: input(text), numberColumn: "number", labelColumn: "name", cells: try Self.rules("\n", nil, nil)))
    #expect(contents.records == [
      SourceRecord(number: "0621 123456", label: "Two", line: 2),
      SourceRecord(number: "0621 654321", label: "Two", line: 2),
      SourceRecord(number: "+49 30 1", label: "Three", line: 5),
    ])
  }

  /// A line break is never inside one number: with a separator, it
  /// separates numbers too.
  @Test func aLineBreakSeparatesNumbersBesidesTheSeparator() throws {
    let text = "number\n\"0172 3456789\r\n0173 4567890|0174 5678901\"\n"
    let contents = try readAll(
      DelimitedSourceReader(input: input(text), numberColumn: "number", cells: try Self.rules("|", nil, nil)))
    #expect(Self.shown(contents) == ["2: 0172 3456789", "2: 0173 4567890", "2: 0174 5678901"])
  }

  @Test func prefixRewritesApplyToEachPiece() throws {
    let text = "number\n0508411234|0508411235 bis 0508411236\n"
    let contents = try readAll(
      DelimitedSourceReader(
        input: input(text), numberColumn: "number", prefixRewrites: ["0508": "+508"], cells: try Self.rules()))
    #expect(Self.shown(contents) == ["2: +508411234", "2: +508411235…+508411236"])
  }

  @Test func eachNumberColumnIsCut() throws {
    let text = "a,b\n+1 212 555 0100|+1 212 555 0101,+1 212 555 0102\n"
    let contents = try readAll(
      DelimitedSourceReader(
        input: input(text), numberColumn: "a", additionalNumberColumns: ["b"], cells: try Self.rules()))
    #expect(Self.shown(contents) == ["2: +1 212 555 0100", "2: +1 212 555 0101", "2: +1 212 555 0102"])
  }

  @Test func aLinesLineIsACellAfterItsComment() throws {
    let text = """
      # Maßnahmen
      0621 123456 oder 0621 654321 # two numbers
      0621 123XXX
      0621 200000 - 0621 200099 - description
      +49 30 1234567
      """
    let reader = LinesSourceReader(input: input(text), cells: try Self.rules(" oder ", "X", " - "))
    let contents = try readAll(reader)
    #expect(Self.shown(contents) == [
      "2: 0621 123456", "2: 0621 654321", "3: 0621 123000…0621 123999 (3 wildcards)",
      "4: 0621 200000…0621 200099", "5: +49 30 1234567",
    ])
    #expect(contents.summary.cells == CellCounts(splitCells: 1, wildcardBlocks: 1, ranges: 1))
  }

  @Test func withoutRulesACellIsOneRecord() throws {
    let text = "number\n0621 123456|0621 654321\n"
    let contents = try readAll(DelimitedSourceReader(input: input(text), numberColumn: "number"))
    #expect(Self.shown(contents) == ["2: 0621 123456|0621 654321"])
    #expect(contents.summary.cells == CellCounts())
  }

  @Test(arguments: [
    (#"{"numberSeparator": "1"}"#, "sources[0].numberSeparator: must not hold a digit or '+', which belong to numbers"),
    (#"{"rangeSeparator": " + "}"#, "sources[0].rangeSeparator: must not hold a digit or '+', which belong to numbers"),
    (#"{"wildcard": "XX"}"#, "sources[0].wildcard: must be one character, such as 'X'"),
    (#"{"wildcard": "7"}"#, "sources[0].wildcard: must not be a digit, '+', a parenthesis, a space or a control character"),
    (#"{"wildcard": " "}"#, "sources[0].wildcard: must not be a digit, '+', a parenthesis, a space or a control character"),
    (#"{"wildcard": "|", "numberSeparator": "|"}"#, "sources[0].wildcard: must not appear in numberSeparator '|'"),
    (
      #"{"numberSeparator": "-", "rangeSeparator": " - "}"#,
      "sources[0].rangeSeparator: must not hold numberSeparator, nor be held by it (a cell is cut at both)"
    ),
  ])
  func unusableValuesAreConfigErrors(keys: String, message: String) throws {
    let extra = keys.dropFirst().dropLast()
    let json = #"{"sources": [{"path": "x.csv", "format": "csv", "list": "block", "number": "n", \#(extra)}]}"#
    #expect(throws: ConfigError.self) { try BuildConfig.parse(Array(json.utf8), baseDirectory: "/") }
    do {
      _ = try BuildConfig.parse(Array(json.utf8), baseDirectory: "/")
    } catch {
      #expect(error.description.hasSuffix(message), "\(error)")
    }
  }

  @Test(arguments: [
    (##""format": "lines", "wildcard": "#""##, "sources[0].wildcard: '#' starts a comment in this format"),
    (#""format": "patterns", "wildcard": "X""#, "sources[0].wildcard"),
    (#""format": "jsonl", "number": "n", "numberSeparator": "|""#, "sources[0].numberSeparator"),
    (
      #""format": "csv", "rangeStart": "a", "rangeEnd": "b", "numberSeparator": "|""#,
      "sources[0].numberSeparator: cannot be combined with rangeStart and rangeEnd"
    ),
    (
      #""format": "csv", "number": "n", "label": "l", "list": "identify", "wildcard": "X""#,
      "sources[0].wildcard: a range cannot carry a label"
    ),
    (
      #""format": "csv", "number": "n", "dateColumn": "d", "rangeSeparator": " bis ""#,
      "sources[0].rangeSeparator: reports are counted per number"
    ),
  ])
  func keysAreRefusedWhereTheyCannotWork(source: String, message: String) {
    var fields = source
    if !fields.contains("\"list\"") { fields += #", "list": "block""# }
    let json = #"{"sources": [{"path": "x", \#(fields)}]}"#
    do {
      _ = try BuildConfig.parse(Array(json.utf8), baseDirectory: "/")
      Issue.record("\(source) was accepted")
    } catch {
      #expect(error.description.contains(message), "\(error)")
    }
  }

  @Test func anIdentifySourceMayCutItsCells() throws {
    let json = #"""
      {"sources": [{"path": "x.csv", "format": "csv", "list": "identify", "number": "n", "label": "l",
        "numberSeparator": "|"}]}
      """#
    let config = try BuildConfig.parse(Array(json.utf8), baseDirectory: "/")
    #expect(config.sources[0].options["numberSeparator"] == "|")
  }
}
