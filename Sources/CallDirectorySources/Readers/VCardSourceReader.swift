import UnicodeText

/// Reads `vcard` sources (vCard 2.1, 3.0 and 4.0): every `TEL` property is a
/// data line, labelled with the card's `FN` (or `ORG` when `FN` is empty),
/// or with the property ``labelProperty`` names (`NOTE`, `CATEGORIES`,
/// `X-SPAM-CATEGORY`, …): its first non-empty value in the card.
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
/// - vCard 2.1 values as phones export them are decoded: quoted-printable
///   (`FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=D0=98=D0=B2…`, also the
///   bare `QUOTED-PRINTABLE` parameter), whose soft line breaks (`=` at
///   the end of a line) join the next line whole (but `END:VCARD`), and a
///   `CHARSET` other than UTF-8 (`ISO-8859-1`, `Windows-1251`, …),
///   converted through ICU.
/// - Records of a card are delivered when the card ends (`END:VCARD`), so
///   an `FN` written after the `TEL` lines still labels them. `TEL` lines
///   outside any card are delivered unlabelled.
/// - Only `TEL` lines are data lines. An empty value or invalid UTF-8 in it
///   is an issue; invalid UTF-8 in a name is replaced with U+FFFD.
public struct VCardSourceReader: SourceReader {
  /// Where the bytes come from.
  public var input: SourceInput
  /// The property whose value labels a card's numbers, upper-cased
  /// (``propertyName(_:)``); nil for `FN`, else `ORG`.
  public var labelProperty: String?
  package var _chunkSize = _defaultChunkSize

  /// `name` as a property name to label by, upper-cased: letters, digits
  /// and `-` (RFC 6350's `name`), not `TEL` (the numbers themselves).
  public static func propertyName(_ name: String) throws(SourceOptionError) -> String {
    let upper = name.uppercased()
    let isName = !upper.isEmpty
      && upper.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
    guard isName, !["TEL", "BEGIN", "END", "VERSION"].contains(upper) else {
      throw SourceOptionError(
        key: "label",
        reason: "'\(name)' is not a vCard property to label by (FN, ORG, NOTE, CATEGORIES or an X- name)")
    }
    return upper
  }

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
    var card = _Card(property: labelProperty)

    // Takes the content line gathered so far (its folded lines joined).
    func process() throws {
      guard !logical.isEmpty else { return }
      defer { logical.removeAll(keepingCapacity: true) }
      guard var property = _VCardProperty(logical) else { return }
      property.decodeValue()
      try card.take(property, line: logicalLine, content: logical, summary: &summary, body)
    }

    summary.physicalLines = try _forEachLine(
      bytes,
      onLine: { p, count, line in
        let text = UnsafeBufferPointer(start: p, count: count)
        if logical.last == 0x3D, !_isEndOfCard(text), _VCardProperty.isQuotedPrintable(logical) {
          // A soft line break: the encoded text goes on with this line
          // (never past the card's end).
          logical.removeLast()
          logical.append(contentsOf: text)
          return
        }
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
    try card.deliver(summary: &summary, body)
    bytes.sign(&summary)
    return summary
  }
}

/// The parts of one card the reader keeps until `END:VCARD`.
private struct _Card {
  /// The property that labels the card (``VCardSourceReader/labelProperty``);
  /// nil for `FN`, else `ORG`.
  let property: String?
  /// Each `TEL` value with its line and the start of its content line.
  var numbers: [([UInt8], Int, [UInt8])] = []
  /// The first non-empty value of `property` (its first component for `ORG`).
  var chosen: [UInt8] = []
  var formattedName: [UInt8] = []
  var organization: [UInt8] = []

  init(property: String?) {
    self.property = property
  }

  /// Takes one property of the card: `BEGIN` and `END` deliver the card
  /// so far, the labelling properties are kept, a `TEL` is a number or an
  /// issue (of `content`, the content line at `line`).
  mutating func take(
    _ property: _VCardProperty, line: Int, content: [UInt8], summary: inout SourceSummary,
    _ body: (SourceEvent) throws -> Void
  ) throws {
    switch property.name {
    case "BEGIN":
      try deliver(summary: &summary, body)
    case "END":
      try deliver(summary: &summary, body)
    case self.property where chosen.isEmpty:
      chosen = property.name == "ORG" ? Array(property.value.prefix { $0 != _ASCII.semicolon }) : property.value
      _trimArray(&chosen)
    case "FN" where self.property == nil:
      formattedName = property.value
    case "ORG" where self.property == nil:
      organization = Array(
        property.value.prefix { $0 != _ASCII.semicolon })
    case "TEL":
      try takeNumber(Self.telNumber(property.value), line: line, content: content, summary: &summary, body)
    default:
      break
    }
  }

  /// A `TEL` value trimmed, a `tel:` URI reduced to its number.
  static func telNumber(_ raw: [UInt8]) -> [UInt8] {
    var value = raw
    _trimArray(&value)
    if value.count >= 4,
      value[0] | 0x20 == 0x74, value[1] | 0x20 == 0x65,
      value[2] | 0x20 == 0x6C, value[3] == _ASCII.colon
    {
      value = Array(value[4...].prefix { $0 != _ASCII.semicolon })
      _trimArray(&value)
    }
    return value
  }

