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

  /// Builds the reader for a configured source.
  ///
  /// - Throws: ``ConfigError`` when the format is not registered or an
  ///   option is unusable (a spec from ``BuildConfig`` parsed with this
  ///   registry has already passed these checks).
  public func makeReader(
    for spec: SourceSpec
  ) throws(ConfigError) -> any SourceReader {
    guard let format = formats[spec.format] else {
      throw .invalidValue(
        keyPath: "\(spec.keyPath).format",
        reason: "unknown format '\(spec.format)' "
          + "(expected one of: \(names.joined(separator: ", ")))")
    }
    do {
      return try format.makeReader(input: spec.input, options: spec.options)
    } catch {
      throw .invalidValue(
        keyPath: "\(spec.keyPath).\(error.key)", reason: error.reason)
    }
  }

  /// The built-in formats: `csv`, `jsonl`, `lines`, `patterns`, `tsv`,
  /// `vcard`.
  public static let standard = SourceFormatRegistry([
    SourceFormat(
      name: "lines",
      summary: "one number per line; '#' comments",
      factory: { input, _ throws(SourceOptionError) in
        LinesSourceReader(input: input)
      }),
    SourceFormat(
      name: "patterns",
      summary: "e.164 prefixes with trailing '#' wildcards, or ranges a-b",
      factory: { input, _ throws(SourceOptionError) in
        PatternsSourceReader(input: input)
      }),
    _delimitedFormat(name: "csv", delimiter: _ASCII.comma),
    _delimitedFormat(name: "tsv", delimiter: _ASCII.tab),
    SourceFormat(
      name: "vcard",
      summary: "vcard TEL properties, labelled with FN",
      labels: .intrinsic,
      factory: { input, _ throws(SourceOptionError) in
        VCardSourceReader(input: input)
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
  ])
}

/// `csv` or `tsv`; `csv` also takes a `delimiter`.
private func _delimitedFormat(name: String, delimiter: UInt8) -> SourceFormat {
  var options: [SourceFormat.Option] = [
    .init(
      name: "number", isRequired: true,
      summary: "header name of the number column"),
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
  return SourceFormat(
    name: name,
    summary: "rfc 4180 \(name) with a header row",
    options: options,
    labels: .column(option: "label"),
    factory: { input, options throws(SourceOptionError) in
      var separator = delimiter
      if let text = options["delimiter"] {
        let bytes = Array(text.utf8)
        guard bytes.count == 1, bytes[0] < 0x80, bytes[0] != _ASCII.quote,
          bytes[0] != _ASCII.space, bytes[0] != _ASCII.lineFeed,
          bytes[0] != _ASCII.carriageReturn, !_isDigit(bytes[0])
        else {
          throw SourceOptionError(
            key: "delimiter",
            reason: "must be one ascii character other than a digit, "
              + "quote, space or line break")
        }
        separator = bytes[0]
      }
      return DelimitedSourceReader(
        input: input, delimiter: separator,
        numberColumn: try _requiredOption("number", options),
        labelColumn: options["label"])
    })
}

/// A required option's value.
private func _requiredOption(
  _ key: String, _ options: [String: String]
) throws(SourceOptionError) -> String {
  guard let value = options[key], !value.isEmpty else {
    throw SourceOptionError(key: key, reason: "missing required option")
  }
  return value
}
