import CalldirSystem

/// Reads `jsonl` sources: one JSON object per line, with the number (and
/// optionally the label) under configured keys.
///
/// # Rules
///
/// - Blank lines are skipped; every other line is a data line.
/// - The number may be a JSON string (kept as written) or an integer
///   (written out in decimal). The label must be a string; `null` or a
///   missing label key means no label.
/// - Keys match exactly; other keys are ignored.
///
/// # Issues
///
/// A file whose first data line opens an array, or is `{` without the rest
/// of its object, is one JSON document (format `json`): reading it stops
/// with ``SourceError/jsonDocumentInJSONLines(path:line:keyPath:)``
/// rather than rejecting each of its lines. Otherwise: invalid UTF-8, invalid JSON, a value that is not an object, a missing or
/// `null` number key, an empty number, a number of another type (a
/// fractional or too large JSON number must be quoted), and a label that is
/// not a string.
public struct JSONLinesSourceReader: SourceReader {
  /// Where the bytes come from.
  public var input: SourceInput
  /// The object key holding the number.
  public var numberKey: String
  /// The object key holding the label, if any.
  public var labelKey: String?
  package var _chunkSize = _defaultChunkSize

  /// Creates a reader.
  public init(input: SourceInput, numberKey: String, labelKey: String? = nil) {
    self.input = input
    self.numberKey = numberKey
    self.labelKey = labelKey
  }

  /// Reads the source; see ``SourceReader/read(_:)``.
  public func read(
    _ body: (SourceEvent) throws -> Void
  ) throws -> SourceSummary {
    let bytes = try _ByteInput(input, chunkSize: _chunkSize)
    var summary = SourceSummary()
    var isFirstDataLine = true
    summary.physicalLines = try _forEachLine(
      bytes,
      onLine: { p, count, line in
        var lower = 0
        var upper = count
        _trim(p, &lower, &upper)
        if lower == upper { return }
        let text = UnsafeBufferPointer(start: p + lower, count: upper - lower)
        if isFirstDataLine {
          isFirstDataLine = false
          if Self.startsJSONDocument(text) {
            throw SourceError.jsonDocumentInJSONLines(path: bytes.name, line: line, keyPath: nil)
          }
        }
        let lineBytes = UnsafeBufferPointer(start: p, count: count)
        switch extract(text) {
        case .success(let record):
          summary.records += 1
          var number = record.number
          var label = record.label
          try number.withUTF8 { numberBytes in
            if label != nil {
              try label?.withUTF8 { labelBytes in
                try body(
                  .record(
                    RawRecord(
                      line: line, numberBytes: numberBytes,
                      labelBytes: labelBytes, textBytes: lineBytes)))
              }
            } else {
              try body(
                .record(RawRecord(line: line, numberBytes: numberBytes, textBytes: lineBytes)))
            }
          }
        case .failure(let failure):
          summary.issues += 1
          try body(
            .issue(
              SourceIssue(
                line: line, reason: failure.reason,
                text: _LineText.escaped(p, count))))
        }
      },
      onTooLong: { line, start in
        summary.issues += 1
        try body(.issue(SourceIssue(line: line, reason: "line too long", text: _LineText.escaped(start))))
      })
    bytes.sign(&summary)
    return summary
  }

  /// Whether a first data line starts one JSON document rather than a
  /// line of JSON lines: it opens an array, or holds no whole value (`{`
  /// alone, the first line of a pretty-printed object).
  static func startsJSONDocument(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    var bytes = Array(text)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    guard let first = bytes.first else { return false }
    if first == UInt8(ascii: "[") { return true }
    guard first == UInt8(ascii: "{") else { return false }
    do {
      _ = try JSONParser(maxDepth: 32).parse(bytes)
      return false
    } catch {
      return error.reason == .unexpectedEndOfInput
    }
  }

  /// Decodes one line into a number and label.
  private func extract(
    _ text: UnsafeBufferPointer<UInt8>
  ) -> Result<(number: String, label: String?), _LineFailure> {
    guard let start = text.baseAddress, _isValidUTF8(start, text.count) else {
      return .failure(_LineFailure(reason: "invalid utf-8"))
    }
    let value: JSONValue
    do {
      value = try JSONParser(maxDepth: 32).parse(Array(text))
    } catch {
      return .failure(_LineFailure(reason: "invalid json (column \(error.column): \(error.reasonText))"))
    }
    guard case .object(let members) = value else {
      return .failure(
        _LineFailure(
          reason: "expected a json object, found \(value.typeName)"))
    }
    let object = Dictionary(members, uniquingKeysWith: { first, _ in first })
    let number: String
    switch object[numberKey] {
    case nil, .null?:
      return .failure(_LineFailure(reason: "missing key '\(numberKey)'"))
    case .string(let string)?:
      number = string.trimmingASCIIWhitespace()
    case .int(let integer)?:
      number = String(integer)
    case let other?:
      return .failure(
        _LineFailure(
          reason: "'\(numberKey)' must be a string or an integer, "
            + "found \(other.typeName)"))
    }
    if number.isEmpty {
      return .failure(_LineFailure(reason: "empty number"))
    }
    guard let labelKey else { return .success((number, nil)) }
    switch object[labelKey] {
    case nil, .null?:
      return .success((number, nil))
    case .string(let string)?:
      let label = string.trimmingASCIIWhitespace()
      return .success((number, label.isEmpty ? nil : label))
    case let other?:
      return .failure(
        _LineFailure(
          reason: "'\(labelKey)' must be a string, found \(other.typeName)"))
    }
  }
}
