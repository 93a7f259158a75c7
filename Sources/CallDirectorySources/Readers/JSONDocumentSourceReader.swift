import CalldirSystem

/// Names the member of a `json` record that holds a value: a member name
/// (`pattern`), or, starting with `/`, a JSON Pointer into the record
/// (`/contact/phones/0`).
public enum JSONMemberPath: Sendable, Hashable, CustomStringConvertible {
  /// A member of the record object.
  case member(String)
  /// An RFC 6901 pointer from the record.
  case pointer(JSONPointer)

  /// Reads a configured name: a pointer when it starts with `/`.
  ///
  /// - Throws: ``JSONPointerError`` for a pointer with a bad `~` escape.
  public init(_ text: String) throws(JSONPointerError) {
    self = text.hasPrefix("/") ? .pointer(try JSONPointer(parsing: text)) : .member(text)
  }

  /// The value it names in `record`, if any.
  public func resolve(in record: JSONNode) -> JSONNode? {
    switch self {
    case .member(let name): record[member: name]
    case .pointer(let pointer): record.resolving(pointer)
    }
  }

  /// The name as configured.
  public var description: String {
    switch self {
    case .member(let name): name
    case .pointer(let pointer): pointer.text
    }
  }
}

/// Reads `json` sources: one JSON document whose records are the elements
/// of an array, the document itself or the one the ``records`` pointer
/// names (`/data/operators`).
///
/// # Rules
///
/// - A record is an object whose member ``numbers`` name holds its number:
///   a JSON string (trimmed), or an integer (its digits as written, never
///   through `Double`), or an array of them, each a record of the element
///   with the same label. Without ``numbers``, each element is the number
///   itself (a string or an integer).
/// - ``label``: a string; `null` or missing means no label. ``rangeEnd``:
///   the record is a range from its number to this member's. ``date``: the
///   record's day, in ``dateFormat``. ``cells``: as in `lines` and `csv`.
/// - A record's line (rejects, `explain`) is the line where the value
///   holding its number starts.
///
/// # Issues and errors
///
/// An element that is not an object (or, without ``numbers``, not a string
/// or an integer), a missing or empty number, a value of the wrong type and
/// a bad date are issues: that element is rejected, the file is read on.
/// Broken JSON, text after the document, a ``records`` pointer that leads
/// nowhere or to something other than an array, nesting deeper than
/// ``maxDepth`` and a record longer than ``maxRecordBytes`` stop the read
/// with a ``SourceError``. Memory stays bounded by the largest record.
public struct JSONDocumentSourceReader: SourceReader {
  /// Where the bytes come from.
  public var input: SourceInput
  /// The array of records; the root (the document is the array) by default.
  public var records: JSONPointer = .root
  /// The members holding each record's number (the range's first number
  /// with ``rangeEnd``); empty: each element is a number.
  public var numbers: [JSONMemberPath] = []
  /// The member holding the label, if any.
  public var label: JSONMemberPath?
  /// The member holding the range's last number, if the records are ranges.
  public var rangeEnd: JSONMemberPath?
  /// The member holding the record's date, if any.
  public var date: JSONMemberPath?
  /// How ``date`` writes dates.
  public var dateFormat: ReportDateFormat = .iso
  /// How a number may hold several numbers.
  public var cells: CellRules = .none
  /// The longest record, in bytes; a longer one is an error.
  public var maxRecordBytes = 16 << 20
  /// The deepest nesting of arrays and objects in the document.
  public var maxDepth = 512
  package var _chunkSize = _defaultChunkSize

  /// The option keys, in the order the registry lists them.
  static let optionNames = ["records", "number", "label", "rangeStart", "rangeEnd", "dateColumn", "dateFormat"]

  /// Creates a reader whose elements are the numbers.
  public init(input: SourceInput) {
    self.input = input
  }

