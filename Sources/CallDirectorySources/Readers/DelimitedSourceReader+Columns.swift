import CalldirSystem

/// Choosing columns and turning one row into a record, a reject or a
/// filtered row.
extension DelimitedSourceReader {
  /// Finds the chosen columns in the header row.
  func _resolveHeader(
    _ base: UnsafeMutablePointer<UInt8>, _ fields: [_Field], name: String
  ) throws(SourceError) -> _Columns {
    // Each name as text, and as an error message may show it.
    var names: [String] = []
    var shownNames: [String] = []
    for field in fields {
      let end = _unescapeInPlace(base, field)
      var lower = field.start
      var upper = end
      _trim(base, &lower, &upper)
      var text = String(decoding: UnsafeBufferPointer(start: base + lower, count: upper - lower), as: UTF8.self)
      if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
      text = text.trimmingASCIIWhitespace()
      names.append(text)
      shownNames.append(Array(text.utf8).withUnsafeBufferPointer(_LineText.escaped))
    }
    // A column named in the config, else the first of its aliases the
    // header has.
    func find(_ column: String) throws(SourceError) -> Int {
      for candidate in [column] + (columnAliases[column] ?? []) {
        let matches = names.indices.filter { names[$0] == candidate }
        if matches.count > 1 {
          throw .duplicateColumn(path: name, column: candidate)
        }
        if let index = matches.first { return index }
      }
      let aliases = columnAliases[column] ?? []
      throw .columnNotFound(
        path: name, column: ([column] + aliases).joined(separator: "' or '"), available: shownNames,
        suggestion: _suggestion(for: column, among: names))
    }
    func findOptional(_ column: String?) throws(SourceError) -> Int? {
      guard let column else { return nil }
      return try find(column)
    }
    var columns = _Columns(
      number: try find(numberColumn), label: try findOptional(labelColumn),
      rangeEnd: try findOptional(rangeEndColumn), region: try findOptional(regionColumn),
      date: try findOptional(dateColumn))
    for column in additionalNumberColumns {
      columns.additionalNumbers.append(try find(column))
    }
    for column in filter.keys.sorted() {
      columns.filters.append((try find(column), column, filter[column] ?? []))
    }
    columns.needed =
      ([columns.number, columns.label, columns.rangeEnd, columns.region, columns.date].compactMap { $0 }
        + columns.additionalNumbers + columns.filters.map(\.index)).max().map { $0 + 1 } ?? 1
    return columns
  }

