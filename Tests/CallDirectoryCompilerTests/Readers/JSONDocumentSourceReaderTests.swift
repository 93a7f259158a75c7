import CalldirSystem
import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectorySources

/// The `json` format: one document, records found by a pointer, members
/// by name or pointer, lines of the values that hold the numbers, and the
/// errors that stop a read.
@Suite struct JSONDocumentSourceReaderTests {
  static func reader(_ text: String, _ options: SourceOptions = [:]) throws -> JSONDocumentSourceReader {
    try JSONDocumentSourceReader(input: input(text), options: options)
  }

  /// The error reading `text` stops with.
  static func error(_ text: String, _ options: SourceOptions = [:]) throws -> SourceError? {
    do {
      _ = try reader(text, options).readAll()
      return nil
    } catch let error as SourceError {
      return error
    }
  }

  static let operators = """
    [
      {
        "operator_name": "Orange",
        "pattern": "33162######",
        "start": "2023-01-01T00:00:00Z",
        "end": null
      },
      {
        "operator_name": "SFR",
        "pattern": 33163000000,
        "start": "2023-01-01"
      },
      {"operator_name": "Free", "pattern": ["+33 9 48 00 00 01", 33948000002, " "]},
      {"operator_name": "Nobody"},
      {"operator_name": "Half", "pattern": 1.5},
      "+33612345678",
      {"operator_name": 7, "pattern": "33700000000"}
    ]

    """

