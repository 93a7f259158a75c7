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
    for (position, chosen) in columns.filters.enumerated() {
      let value = _fieldText(base, &fields, chosen.index)
      guard chosen.values.contains(value) else { return .filtered }
      columns.matched.note(value, of: position)
    }
    do {
      let region = try _rowRegion(base, columns, &fields)
      let day = try _rowDay(base, columns, &fields)
      let (numberBytes, others) = try _rowNumbers(base, columns, &fields)
      let rangeEndBytes = try _rowRangeEnd(base, columns, &fields)
      let labelBytes = try _rowLabel(base, columns, &fields)
      let record = RawRecord(
        line: line, numberBytes: numberBytes, labelBytes: labelBytes,
        rangeEndBytes: rangeEndBytes, region: region, day: day)
      var more: [RawRecord] = []
      for (index, other) in others.enumerated()
      where !other.elementsEqual(numberBytes) && !others[..<index].contains(where: { $0.elementsEqual(other) }) {
        more.append(RawRecord(line: line, numberBytes: other, labelBytes: labelBytes, region: region, day: day))
      }
      return .records(record, more: more)
    } catch {
      return .issue(error.reason)
    }
  }

  /// The row's region, by its region column's value in ``regions``.
  private func _rowRegion(
    _ base: UnsafeMutablePointer<UInt8>, _ columns: _Columns, _ fields: inout [_Field]
  ) throws(_RowIssue) -> String? {
    guard let regionIndex = columns.region else { return nil }
    let value = _fieldText(base, &fields, regionIndex)
    guard let code = regions[value] else {
      let shown = _LineText.escaped(_trimmedField(base, &fields, regionIndex))
      throw _RowIssue(reason: "region column '\(regionColumn ?? "")' value '\(shown)' is not in regions")
    }
    return code
  }

  /// The row's day, from its date column.
  private func _rowDay(
    _ base: UnsafeMutablePointer<UInt8>, _ columns: _Columns, _ fields: inout [_Field]
  ) throws(_RowIssue) -> CalendarDay? {
    guard let dateIndex = columns.date else { return nil }
    let bytes = _trimmedField(base, &fields, dateIndex)
    if bytes.isEmpty { throw _RowIssue(reason: "empty date in column '\(dateColumn ?? "")'") }
    guard let parsed = dateFormat.day(of: bytes) else {
      throw _RowIssue(
        // The date itself is in the rejected line's text: reasons stay
        // few, one per column and format, however many dates are bad.
        reason: "date in column '\(dateColumn ?? "")' is not \(dateFormat.rawValue)"
          + (dateFormat == .iso ? " (set dateFormat for dates written with the day or the month first)" : ""))
    }
    return parsed
  }

  /// The first non-empty number column gives the record; with more number
  /// columns, each other number is a record of the same row (`others`,
  /// repeats included). A cell without a letter or digit (the FCC's `-`)
  /// is empty.
  private func _rowNumbers(
    _ base: UnsafeMutablePointer<UInt8>, _ columns: _Columns, _ fields: inout [_Field]
  ) throws(_RowIssue) -> (first: UnsafeBufferPointer<UInt8>, others: [UnsafeBufferPointer<UInt8>]) {
    func number(_ index: Int) -> UnsafeBufferPointer<UInt8> {
      let bytes = _trimmedField(base, &fields, index)
      return _isPlaceholder(bytes) ? UnsafeBufferPointer(start: bytes.baseAddress, count: 0) : bytes
    }
    var numberBytes = number(columns.number)
    var others: [UnsafeBufferPointer<UInt8>] = []
    for index in columns.additionalNumbers {
      let bytes = number(index)
      if bytes.isEmpty { continue }
      if numberBytes.isEmpty { numberBytes = bytes } else { others.append(bytes) }
    }
    if numberBytes.isEmpty { throw _RowIssue(reason: columns.rangeEnd == nil ? "empty number" : "empty range start") }
    if !_isValidUTF8(numberBytes) || others.contains(where: { !_isValidUTF8($0) }) {
      throw _RowIssue(reason: columns.rangeEnd == nil ? "invalid utf-8" : "invalid utf-8 in range start")
    }
    return (numberBytes, others)
  }

  /// The last number of the row's range, with ``rangeEndColumn``.
  private func _rowRangeEnd(
    _ base: UnsafeMutablePointer<UInt8>, _ columns: _Columns, _ fields: inout [_Field]
  ) throws(_RowIssue) -> UnsafeBufferPointer<UInt8>? {
    guard let rangeEndIndex = columns.rangeEnd else { return nil }
    let bytes = _trimmedField(base, &fields, rangeEndIndex)
    if bytes.isEmpty { throw _RowIssue(reason: "empty range end") }
    if !_isValidUTF8(bytes) { throw _RowIssue(reason: "invalid utf-8 in range end") }
    return bytes
  }

  /// The row's label, nil when its label column is empty.
  private func _rowLabel(
    _ base: UnsafeMutablePointer<UInt8>, _ columns: _Columns, _ fields: inout [_Field]
  ) throws(_RowIssue) -> UnsafeBufferPointer<UInt8>? {
    guard let labelIndex = columns.label else { return nil }
    let bytes = _trimmedField(base, &fields, labelIndex)
    if !_isValidUTF8(bytes) { throw _RowIssue(reason: "invalid utf-8 in label") }
    return bytes.isEmpty ? nil : bytes
  }
}

/// Why a row is rejected.
private struct _RowIssue: Error {
  var reason: String
}

/// The trimmed bytes of field `index`, its doubled quotes collapsed once.
private func _trimmedField(
  _ base: UnsafeMutablePointer<UInt8>, _ fields: inout [_Field], _ index: Int
) -> UnsafeBufferPointer<UInt8> {
  let field = fields[index]
  var lower = field.start
  var upper = _unescapeInPlace(base, field)
  fields[index] = _Field(start: field.start, end: upper, escaped: false)
  _trim(base, &lower, &upper)
  return UnsafeBufferPointer(start: base + lower, count: upper - lower)
}

/// Field `index` as text (``_trimmedField(_:_:_:)``).
private func _fieldText(_ base: UnsafeMutablePointer<UInt8>, _ fields: inout [_Field], _ index: Int) -> String {
  String(decoding: _trimmedField(base, &fields, index), as: UTF8.self)
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
