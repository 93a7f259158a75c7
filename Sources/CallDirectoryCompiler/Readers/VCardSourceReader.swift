/// Reads `vcard` sources (vCard 2.1, 3.0 and 4.0): every `TEL` property is a
/// data line, labelled with the card's `FN` (or `ORG` when `FN` is empty).
///
/// # Rules
///
/// - Folded lines (continuations starting with a space or tab) are joined.
/// - Property names are case-insensitive and may carry a group:
///   `TEL;TYPE=VOICE,HOME:+359…`, `item2.TEL;type=pref:+1 (567) 123-4567`.
///   The value starts after the first `:` outside double quotes, so
///   `TEL;TYPE="voice,home":…` works.
/// - A `tel:` URI value (`TEL;VALUE=uri:tel:+1-555-555-5555;ext=5555`) is
///   reduced to its number: the scheme and any `;` parameters are removed.
/// - Records of a card are delivered when the card ends (`END:VCARD`), so
///   an `FN` written after the `TEL` lines still labels them. `TEL` lines
///   outside any card are delivered unlabelled.
/// - Only `TEL` lines are data lines. An empty value or invalid UTF-8 in it
///   is an issue; invalid UTF-8 in a name is replaced with U+FFFD.
public struct VCardSourceReader: SourceReader {
  /// Where the bytes come from.
  public var input: SourceInput
  var _chunkSize = _defaultChunkSize

  /// Creates a reader.
  public init(input: SourceInput) {
    self.input = input
  }

  /// Reads the source; see ``SourceReader/read(_:)``.
  public func read(
    _ body: (SourceEvent) throws -> Void
  ) throws -> SourceSummary {
    let bytes = try _ByteInput(input, chunkSize: _chunkSize)
    var summary = SourceSummary()
    var logical: [UInt8] = []
    var logicalLine = 0
    var card = _Card()

    func flushCard() throws {
      let label = card.label
      for (number, line, text) in card.numbers {
        summary.records += 1
        try number.withUnsafeBufferPointer { numberBytes in
          try label.withUnsafeBufferPointer { labelBytes in
            try text.withUnsafeBufferPointer { textBytes in
              try body(
                .record(
                  RawRecord(
                    line: line, numberBytes: numberBytes,
                    labelBytes: labelBytes.isEmpty ? nil : labelBytes,
                    textBytes: textBytes)))
            }
          }
        }
      }
      card = _Card()
    }

    func process() throws {
      guard !logical.isEmpty else { return }
      defer { logical.removeAll(keepingCapacity: true) }
      guard let property = _VCardProperty(logical) else { return }
      switch property.name {
      case "BEGIN":
        try flushCard()
      case "END":
        try flushCard()
      case "FN":
        card.formattedName = property.value
      case "ORG":
        card.organization = Array(
          property.value.prefix { $0 != _ASCII.semicolon })
      case "TEL":
        var value = property.value
        _trimArray(&value)
        if value.count >= 4,
          value[0] | 0x20 == 0x74, value[1] | 0x20 == 0x65,
          value[2] | 0x20 == 0x6C, value[3] == _ASCII.colon
        {
          value = Array(value[4...].prefix { $0 != _ASCII.semicolon })
          _trimArray(&value)
        }
        if value.isEmpty {
          summary.issues += 1
          try body(
            .issue(
              SourceIssue(
                line: logicalLine, reason: "empty number",
                text: logical.withUnsafeBufferPointer { _LineText.escaped($0) })))
        } else if !_isValidUTF8(value) {
          summary.issues += 1
          try body(
            .issue(
              SourceIssue(
                line: logicalLine, reason: "invalid utf-8",
                text: logical.withUnsafeBufferPointer { _LineText.escaped($0) })))
        } else {
          card.numbers.append((value, logicalLine, Array(logical.prefix(_LineText.maximumBytes))))
        }
      default:
        break
      }
    }

    summary.physicalLines = try _forEachLine(
      bytes,
      onLine: { p, count, line in
        if count > 0, p[0] == _ASCII.space || p[0] == _ASCII.tab {
          if !logical.isEmpty {
            logical.append(
              contentsOf: UnsafeBufferPointer(start: p + 1, count: count - 1))
          }
          return
        }
        try process()
        logicalLine = line
        logical.append(
          contentsOf: UnsafeBufferPointer(start: p, count: count))
      },
      onTooLong: { line, start in
        try process()
        summary.issues += 1
        try body(.issue(SourceIssue(line: line, reason: "line too long", text: _LineText.escaped(start))))
      })
    try process()
    try flushCard()
    bytes.sign(&summary)
    return summary
  }
}

/// The parts of one card the reader keeps until `END:VCARD`.
private struct _Card {
  /// Each `TEL` value with its line and the start of its content line.
  var numbers: [([UInt8], Int, [UInt8])] = []
  var formattedName: [UInt8] = []
  var organization: [UInt8] = []

  /// `FN`, else `ORG`, unescaped and trimmed; empty when neither is set.
  var label: [UInt8] {
    var name = _unescapeText(formattedName)
    _trimArray(&name)
    if name.isEmpty {
      name = _unescapeText(organization)
      _trimArray(&name)
    }
    if !_isValidUTF8(name) {
      name = Array(String(decoding: name, as: UTF8.self).utf8)
    }
    return name
  }
}

/// A content line split into its upper-cased name (group removed) and raw
/// value.
private struct _VCardProperty {
  var name: String
  var value: [UInt8]

  init?(_ line: [UInt8]) {
    var colon: Int?
    var inQuotes = false
    for (index, byte) in line.enumerated() {
      if byte == _ASCII.quote {
        inQuotes.toggle()
      } else if byte == _ASCII.colon, !inQuotes {
        colon = index
        break
      }
    }
    guard let colon else { return nil }
    var nameEnd = 0
    while nameEnd < colon, line[nameEnd] != _ASCII.semicolon { nameEnd += 1 }
    var nameStart = nameEnd
    while nameStart > 0, line[nameStart - 1] != 0x2E { nameStart -= 1 }
    name = String(decoding: line[nameStart..<nameEnd], as: UTF8.self)
      .trimmingASCIIWhitespace().uppercased()
    value = Array(line[(colon + 1)...])
  }
}

/// Removes vCard text escapes (`\,` `\;` `\\` `\n`).
private func _unescapeText(_ bytes: [UInt8]) -> [UInt8] {
  var result: [UInt8] = []
  result.reserveCapacity(bytes.count)
  var index = 0
  while index < bytes.count {
    let byte = bytes[index]
    if byte == 0x5C, index + 1 < bytes.count {
      let next = bytes[index + 1]
      result.append(next == 0x6E || next == 0x4E ? _ASCII.space : next)
      index += 2
    } else {
      result.append(byte)
      index += 1
    }
  }
  return result
}

/// Trims ASCII whitespace from both ends of `bytes`.
func _trimArray(_ bytes: inout [UInt8]) {
  while let last = bytes.last, _isBlank(last) { bytes.removeLast() }
  var start = 0
  while start < bytes.count, _isBlank(bytes[start]) { start += 1 }
  if start > 0 { bytes.removeFirst(start) }
}