  /// Creates a reader from a source's options: `records`, `number`
  /// (a name or an array of names), `label`, `rangeStart` with `rangeEnd`,
  /// `dateColumn` with `dateFormat`, and the cell keys.
  ///
  /// - Throws: ``SourceOptionError`` naming the key that cannot work.
  public init(input: SourceInput, options: SourceOptions) throws(SourceOptionError) {
    self.input = input
    func path(_ key: String, _ text: String) throws(SourceOptionError) -> JSONMemberPath {
      guard !text.isEmpty else { throw SourceOptionError(key: key, reason: "must not be empty") }
      do {
        return try JSONMemberPath(text)
      } catch {
        throw SourceOptionError(key: key, reason: "\(error)")
      }
    }
    if let text = options["records"] {
      do {
        records = try JSONPointer(parsing: text)
      } catch {
        throw SourceOptionError(key: "records", reason: "\(error.reason) (a json pointer such as '/data')")
      }
    }
    switch options[value: "number"] {
    case .string(let text)?: numbers = [try path("number", text)]
    case .strings(let texts)?:
      guard !texts.isEmpty else { throw SourceOptionError(key: "number", reason: "must name at least one member") }
      if Set(texts).count != texts.count {
        throw SourceOptionError(key: "number", reason: "names a member more than once")
      }
      for text in texts { numbers.append(try path("number", text)) }
    case .object?: throw SourceOptionError(key: "number", reason: "must be a member name or an array of them")
    case nil: break
    }
    switch (options["rangeStart"], options["rangeEnd"]) {
    case (nil, nil): break
    case (let start?, let end?):
      if !numbers.isEmpty {
        throw SourceOptionError(key: "rangeStart", reason: "cannot be combined with 'number' (a record holds one number or a range)")
      }
      if start == end { throw SourceOptionError(key: "rangeEnd", reason: "must name another member than rangeStart") }
      numbers = [try path("rangeStart", start)]
      rangeEnd = try path("rangeEnd", end)
    case (_?, nil): throw SourceOptionError(key: "rangeEnd", reason: "missing: rangeStart needs rangeEnd")
    case (nil, _?): throw SourceOptionError(key: "rangeStart", reason: "missing: rangeEnd needs rangeStart")
    }
    if let text = options["label"] { label = try path("label", text) }
    if let text = options["dateColumn"] { date = try path("dateColumn", text) }
    if let text = options["dateFormat"] {
      guard let format = ReportDateFormat(rawValue: text) else {
        throw SourceOptionError(
          key: "dateFormat",
          reason: "unknown date format '\(text)' (expected one of: "
            + ReportDateFormat.allCases.map(\.rawValue).joined(separator: ", ") + ")")
      }
      if date == nil { throw SourceOptionError(key: "dateColumn", reason: "missing: dateFormat needs dateColumn") }
      dateFormat = format
    }
    if numbers.isEmpty, let key = ["label", "dateColumn"].first(where: { options[$0] != nil }) {
      throw SourceOptionError(
        key: key, reason: "needs 'number' (without it the records are the numbers themselves, with no members)")
    }
    cells = try CellRules(options: options)
    if rangeEnd != nil, let key = CellRules.keys.first(where: { options[$0] != nil }) {
      throw SourceOptionError(
        key: key, reason: "cannot be combined with rangeStart and rangeEnd (a record is one range already)")
    }
  }

  /// Reads the source; see ``SourceReader/read(_:)``.
  public func read(_ body: (SourceEvent) throws -> Void) throws -> SourceSummary {
    let bytes = try _ByteInput(input, chunkSize: _chunkSize)
    let start = try bytes.skipByteOrderMark()
    let tokenizer = JSONTokenizer(window: bytes, start: start, maxDepth: maxDepth, maxTokenBytes: maxRecordBytes)
    var summary = SourceSummary()
    do {
      let objects = try locateRecords(tokenizer, name: bytes.name)
      while let element = try tokenizer.nextValue(maxBytes: maxRecordBytes) {
        try deliver(element, into: &summary, body)
      }
      // The rest of the document: its syntax, and no second member of the
      // name the pointer followed.
      while let token = try tokenizer.next() {
        guard case .key(let key) = token else { continue }
        let level = tokenizer.depth - 1
        if level < objects.count, objects[level], key == records.tokens[level] {
          throw tokenizer.errorAtToken(.duplicateKey(key))
        }
      }
    } catch let error as JSONParseError {
      var reason = Self.explained(error.reason, limit: maxRecordBytes)
      switch error.reason {
      case .unexpectedEndOfInput, .unexpectedCharacter: reason += ", expected \(tokenizer.expected)"
      default: break
      }
      throw SourceError.invalidJSON(path: bytes.name, line: error.line, column: error.column, reason: reason)
    }
    summary.physicalLines = tokenizer.physicalLines
    bytes.sign(&summary)
    return summary
  }