  @Test func operatorListWithPatterns() throws {
    let reader = try Self.reader(Self.operators, ["number": "pattern", "label": "operator_name"])
    let contents = try readAll(reader)
    #expect(
      contents.records == [
        SourceRecord(number: "33162######", label: "Orange", line: 4),
        SourceRecord(number: "33163000000", label: "SFR", line: 10),
        SourceRecord(number: "+33 9 48 00 00 01", label: "Free", line: 13),
        SourceRecord(number: "33948000002", label: "Free", line: 13),
      ])
    #expect(
      contents.issues.map { "\($0.line): \($0.reason)" } == [
        "14: missing key 'pattern'",
        "15: 'pattern' must be a string, an integer or an array of them, found a fractional number (quote it)",
        "16: expected a json object, found string",
        "17: 'operator_name' must be a string, found integer",
      ])
    #expect(contents.issues[0].text == #"{"operator_name":"Nobody"}"#)
    #expect(contents.summary.physicalLines == 18)
    #expect(contents.summary.records == 4 && contents.summary.issues == 4)
  }

  @Test func wildcardCellsGiveBlocks() throws {
    let reader = try Self.reader(Self.operators, ["number": "pattern", "wildcard": "#"])
    let contents = try readAll(reader)
    #expect(contents.records.first == SourceRecord(number: "33162000000", line: 4, rangeEnd: "33162999999", wildcardDigits: 6))
    #expect(contents.summary.cells.wildcardBlocks == 1)
  }

  @Test func arraysOfNumbersAndPointers() throws {
    let text = """
      {"meta": {"count": 2}, "data": {"list~": [
        {"contact": {"phones": ["0162000001", 162000002], "name": {"full": "A"}}},
        {"contact": {"phones": [], "name": {"full": "B"}}},
        {"contact": {"phones": [true, "0162000003"]}}
      ]}}
      """
    let reader = try Self.reader(text, ["records": "/data/list~0", "number": "/contact/phones", "label": "/contact/name/full"])
    let contents = try readAll(reader)
    #expect(
      contents.records == [
        SourceRecord(number: "0162000001", label: "A", line: 2), SourceRecord(number: "162000002", label: "A", line: 2),
        SourceRecord(number: "0162000003", line: 4),
      ])
    #expect(contents.issues.map(\.reason) == ["empty number", "'/contact/phones' holds a boolean, expected strings or integers"])
    let first = try readAll(try Self.reader(text, ["records": "/data/list~0", "number": "/contact/phones/1"]))
    #expect(first.records.map(\.number) == ["162000002", "0162000003"])
  }

  @Test func elementsThatAreNumbers() throws {
    let text = "\u{FEFF}[\"+33162000001\",\n 33162000002,\n 123456789012345678901234567890,\n {\"a\": 1},\n 2.5, null]"
    let contents = try readAll(try Self.reader(text))
    #expect(contents.records.map(\.number) == ["+33162000001", "33162000002", "123456789012345678901234567890"])
    #expect(contents.records.map(\.line) == [1, 2, 3])
    #expect(contents.issues.map(\.line) == [4, 5, 5])
    #expect(contents.issues[0].reason == "expected a string or an integer (the record's number), found object")
  }

  @Test func rangesAndDates() throws {
    let text = """
      [{"from": "0162000000", "to": "0162000099", "when": "01/02/2024"},
       {"from": "0162000100", "to": null},
       {"n": "0162000200", "when": "2024-13-40"}]
      """
    let ranges = try readAll(try Self.reader(text, ["rangeStart": "from", "rangeEnd": "to"]))
    #expect(ranges.records == [SourceRecord(number: "0162000000", line: 1, rangeEnd: "0162000099")])
    #expect(ranges.issues.map(\.reason) == ["missing key 'to'", "missing key 'from'"])
    let dated = try readAll(
      try Self.reader(text, ["number": .strings(["from", "n"]), "dateColumn": "when", "dateFormat": "DD/MM/YYYY"]))
    #expect(dated.records.map(\.day) == [CalendarDay(year: 2024, month: 2, day: 1)])
    #expect(dated.issues.map(\.reason) == ["missing key 'when'", "date in 'when' is not DD/MM/YYYY"])
  }

  @Test func optionsThatCannotWork() throws {
    #expect(throws: SourceOptionError(key: "records", reason: "must be empty or start with '/' (a json pointer such as '/data')")) {
      try Self.reader("[]", ["records": "data"])
    }
    #expect(throws: SourceOptionError.self) { try Self.reader("[]", ["number": "/a~9"]) }
    #expect(throws: SourceOptionError.self) { try Self.reader("[]", ["label": "name"]) }
    #expect(throws: SourceOptionError.self) { try Self.reader("[]", ["number": "n", "rangeStart": "a", "rangeEnd": "b"]) }
    #expect(throws: SourceOptionError.self) { try Self.reader("[]", ["rangeStart": "a"]) }
    #expect(throws: SourceOptionError.self) { try Self.reader("[]", ["number": "n", "dateFormat": "MM/DD/YYYY"]) }
  }

  @Test func pointersThatLeadNowhere() throws {
    let text = #"{"data": {"ops": [1], "other": []}, "meta": "x"}"#
    #expect(try Self.error(text)?.description == "<memory>: records '' does not lead to an array of records: "
      + "the document is an object, not an array (its members: 'data', 'meta')")
    #expect(try Self.error(text, ["records": "/data"])?.description.hasSuffix(
      "'/data' is an object, not an array (set records to the member holding the array: '/data/ops', '/data/other')") == true)
    #expect(try Self.error(text, ["records": "/data/opz"])?.description.hasSuffix(
      "'/data' is an object without a member 'opz' (its members: 'ops', 'other')") == true)
    #expect(try Self.error(text, ["records": "/meta/0"])?.description.hasSuffix("'/meta' is a string, not an object or an array") == true)
    #expect(try Self.error(text, ["records": "/data/ops/3"])?.description.hasSuffix("'/data/ops' is an array of 1 element") == true)
    #expect(try Self.error(text, ["records": "/data/ops/0"])?.description.hasSuffix("'/data/ops/0' is a number, not an array") == true)
    #expect(try Self.error("[[1], [2]]", ["records": "/1"]) == nil)
    #expect(try Self.error(#"{"data": [], "data": [1]}"#, ["records": "/data"])
      == .invalidJSON(path: "<memory>", line: 1, column: 14, reason: "duplicate key 'data'"))
  }

  @Test func brokenDocumentsStopTheRead() throws {
    #expect(try Self.error("[\n  \"0162000001\",\n  \"0162000002\"\n")
      == .invalidJSON(path: "<memory>", line: 4, column: 1, reason: "unexpected end of input, expected ',' or ']'"))
    #expect(try Self.error("[1] [2]") == .invalidJSON(path: "<memory>", line: 1, column: 5, reason: "unexpected characters after the json value"))
    #expect(try Self.error("[1, 'x']") == .invalidJSON(path: "<memory>", line: 1, column: 5, reason: "unexpected character ''', expected a value"))
    #expect(try Self.error(String(repeating: "[", count: 100_000))
      == .invalidJSON(path: "<memory>", line: 1, column: 513, reason: "nesting deeper than 512 levels"))
    var small = try Self.reader("[\"0162000001\", [\(Array(repeating: "1", count: 500).joined(separator: ","))]]")
    small.maxRecordBytes = 100
    #expect(throws: SourceError.self) { try small.readAll() }
    #expect(try Self.error("") == .invalidJSON(path: "<memory>", line: 1, column: 1, reason: "unexpected end of input, expected a value"))
  }

  @Test func sameBytesSameEvents() throws {
    // The summary signs the bytes read, for the catalog.
    let one = try Self.reader(Self.operators, ["number": "pattern"]).readAll()
    let two = try Self.reader(Self.operators, ["number": "pattern"]).readAll()
    #expect(one == two && one.summary.bytes == Self.operators.utf8.count && one.summary.checksum != 0)
  }

  // MARK: jsonl

  @Test func jsonLinesThatAreOneDocumentAreRefused() throws {
    for text in ["[\n{\"n\": \"1\"}\n]", "\n\n  {\n \"n\": \"1\"\n}", "\u{FEFF}[{\"n\": \"1\"}]"] {
      let reader = JSONLinesSourceReader(input: input(text), numberKey: "n")
      #expect(throws: SourceError.self, "\(text)") { try reader.readAll() }
    }
    let error = SourceError.jsonDocumentInJSONLines(path: "list.jsonl", line: 1, keyPath: nil).locating(source: "sources[3]")
    #expect(error.description == "list.jsonl:1: this looks like one JSON document, not JSON lines (one object per line): "
      + "set \"format\": \"json\" at sources[3].format")
    // A line that is a whole value, or broken otherwise, is one line's issue.
    let lines = JSONLinesSourceReader(input: input("{\"n\": 1}}\n{\"n\": \"2\"}\n"), numberKey: "n")
    #expect(try lines.readAll().issues.count == 1)
  }
}
