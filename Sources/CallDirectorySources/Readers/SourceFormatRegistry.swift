import UnicodeText

/// Maps format names (`lines`, `csv`, …) to ``SourceFormat``s.
///
/// The config parser validates `format` and the format's options against a
/// registry, and the compiler asks it for a reader per source:
///
///     let reader = try SourceFormatRegistry.standard.makeReader(for: spec)
public struct SourceFormatRegistry: Sendable {
  private var formats: [String: SourceFormat] = [:]

  /// Creates a registry holding `formats`.
  public init(_ formats: [SourceFormat] = []) {
    for format in formats { register(format) }
  }

  /// Adds a format, replacing one with the same name.
  public mutating func register(_ format: SourceFormat) {
    formats[format.name] = format
  }

  /// The format called `name`, if registered.
  public subscript(name: String) -> SourceFormat? {
    formats[name]
  }

  /// The registered names, sorted.
  public var names: [String] {
    formats.keys.sorted()
  }

  /// Every option key any registered format accepts, sorted.
  public var allOptionNames: [String] {
    Set(formats.values.flatMap { $0.options.map(\.name) }).sorted()
  }

  /// The built-in formats: `csv`, `json`, `jsonl`, `lines`, `patterns`,
  /// `tsv`, `vcard`, `xml`, and the presets `arcep-majnum`, `ftc-dnc`,
  /// `fcc-complaints` and `fritzbox-phonebook` (``SourcePresets``).
  public static let standard = SourceFormatRegistry([
    SourceFormat(
      name: "lines",
      summary: "one number per line; '#' comments",
      options: CellRules.options,
      factory: { input, options throws(SourceOptionError) in
        LinesSourceReader(input: input, cells: try CellRules(options: options, commentCharacter: "#"))
      }),
    SourceFormat(
      name: "patterns",
      summary: "e.164 prefixes with trailing '#' wildcards, or ranges a-b",
      factory: { input, _ throws(SourceOptionError) in
        PatternsSourceReader(input: input)
      }),
    _delimitedFormat(name: "csv", delimiter: _ASCII.comma),
    _delimitedFormat(name: "tsv", delimiter: _ASCII.tab),
    SourcePresets.arcepMajnum,
    SourcePresets.ftcComplaints,
    SourcePresets.fccComplaints,
    SourceFormat(
      name: "vcard",
      summary: "vcard TEL properties, labelled with FN",
      options: [
        .init(
          name: "label", isRequired: false,
          summary: "the property that labels a card's numbers: FN (default, else ORG), ORG, NOTE, CATEGORIES, X-…")
      ],
      labels: .intrinsic,
      factory: { input, options throws(SourceOptionError) in
        var reader = VCardSourceReader(input: input)
        if let name = options["label"] { reader.labelProperty = try VCardSourceReader.propertyName(name) }
        return reader
      }),
    SourceFormat(
      name: "jsonl",
      summary: "one json object per line",
      options: [
        .init(
          name: "number", isRequired: true,
          summary: "object key holding the number"),
        .init(
          name: "label", isRequired: false,
          summary: "object key holding the label"),
      ],
      labels: .column(option: "label"),
      factory: { input, options throws(SourceOptionError) in
        JSONLinesSourceReader(
          input: input, numberKey: try _requiredOption("number", options),
          labelKey: options["label"])
      }),
    SourceFormat(
      name: "json",
      summary: "one json document: an array of records (objects, or the numbers themselves)",
      options: [
        .init(
          name: "records", isRequired: false,
          summary: "json pointer (rfc 6901) to the array of records, such as '/data' (default '': the document)",
          kind: .text),
        .init(
          name: "number", isRequired: false,
          summary: "member of each record holding its number (a string, an integer, or an array of them), "
            + "or a json pointer into the record such as '/phones/0', or an array of them; "
            + "left out, each record is a number",
          kind: .stringOrStrings),
        .init(
          name: "label", isRequired: false,
          summary: "member (or json pointer into the record) holding the label"),
        .init(
          name: "rangeStart", isRequired: false,
          summary: "member holding each record's first number (with rangeEnd)"),
        .init(
          name: "rangeEnd", isRequired: false,
          summary: "member holding each record's last number (with rangeStart)"),
        .init(
          name: "dateColumn", isRequired: false,
          summary: "member holding each record's date (for maxAgeDays and --as-of)"),
        .init(
          name: "dateFormat", isRequired: false,
          summary: "how dateColumn writes dates: YYYY-MM-DD (default), MM/DD/YYYY or DD/MM/YYYY"),
      ] + CellRules.options,
      labels: .column(option: "label"),
      factory: { input, options throws(SourceOptionError) in
        try JSONDocumentSourceReader(input: input, options: options)
      }),
    _xmlFormat,
    SourcePresets.fritzboxPhonebook,
  ])
}