  /// A reason as the error shows it.
  private static func explained(_ reason: JSONParseError.Reason, limit: Int) -> String {
    switch reason {
    case .tooLong:
      "a record (or a value before the records) longer than \(limit) bytes (\(limit >> 20) MiB): "
        + "is it one list of records? (see records)"
    case .tooDeeplyNested(let depth): "nesting deeper than \(depth) levels"
    default: JSONParseError(line: 0, column: 0, reason: reason).reasonText
    }
  }

  /// Walks to the array ``records`` names and into it.
  ///
  /// - Returns: For each container the pointer passed through, whether it
  ///   is an object.
  private func locateRecords(_ tokenizer: JSONTokenizer, name: String) throws -> [Bool] {
    var objects: [Bool] = []
    func notFound(_ reason: String) -> SourceError {
      .recordsNotFound(path: name, pointer: records.text, reason: reason)
    }
    func place(_ level: Int) -> String {
      level == 0 ? "the document" : "'\(records.prefix(level).text)'"
    }
    for (level, wanted) in records.tokens.enumerated() {
      guard let token = try tokenizer.next() else { throw notFound("\(place(level)) is empty") }
      switch token {
      case .objectStart:
        objects.append(true)
        var found = false
        var names: [String] = []
        while let next = try tokenizer.next(), case .key(let key) = next {
          if key == wanted {
            found = true
            break
          }
          if names.count < 10 { names.append("'\(key)'") }
          try tokenizer.skipValue()
        }
        guard found else {
          throw notFound(
            "\(place(level)) is an object without a member '\(wanted)'"
              + (names.isEmpty ? "" : " (its members: \(names.joined(separator: ", "))\(names.count == 10 ? ", …" : ""))"))
        }
      case .arrayStart:
        objects.append(false)
        guard let index = JSONPointer.arrayIndex(wanted) else {
          throw notFound("\(place(level)) is an array, and '\(wanted)' is not an index")
        }
        let inside = tokenizer.depth
        for skipped in 0..<index {
          try tokenizer.skipValue()
          if tokenizer.depth < inside {
            throw notFound("\(place(level)) is an array of \(skipped) element\(skipped == 1 ? "" : "s")")
          }
        }
      case .objectEnd, .arrayEnd:
        throw notFound("\(place(level - 1)) has too few elements for index \(records.tokens[level - 1])")
      default:
        throw notFound("\(place(level)) is \(Self.article(token)), not an object or an array")
      }
    }
    guard let token = try tokenizer.next() else { throw notFound("the document is empty") }
    switch token {
    case .arrayStart: return objects
    case .objectStart:
      // Name the members that hold arrays: the likely pointers.
      var arrays: [String] = []
      var names: [String] = []
      while let next = try tokenizer.next(), case .key(let key) = next, names.count < 50 {
        names.append(key)
        let depth = tokenizer.depth
        guard let first = try tokenizer.next() else { break }
        if first == .arrayStart { arrays.append(records.appending(key).text) }
        if first == .arrayStart || first == .objectStart {
          while tokenizer.depth > depth { _ = try tokenizer.next() }
        }
      }
      var reason = "\(place(records.tokens.count)) is an object, not an array"
      if !arrays.isEmpty {
        reason += " (set records to the member holding the array: "
          + arrays.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + ")"
      } else if !names.isEmpty {
        reason += " (its members: " + names.prefix(10).map { "'\($0)'" }.joined(separator: ", ") + ")"
      }
      throw notFound(reason)
    case .objectEnd, .arrayEnd:
      throw notFound("\(place(records.tokens.count - 1)) has too few elements for index \(records.tokens.last ?? "")")
    default:
      throw notFound("\(place(records.tokens.count)) is \(Self.article(token)), not an array")
    }
  }

  private static func article(_ token: JSONToken) -> String {
    switch token {
    case .string: "a string"
    case .number: "a number"
    case .bool: "a boolean"
    case .null: "null"
    default: "an object"
    }
  }