  /// Validates the chosen fields of one row.
  func _extract(
    _ base: UnsafeMutablePointer<UInt8>, _ columns: _Columns,
    fields: inout [_Field], line: Int
  ) -> _RowOutcome {
    if fields.count < columns.needed {
      let noun = fields.count == 1 ? "field" : "fields"
      return .issue(
        "short row: \(fields.count) \(noun), expected at least "
          + "\(columns.needed)")
    }
    /// The trimmed bytes of field `index`, its doubled quotes collapsed once.
    func trimmed(_ index: Int) -> UnsafeBufferPointer<UInt8> {
      let field = fields[index]
      var lower = field.start
      var upper = _unescapeInPlace(base, field)
      fields[index] = _Field(start: field.start, end: upper, escaped: false)
      _trim(base, &lower, &upper)
      return UnsafeBufferPointer(start: base + lower, count: upper - lower)
    }
    func text(_ index: Int) -> String {
      String(decoding: trimmed(index), as: UTF8.self)
    }
    for (position, chosen) in columns.filters.enumerated() {
      let value = text(chosen.index)
      guard chosen.values.contains(value) else { return .filtered }
      columns.matched.note(value, of: position)
    }
    var region: String?
    if let regionIndex = columns.region {
      let value = text(regionIndex)
      guard let code = regions[value] else {
        let shown = _LineText.escaped(trimmed(regionIndex))
        return .issue("region column '\(regionColumn ?? "")' value '\(shown)' is not in regions")
      }
      region = code
    }
    var day: CalendarDay?
    if let dateIndex = columns.date {
      let bytes = trimmed(dateIndex)
      if bytes.isEmpty { return .issue("empty date in column '\(dateColumn ?? "")'") }
      guard let parsed = dateFormat.day(of: bytes) else {
        return .issue(
          // The date itself is in the rejected line's text: reasons stay
          // few, one per column and format, however many dates are bad.
          "date in column '\(dateColumn ?? "")' is not \(dateFormat.rawValue)"
            + (dateFormat == .iso ? " (set dateFormat for dates written with the day or the month first)" : ""))
      }
      day = parsed
    }
    // The first non-empty number column gives the record; with more number
    // columns, each other distinct number is a record of the same row. A
    // cell without a letter or digit (the FCC's `-`) is empty.
    func number(_ index: Int) -> UnsafeBufferPointer<UInt8> {
      let bytes = trimmed(index)
      return _isPlaceholder(bytes) ? UnsafeBufferPointer(start: bytes.baseAddress, count: 0) : bytes
    }
    var numberBytes = number(columns.number)
    var others: [UnsafeBufferPointer<UInt8>] = []
    for index in columns.additionalNumbers {
      let bytes = number(index)
      if bytes.isEmpty { continue }
      if numberBytes.isEmpty { numberBytes = bytes } else { others.append(bytes) }
    }
    if numberBytes.isEmpty { return .issue(columns.rangeEnd == nil ? "empty number" : "empty range start") }
    if !_isValidUTF8(numberBytes) || others.contains(where: { !_isValidUTF8($0) }) {
      return .issue(columns.rangeEnd == nil ? "invalid utf-8" : "invalid utf-8 in range start")
    }
    var rangeEndBytes: UnsafeBufferPointer<UInt8>?
    if let rangeEndIndex = columns.rangeEnd {
      let bytes = trimmed(rangeEndIndex)
      if bytes.isEmpty { return .issue("empty range end") }
      if !_isValidUTF8(bytes) {
        return .issue("invalid utf-8 in range end")
      }
      rangeEndBytes = bytes
    }
    var labelBytes: UnsafeBufferPointer<UInt8>?
    if let labelIndex = columns.label {
      let bytes = trimmed(labelIndex)
      if !_isValidUTF8(bytes) {
        return .issue("invalid utf-8 in label")
      }
      if !bytes.isEmpty { labelBytes = bytes }
    }
    let record = RawRecord(
      line: line, numberBytes: numberBytes, labelBytes: labelBytes,
      rangeEndBytes: rangeEndBytes, region: region, day: day)
    var more: [RawRecord] = []
    for (index, other) in others.enumerated()
    where !other.elementsEqual(numberBytes) && !others[..<index].contains(where: { $0.elementsEqual(other) }) {
      more.append(RawRecord(line: line, numberBytes: other, labelBytes: labelBytes, region: region, day: day))
    }
    return .records(record, more: more)
  }
}

/// Where the chosen columns sit in a delimited header.
struct _Columns {
  var number: Int
  var label: Int?
  var rangeEnd: Int?
  var region: Int?
  var date: Int?
  /// More number columns of a row.
  var additionalNumbers: [Int] = []
  /// `where` columns: index, name and the values kept.
  var filters: [(index: Int, name: String, values: Set<String>)] = [] {
    didSet { matched = _MatchedValues(filters.map(\.values)) }
  }
  /// The `where` values some row held.
  var matched = _MatchedValues([])
  /// Fields a row needs: one past the rightmost chosen column.
  var needed = 1
}

/// Which `where` values the rows held, to name those none held (an
/// operator code mistyped in `operators` would otherwise leave an empty
/// source without a word). Stops looking once every value was seen.
final class _MatchedValues {
  private var seen: [Set<String>]
  private var remaining: Int

  init(_ wanted: [Set<String>]) {
    seen = wanted.map { _ in [] }
    remaining = wanted.reduce(0) { $0 + $1.count }
  }

  /// Notes that a row holds `value`, one of filter `position`'s values.
  func note(_ value: String, of position: Int) {
    guard remaining > 0, seen[position].insert(value).inserted else { return }
    remaining -= 1
  }

  /// The values of `filters` no row held, by column name.
  func unmatched(_ filters: [(index: Int, name: String, values: Set<String>)]) -> [String: [String]] {
    var result: [String: [String]] = [:]
    for (position, filter) in filters.enumerated() {
      let missing = filter.values.subtracting(seen[position]).sorted()
      if !missing.isEmpty { result[filter.name] = missing }
    }
    return result
  }
}

/// A row turned into a record, rejected, or left out by `where`.
enum _RowOutcome {
  /// The row's record, and one more per other number it holds.
  case records(RawRecord, more: [RawRecord])
  case issue(String)
  case filtered
}

/// Whether a number cell stands for "no number": not empty, but without a
/// letter, a digit or any non-ASCII character (`-`, `--`, `.`, `/`), as
/// complaint exports fill the columns a report leaves blank.
package func _isPlaceholder(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
  !bytes.isEmpty
    && bytes.allSatisfy { byte in
      byte < 0x80 && !(0x30...0x39).contains(byte) && !(0x61...0x7A).contains(byte | 0x20)
    }
}