/// `xml`: records chosen by a streamable pattern, numbers and labels by
/// XPaths relative to a record (``XMLSourceReader``).
let _xmlFormat = SourceFormat(
  name: "xml",
  summary: "xml elements chosen by a streamable pattern, numbers and labels by xpath",
  options: [
    .init(
      name: "records", isRequired: true,
      summary: "streamable pattern of the record elements: //contact, /phonebooks/phonebook/contact"),
    .init(
      name: "number", isRequired: true,
      summary: "xpath of a record's numbers, relative to it (each selected node is a number): telephony/number"),
    .init(
      name: "label", isRequired: false,
      summary: "xpath of a record's label, relative to it (its first non-empty node): person/realName"),
    .init(
      name: "encoding", isRequired: false,
      summary: "character set of a document that declares none (default: its declaration, else UTF-8)"),
  ],
  labels: .column(option: "label"),
  factory: { input, options throws(SourceOptionError) in
    try XMLSourceReader(
      input: input, records: try _requiredOption("records", options), number: try _requiredOption("number", options),
      label: options["label"], encoding: options["encoding"])
  })

/// `csv` or `tsv`; `csv` also takes a `delimiter`. Both take the keys of
/// published files: `encoding`, `rangeStart`/`rangeEnd`, `where`,
/// `regionColumn` with `regions`, `dateColumn` with `dateFormat`,
/// `rewritePrefixes`, `columnAliases`, and the cell keys `numberSeparator`,
/// `wildcard` and `rangeSeparator` (``CellRules``).
func _delimitedFormat(name: String, delimiter: UInt8) -> SourceFormat {
  SourceFormat(
    name: name,
    summary: "rfc 4180 \(name) with a header row",
    options: _delimitedOptions(delimiter: delimiter),
    labels: .column(option: "label"),
    factory: { input, options throws(SourceOptionError) in
      try _delimitedReader(input: input, options: options, delimiter: delimiter)
    })
}

/// The keys `csv` (with `delimiter`) or `tsv` take.
private func _delimitedOptions(delimiter: UInt8) -> [SourceFormat.Option] {
  var options: [SourceFormat.Option] = [
    .init(
      name: "number", isRequired: true,
      summary: "header name of the number column, or an array of them (each non-empty one is a report)",
      kind: .stringOrStrings, alternatives: ["rangeStart"]),
    .init(
      name: "label", isRequired: false,
      summary: "header name of the label column"),
  ]
  if delimiter == _ASCII.comma {
    options.append(
      .init(
        name: "delimiter", isRequired: false,
        summary: "field separator, one ascii character (default ',')"))
  }
  options += [
    .init(
      name: "encoding", isRequired: false,
      summary: "character set of the file, such as ISO-8859-1 or Windows-1252 (default UTF-8)"),
    .init(
      name: "rangeStart", isRequired: false,
      summary: "header name of the column holding each row's first number (with rangeEnd)"),
    .init(
      name: "rangeEnd", isRequired: false,
      summary: "header name of the column holding each row's last number (with rangeStart)"),
    .init(
      name: "where", isRequired: false,
      summary: "keep only rows whose column holds one of the values: {\"column\": [\"value\", …]}",
      kind: .stringArraysByKey),
    .init(
      name: "regionColumn", isRequired: false,
      summary: "header name of the column whose value picks the row's region in regions"),
    .init(
      name: "regions", isRequired: false,
      summary: "region by regionColumn value: {\"value\": \"FR\"}", kind: .stringsByKey),
    .init(
      name: "dateColumn", isRequired: false,
      summary: "header name of the column holding each row's date (for maxAgeDays and --as-of)"),
    .init(
      name: "dateFormat", isRequired: false,
      summary: "how dateColumn writes dates: YYYY-MM-DD (default), MM/DD/YYYY or DD/MM/YYYY"),
    .init(
      name: "rewritePrefixes", isRequired: false,
      summary: "leading text of numbers replaced before normalizing: {\"0508\": \"+508\"}", kind: .textByKey),
    .init(
      name: "columnAliases", isRequired: false,
      summary: "other header names of a column, tried in order when the header lacks it: {\"column\": [\"other\", …]}",
      kind: .stringArraysByKey),
  ] + CellRules.options
  return options
}

/// The reader of a `csv` or `tsv` source with `options` checked.
private func _delimitedReader(
  input: SourceInput, options: SourceOptions, delimiter: UInt8
) throws(SourceOptionError) -> DelimitedSourceReader {
  let separator = try _delimitedSeparator(options, default: delimiter)
  let columns = try _delimitedColumns(options)
  let (regionColumn, regions) = try _delimitedRegions(options)
  let cells = try CellRules(options: options)
  if columns.rangeEnd != nil, let key = CellRules.keys.first(where: { options[$0] != nil }) {
    throw SourceOptionError(
      key: key, reason: "cannot be combined with rangeStart and rangeEnd (a row is one range already)")
  }
  return DelimitedSourceReader(
    input: input, delimiter: separator,
    numberColumn: columns.numbers[0], labelColumn: options["label"],
    encoding: try _delimitedEncoding(options), rangeEndColumn: columns.rangeEnd,
    filter: (options[value: "where"]?.stringArraysByKey ?? [:]).mapValues { Set($0) },
    regionColumn: regionColumn, regions: regions,
    additionalNumberColumns: Array(columns.numbers.dropFirst()),
    dateColumn: options["dateColumn"], dateFormat: try _delimitedDateFormat(options),
    prefixRewrites: options[value: "rewritePrefixes"]?.textByKey ?? [:],
    columnAliases: options[value: "columnAliases"]?.stringArraysByKey ?? [:], cells: cells)
}