  /// One number text of a record, where it is written.
  private typealias Found = (text: String, line: Int)

  /// Why an element gives no record: the reason, and the line of the
  /// value at fault (nil: the element's).
  private struct ElementIssue: Error {
    var reason: String
    var line: Int? = nil
  }

  /// Turns one element into records and issues.
  private func deliver(
    _ element: JSONNode, into summary: inout SourceSummary, _ body: (SourceEvent) throws -> Void
  ) throws {
    func issue(_ reason: String, line: Int? = nil) throws {
      summary.issues += 1
      let text = Array(element.compactText.utf8).withUnsafeBufferPointer { _LineText.escaped($0) }
      try body(.issue(SourceIssue(line: line ?? element.line, reason: reason, text: text)))
    }
    guard !numbers.isEmpty else {
      switch Self.scalar(element) {
      case .success(let text):
        if text.isEmpty { return try issue("empty number") }
        return try send([(text, element.line)], label: nil, day: nil, into: &summary, body)
      case .failure:
        return try issue("expected a string or an integer (the record's number), found \(element.typeName)")
      }
    }
    let fields: (label: String?, day: CalendarDay?)
    do {
      fields = try recordFields(of: element)
    } catch {
      return try issue(error.reason, line: error.line)
    }
    if let rangeEnd {
      guard let start = try single(numbers[0], in: element, what: "range start", issue: issue),
        let end = try single(rangeEnd, in: element, what: "range end", issue: issue)
      else { return }
      summary.records += 1
      return try Self.sendRange(from: start, to: end, day: fields.day, body)
    }
    let issuesBefore = summary.issues
    let (distinct, present) = try numberTexts(of: element, issue: issue)
    if distinct.isEmpty {
      if !present { return try issue("missing key '\(numbers[0])'") }
      // Values of the wrong type were reported already; else all were empty.
      if summary.issues > issuesBefore { return }
      return try issue("empty number")
    }
    try send(distinct, label: fields.label, day: fields.day, into: &summary, body)
  }

  /// The label and the day of a record element: it must be an object when
  /// a path names a member (pointers may also start at an array).
  private func recordFields(of element: JSONNode) throws(ElementIssue) -> (label: String?, day: CalendarDay?) {
    let usesMembers = [label, rangeEnd, date].compactMap { $0 }.contains(where: \.isMember)
      || numbers.contains(where: \.isMember)
    let isObject: Bool
    if case .object = element.value { isObject = true } else { isObject = false }
    if !isObject, usesMembers || !element.isContainer {
      throw ElementIssue(reason: "expected a json object, found \(element.typeName)")
    }
    var labelText: String?
    if let label, let node = label.resolve(in: element) {
      switch node.value {
      case .null: break
      case .string(let text):
        let trimmed = text.trimmingASCIIWhitespace()
        if !trimmed.isEmpty { labelText = trimmed }
      default: throw ElementIssue(reason: "'\(label)' must be a string, found \(node.typeName)", line: node.line)
      }
    }
    return (labelText, try day(of: element))
  }

  /// The day of a record element, when ``date`` names where it is written.
  private func day(of element: JSONNode) throws(ElementIssue) -> CalendarDay? {
    guard let date else { return nil }
    guard let node = date.resolve(in: element), node.value != .null else {
      throw ElementIssue(reason: "missing key '\(date)'")
    }
    guard case .string(let text) = node.value else {
      throw ElementIssue(reason: "'\(date)' must be a string, found \(node.typeName)", line: node.line)
    }
    let trimmed = text.trimmingASCIIWhitespace()
    if trimmed.isEmpty { throw ElementIssue(reason: "empty date in '\(date)'", line: node.line) }
    guard let parsed = dateFormat.day(of: trimmed) else {
      throw ElementIssue(
        reason: "date in '\(date)' is not \(dateFormat.rawValue)"
          + (dateFormat == .iso ? " (set dateFormat for dates written with the day or the month first)" : ""),
        line: node.line)
    }
    return parsed
  }