  /// Keeps `value` for the card's end, or reports why it is no number.
  private mutating func takeNumber(
    _ value: [UInt8], line: Int, content: [UInt8], summary: inout SourceSummary, _ body: (SourceEvent) throws -> Void
  ) throws {
    if value.isEmpty {
      summary.issues += 1
      try body(
        .issue(
          SourceIssue(
            line: line, reason: "empty number",
            text: content.withUnsafeBufferPointer { _LineText.escaped($0) })))
    } else if !_isValidUTF8(value) {
      summary.issues += 1
      try body(
        .issue(
          SourceIssue(
            line: line, reason: "invalid utf-8",
            text: content.withUnsafeBufferPointer { _LineText.escaped($0) })))
    } else {
      numbers.append((value, line, Array(content.prefix(_LineText.maximumBytes))))
    }
  }

  /// Delivers the card's numbers, labelled, and starts a new card.
  mutating func deliver(summary: inout SourceSummary, _ body: (SourceEvent) throws -> Void) throws {
    let label = self.label
    for (number, line, text) in numbers {
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
    self = _Card(property: property)
  }

  /// The chosen property's value, or `FN`, else `ORG`, unescaped and
  /// trimmed; empty when none is set.
  var label: [UInt8] {
    var name = _unescapeText(property == nil ? formattedName : chosen)
    _trimArray(&name)
    if name.isEmpty, property == nil {
      name = _unescapeText(organization)
      _trimArray(&name)
    }
    if !_isValidUTF8(name) {
      name = Array(String(decoding: name, as: UTF8.self).utf8)
    }
    return name
  }
}

/// A content line split into its upper-cased name (group removed), its
/// parameters and its raw value.
private struct _VCardProperty {
  var name: String
  /// The parameters, upper-cased: `ENCODING=QUOTED-PRINTABLE`, `CHARSET=UTF-8`,
  /// or a vCard 2.1 bare `QUOTED-PRINTABLE`.
  var parameters: [Substring]
  var value: [UInt8]

  init?(_ line: [UInt8]) {
    guard let colon = Self.valueColon(line) else { return nil }
    var nameEnd = 0
    while nameEnd < colon, line[nameEnd] != _ASCII.semicolon { nameEnd += 1 }
    var nameStart = nameEnd
    while nameStart > 0, line[nameStart - 1] != 0x2E { nameStart -= 1 }
    name = String(decoding: line[nameStart..<nameEnd], as: UTF8.self)
      .trimmingASCIIWhitespace().uppercased()
    parameters = String(decoding: line[nameEnd..<colon], as: UTF8.self).uppercased()
      .split(separator: ";").map { $0.filter { $0 != " " && $0 != "\"" }[...] }
    value = Array(line[(colon + 1)...])
  }

  /// The first `:` outside double quotes: where the value starts.
  private static func valueColon(_ line: [UInt8]) -> Int? {
    var inQuotes = false
    for (index, byte) in line.enumerated() {
      if byte == _ASCII.quote {
        inQuotes.toggle()
      } else if byte == _ASCII.colon, !inQuotes {
        return index
      }
    }
    return nil
  }

  /// Whether the content line read so far declares a quoted-printable value.
  static func isQuotedPrintable(_ line: [UInt8]) -> Bool {
    _VCardProperty(line)?.isQuotedPrintable == true
  }

  var isQuotedPrintable: Bool {
    parameters.contains { $0 == "ENCODING=QUOTED-PRINTABLE" || $0 == "QUOTED-PRINTABLE" }
  }

  /// The value's bytes as UTF-8: quoted-printable decoded, then converted
  /// from its `CHARSET` (an unknown one leaves the bytes as they are).
  mutating func decodeValue() {
    if isQuotedPrintable { value = _decodeQuotedPrintable(value) }
    guard let charset = parameters.first(where: { $0.hasPrefix("CHARSET=") })?.dropFirst(8),
      charset != "UTF-8", charset != "UTF8", !value.isEmpty,
      let transcoder = try? TextTranscoder(encoding: String(charset))
    else { return }
    var converted = [UInt8](repeating: 0, count: value.count * 4 + 4)
    let produced = value.withUnsafeBufferPointer { input in
      converted.withUnsafeMutableBufferPointer { output in
        (try? transcoder.convert(input, into: output, flush: true))?.produced
      }
    }
    if let produced { value = Array(converted.prefix(produced)) }
  }
}

/// Whether `line` is `END:VCARD` (any case, blanks around it).
private func _isEndOfCard(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
  String(decoding: line, as: UTF8.self).trimmingASCIIWhitespace().uppercased() == "END:VCARD"
}

/// Decodes quoted-printable `=XX` escapes (either case); a last `=` (a soft
/// line break with nothing after it) is dropped, another `=` that starts no
/// escape stays as it is.
private func _decodeQuotedPrintable(_ bytes: [UInt8]) -> [UInt8] {
  func hex(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: byte - 0x30
    case 0x41...0x46: byte - 0x41 + 10
    case 0x61...0x66: byte - 0x61 + 10
    default: nil
    }
  }
  var result: [UInt8] = []
  result.reserveCapacity(bytes.count)
  var index = 0
  while index < bytes.count {
    if bytes[index] == 0x3D, index + 2 < bytes.count, let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2]) {
      result.append(high << 4 | low)
      index += 3
    } else if bytes[index] == 0x3D, index + 1 == bytes.count {
      index += 1
    } else {
      result.append(bytes[index])
      index += 1
    }
  }
  return result
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