/// The `delimiter` option (`csv`), else the format's own.
private func _delimitedSeparator(_ options: SourceOptions, default delimiter: UInt8) throws(SourceOptionError) -> UInt8 {
  guard let text = options["delimiter"] else { return delimiter }
  let bytes = Array(text.utf8)
  guard bytes.count == 1, _isFieldDelimiter(bytes[0]) else {
    throw SourceOptionError(
      key: "delimiter",
      reason: "must be one ascii character other than a digit, "
        + "quote, space or line break")
  }
  return bytes[0]
}

/// The number columns, or the two range columns.
private func _delimitedColumns(
  _ options: SourceOptions
) throws(SourceOptionError) -> (numbers: [String], rangeEnd: String?) {
  var numbers: [String]?
  switch options[value: "number"] {
  case .string(let column)?: numbers = [column]
  case .strings(let columns)?:
    guard !columns.isEmpty else { throw SourceOptionError(key: "number", reason: "must name at least one column") }
    if Set(columns).count != columns.count {
      throw SourceOptionError(key: "number", reason: "names a column more than once")
    }
    numbers = columns
  case .object?: throw SourceOptionError(key: "number", reason: "must be a column name or an array of them")
  case nil: numbers = nil
  }
  switch (numbers, options["rangeStart"], options["rangeEnd"]) {
  case (let numbers?, nil, nil):
    return (numbers, nil)
  case (_?, _, _):
    throw SourceOptionError(
      key: options["rangeStart"] == nil ? "rangeEnd" : "rangeStart",
      reason: "cannot be combined with 'number' (a row holds one number or a range)")
  case (nil, let start?, let end?):
    if start == end {
      throw SourceOptionError(key: "rangeEnd", reason: "must name another column than rangeStart")
    }
    return ([start], end)
  case (nil, _?, nil):
    throw SourceOptionError(key: "rangeEnd", reason: "missing: rangeStart needs rangeEnd")
  case (nil, nil, _?):
    throw SourceOptionError(key: "rangeStart", reason: "missing: rangeEnd needs rangeStart")
  case (nil, nil, nil):
    throw SourceOptionError(key: "number", reason: "missing required option")
  }
}

/// The `encoding` option: nil for UTF-8 (read as is), else an ICU name.
private func _delimitedEncoding(_ options: SourceOptions) throws(SourceOptionError) -> String? {
  guard let name = options["encoding"] else { return nil }
  if _SingleByteWestern.folded(name) == "utf8" { return nil }
  guard TextTranscoder.isKnown(name) else {
    throw SourceOptionError(
      key: "encoding",
      reason: "unknown encoding '\(name)' (expected a name such as UTF-8, ISO-8859-1 or Windows-1252)")
  }
  return name
}

/// The `dateFormat` option (default ISO); it needs a `dateColumn`.
private func _delimitedDateFormat(_ options: SourceOptions) throws(SourceOptionError) -> ReportDateFormat {
  guard let text = options["dateFormat"] else { return .iso }
  guard let format = ReportDateFormat(rawValue: text) else {
    throw SourceOptionError(
      key: "dateFormat",
      reason: "unknown date format '\(text)' (expected one of: "
        + ReportDateFormat.allCases.map(\.rawValue).joined(separator: ", ") + ")")
  }
  if options["dateColumn"] == nil {
    throw SourceOptionError(key: "dateColumn", reason: "missing: dateFormat needs dateColumn")
  }
  return format
}

/// `regionColumn` and `regions`, which go together.
private func _delimitedRegions(
  _ options: SourceOptions
) throws(SourceOptionError) -> (column: String?, regions: [String: String]) {
  let regions = options[value: "regions"]?.stringsByKey
  switch (options["regionColumn"], regions) {
  case (nil, nil): return (nil, [:])
  case (let column?, let regions?): return (column, regions)
  case (nil, _?): throw SourceOptionError(key: "regionColumn", reason: "missing: regions needs regionColumn")
  case (_?, nil): throw SourceOptionError(key: "regions", reason: "missing: regionColumn needs regions")
  }
}

/// A required option's value.
private func _requiredOption(
  _ key: String, _ options: SourceOptions
) throws(SourceOptionError) -> String {
  guard let value = options[key], !value.isEmpty else {
    throw SourceOptionError(key: key, reason: "missing required option")
  }
  return value
}