  /// The number texts a record element holds at ``numbers`` (arrays item
  /// by item), each distinct one once, in order; values of the wrong type
  /// go to `issue`. `present`: whether any path holds a value.
  private func numberTexts(
    of element: JSONNode, issue: (String, Int?) throws -> Void
  ) throws -> (distinct: [Found], present: Bool) {
    var found: [Found] = []
    var present = false
    for path in numbers {
      guard let node = path.resolve(in: element), node.value != .null else { continue }
      present = true
      if case .array(let items) = node.value {
        for item in items {
          switch Self.scalar(item) {
          case .success(let text): if !text.isEmpty { found.append((text, item.line)) }
          case .failure:
            try issue("'\(path)' holds \(Self.withArticle(item.typeName)), expected strings or integers", item.line)
          }
        }
        continue
      }
      switch Self.scalar(node) {
      case .success(let text): if !text.isEmpty { found.append((text, node.line)) }
      case .failure(let failure):
        try issue("'\(path)' must be a string, an integer or an array of them, found \(failure.found)", node.line)
      }
    }
    var distinct: [Found] = []
    for candidate in found where !distinct.contains(where: { $0.text == candidate.text }) { distinct.append(candidate) }
    return (distinct, present)
  }

  /// Delivers the range record `start`–`end`.
  private static func sendRange(
    from start: Found, to end: Found, day: CalendarDay?, _ body: (SourceEvent) throws -> Void
  ) throws {
    var startText = start.text
    var endText = end.text
    try startText.withUTF8 { startBytes in
      try endText.withUTF8 { endBytes in
        try body(.record(RawRecord(line: start.line, numberBytes: startBytes, rangeEndBytes: endBytes, day: day)))
      }
    }
  }

  /// The one value of a range end, or nil after an issue.
  private func single(
    _ path: JSONMemberPath, in element: JSONNode, what: String, issue: (String, Int?) throws -> Void
  ) throws -> Found? {
    guard let node = path.resolve(in: element), node.value != .null else {
      try issue("missing key '\(path)'", nil)
      return nil
    }
    switch Self.scalar(node) {
    case .success(let text):
      if text.isEmpty {
        try issue("empty \(what)", node.line)
        return nil
      }
      return (text, node.line)
    case .failure(let failure):
      try issue("'\(path)' must be a string or an integer, found \(failure.found)", node.line)
      return nil
    }
  }

  /// Why a value is no number text: what it is.
  private struct NotANumber: Error {
    var found: String
  }

  /// A number's text: a string trimmed, an integer's digits.
  private static func scalar(_ node: JSONNode) -> Result<String, NotANumber> {
    switch node.value {
    case .string(let text): return .success(text.trimmingASCIIWhitespace())
    case .number:
      if let digits = node.integerText { return .success(digits) }
      return .failure(NotANumber(found: "a fractional number (quote it)"))
    default:
      return .failure(NotANumber(found: withArticle(node.typeName)))
    }
  }

  private static func withArticle(_ typeName: String) -> String {
    switch typeName {
    case "null": "null"
    case "object", "array", "integer": "an \(typeName)"
    default: "a \(typeName)"
    }
  }

  /// Delivers the numbers of one element, cut by ``cells``.
  private func send(
    _ found: [Found], label: String?, day: CalendarDay?, into summary: inout SourceSummary,
    _ body: (SourceEvent) throws -> Void
  ) throws {
    var labelText = label
    for (text, line) in found {
      var numberText = text
      try numberText.withUTF8 { numberBytes in
        func deliver(_ labelBytes: UnsafeBufferPointer<UInt8>?) throws {
          let record = RawRecord(line: line, numberBytes: numberBytes, labelBytes: labelBytes, day: day)
          try cells.forEachRecord(
            in: record, shownAs: numberBytes, summary: &summary, deliver: { try body(.record($0)) },
            report: { try body(.issue($0)) })
        }
        if labelText != nil {
          try labelText?.withUTF8 { try deliver($0) }
        } else {
          try deliver(nil)
        }
      }
    }
  }
}

extension JSONMemberPath {
  /// Whether it is a member name rather than a pointer.
  fileprivate var isMember: Bool {
    if case .member = self { return true }
    return false
  }
}

extension JSONNode {
  /// Whether the value is an object or an array.
  fileprivate var isContainer: Bool {
    switch value {
    case .object, .array: true
    default: false
    }
  }
}

extension _ByteInput: JSONByteWindow {}
