import CallDirectoryCompiler
import CallDirectorySources
import CalldirSystem

/// The option bytes of the source-readers harness, decoded, and the bytes
/// a seed's readable header encodes to (`Tests/Fuzz/Seeds/source-readers`).
///
/// Byte 0 picks the format (`formats`, presets last, so that byte 0 of a
/// seed keeps its meaning as formats are added). Byte 1 picks the number
/// column (bits 0–1, `numberColumns`), the label column (bits 2–3,
/// `labelColumns`), the csv delimiter (`delimiters[(byte >> 4) % 7]`) and
/// the date format (bits 6–7, `dateFormats`). Byte 2, the delimited keys:
/// for `csv` and `tsv`, the encoding (`encodings[byte % 5]`), bit 3 a range
/// (`rangeStart` `start`, `rangeEnd` `end`) instead of a number, bit 4
/// `where` (`op` in A, B), bit 5 `regionColumn` `territory`, bit 6
/// `dateColumn` `date`, bit 7 several number columns and `rewritePrefixes`;
/// for a preset, bit 0 the label column `Subject`, bit 4 `operators`
/// (arcep-majnum), bit 5 `encoding` UTF-8, its own keys only. For `csv`,
/// `tsv` and `lines` only, byte 3 the cell keys: bits 0–1
/// `numberSeparator`, 2–3 `wildcard`, 4–5 `rangeSeparator`, each 0 for none.
/// The rest is the source text.
struct SourceReadersOptions: Equatable {
  static let presets = ["arcep-majnum", "ftc-dnc", "fcc-complaints"]
  static let plainFormats = ["csv", "jsonl", "lines", "patterns", "tsv", "vcard"]
  static let formats =
    plainFormats + presets
    + SourceFormatRegistry.standard.names.filter { !plainFormats.contains($0) && !presets.contains($0) }
  static let dateFormats = ["YYYY-MM-DD", "MM/DD/YYYY", "DD/MM/YYYY", "D.M.Y"]
  static let numberColumns = ["phone", "number", "Company_Phone_Number", "n"]
  static let labelColumns: [String?] = [nil, "name", "label", "phone"]
  static let delimiters: [String?] = [nil, ";", "|", "\t", "7", "\"", "ab"]
  static let encodings: [String?] = [nil, "ISO-8859-1", "Windows-1252", "UTF-16LE", "Shift_JIS"]
  /// The cell keys' values byte 3 picks (index 0: the key unset).
  static let numberSeparators: [String?] = [nil, "|", " oder ", "\n"]
  static let wildcards: [String?] = [nil, "X", "*", "#"]
  static let rangeSeparators: [String?] = [nil, " bis ", " - ", "-"]

  /// The format's name in `SourceFormatRegistry.standard`.
  var format: String
  /// The number column (`numberColumns`); the range columns instead when `ranges`.
  var number = "phone"
  /// The label column (`labelColumns`); for a preset, nil or `Subject`.
  var label: String?
  /// csv only: the delimiter (nil: the reader's own choice).
  var delimiter: String?
  /// csv, tsv and presets (UTF-8 only): the encoding key.
  var encoding: String?
  /// csv and tsv: `rangeStart` and `rangeEnd` instead of `number`.
  var ranges = false
  /// csv and tsv: `where` on column `op`.
  var filters = false
  /// csv and tsv: `regionColumn` `territory`.
  var regions = false
  /// csv and tsv: `dateColumn` `date` in this format (nil: no date column).
  var dateFormat: String?
  /// csv and tsv: the number columns `phone` and `n`, and `rewritePrefixes`.
  var rewrites = false
  /// csv, tsv and lines: the cell keys.
  var numberSeparator: String?
  var wildcard: String?
  var rangeSeparator: String?
  /// arcep-majnum: `operators`.
  var operators = false

  init(format: String) { self.format = format }

  /// Whether the format is one of the presets.
  var isPreset: Bool { Self.presets.contains(format) }
  /// Whether the format takes the delimited keys of byte 2.
  var isDelimited: Bool { format == "csv" || format == "tsv" }
  /// Whether the format takes byte 3's cell keys.
  var takesCellKeys: Bool { ["csv", "tsv", "lines"].contains(format) }

  /// Decodes the option bytes at the front of `input`, as the harness does.
  init(_ input: inout FuzzInput) {
    format = Self.formats[input.choose(Self.formats.count)]
    let choice = Int(input.takeByte())
    let delimited = Int(input.takeByte())
    if isPreset {
      label = delimited & 0x01 != 0 ? "Subject" : nil
      operators = delimited & 0x10 != 0 && format == "arcep-majnum"
      encoding = delimited & 0x20 != 0 ? "UTF-8" : nil
    } else {
      number = Self.numberColumns[choice % Self.numberColumns.count]
      label = Self.labelColumns[(choice >> 2) % Self.labelColumns.count]
      if format == "csv" { delimiter = Self.delimiters[(choice >> 4) % Self.delimiters.count] }
      if isDelimited {
        encoding = Self.encodings[delimited % Self.encodings.count]
        ranges = delimited & 0x08 != 0
        filters = delimited & 0x10 != 0
        regions = delimited & 0x20 != 0
        if delimited & 0x40 != 0 { dateFormat = Self.dateFormats[(choice >> 6) % Self.dateFormats.count] }
        rewrites = delimited & 0x80 != 0
      }
    }
    if takesCellKeys {
      let cells = Int(input.takeByte())
      numberSeparator = Self.numberSeparators[cells & 3]
      wildcard = Self.wildcards[(cells >> 2) & 3]
      rangeSeparator = Self.rangeSeparators[(cells >> 4) & 3]
    }
  }

  /// The options the reader gets (nil: the preset refuses them).
  var sourceOptions: SourceOptions? {
    var options: SourceOptions = [:]
    if isPreset {
      options["label"] = label
      if operators { options[value: "operators"] = .strings(["FRTE", "SFR0"]) }
      options["encoding"] = encoding
    } else {
      options["number"] = number
      options["label"] = label
      options["delimiter"] = delimiter
      if isDelimited {
        options["encoding"] = encoding
        if ranges {
          options["number"] = nil
          options["rangeStart"] = "start"
          options["rangeEnd"] = "end"
        }
        if filters { options[value: "where"] = .object(["op": .strings(["A", "B"])]) }
        if regions {
          options["regionColumn"] = "territory"
          options[value: "regions"] = .object(["ch": "CH", "fr": "FR"])
        }
        if let dateFormat {
          options["dateColumn"] = "date"
          options["dateFormat"] = dateFormat
        }
        if rewrites {
          if !ranges { options[value: "number"] = .strings(["phone", "n"]) }
          options[value: "rewritePrefixes"] = .object(["0508": "+508", "00": "+", "": "x"])
        }
      }
    }
    if takesCellKeys {
      options["numberSeparator"] = numberSeparator
      options["wildcard"] = wildcard
      options["rangeSeparator"] = rangeSeparator
    }
    if let preset = SourceFormatRegistry.standard[format]?.preset {
      return try? preset.options(over: options, list: .identify)
    }
    return options
  }

  /// The option bytes that decode to these options (nil: no bytes do,
  /// e.g. a delimiter for a format other than csv, or an encoding whose
  /// index cannot share byte 2 with the flags).
  var bytes: [UInt8]? {
    guard let formatIndex = Self.formats.firstIndex(of: format) else { return nil }
    var bytes = [UInt8(formatIndex)]
    if isPreset {
      guard label == nil || label == "Subject", encoding == nil || encoding == "UTF-8", !operators || format == "arcep-majnum",
        number == "phone", delimiter == nil, !ranges, !filters, !regions, dateFormat == nil, !rewrites
      else { return nil }
      bytes += [0, (label != nil ? 0x01 : 0) | (operators ? 0x10 : 0) | (encoding != nil ? 0x20 : 0)]
    } else {
      guard let numberIndex = Self.numberColumns.firstIndex(of: number),
        let labelIndex = Self.labelColumns.firstIndex(of: label),
        let delimiterIndex = Self.delimiters.firstIndex(of: delimiter), delimiter == nil || format == "csv",
        isDelimited || (encoding == nil && !ranges && !filters && !regions && dateFormat == nil && !rewrites), !operators
      else { return nil }
      let dateIndex = dateFormat.flatMap { Self.dateFormats.firstIndex(of: $0) }
      guard dateFormat == nil || dateIndex != nil else { return nil }
      // Bits 4–7 of byte 1 pick the delimiter (mod 7) and the date format (bits 6–7).
      guard let high = (0..<16).first(where: { $0 % 7 == delimiterIndex && (dateIndex == nil || $0 >> 2 == dateIndex) })
      else { return nil }
      bytes.append(UInt8(numberIndex | labelIndex << 2 | high << 4))
      var flags = (ranges ? 0x08 : 0) | (filters ? 0x10 : 0) | (regions ? 0x20 : 0)
      flags |= (dateFormat != nil ? 0x40 : 0) | (rewrites ? 0x80 : 0)
      guard let encodingIndex = Self.encodings.firstIndex(of: encoding),
        let low = (0..<8).first(where: { (flags | $0) % Self.encodings.count == encodingIndex })
      else { return nil }
      bytes.append(UInt8(flags | low))
    }
    if takesCellKeys {
      guard let separator = Self.numberSeparators.firstIndex(of: numberSeparator),
        let wildcardIndex = Self.wildcards.firstIndex(of: wildcard),
        let rangeIndex = Self.rangeSeparators.firstIndex(of: rangeSeparator)
      else { return nil }
      bytes.append(UInt8(separator | wildcardIndex << 2 | rangeIndex << 4))
    } else if numberSeparator != nil || wildcard != nil || rangeSeparator != nil {
      return nil
    }
    return bytes
  }

  /// The header keys of a seed (`Tests/Fuzz/Seeds/source-readers`): a JSON
  /// object on the seed's first line naming these options; keys left out
  /// keep their defaults.
  static let headerKeys: Set<String> = [
    "format", "number", "label", "delimiter", "encoding", "ranges", "where", "regionColumn", "dateFormat",
    "rewritePrefixes", "numberSeparator", "wildcard", "rangeSeparator", "operators",
  ]

  /// The options a seed's header names (nil: not an object, an unknown
  /// key, a value of the wrong type, or no format).
  init?(header: JSONValue) {
    guard let members = header.objectValue, let format = header["format"]?.stringValue,
      members.allSatisfy({ Self.headerKeys.contains($0.key) })
    else { return nil }
    self.init(format: format)
    for (key, value) in members {
      let text = value.stringValue
      let flag = value.boolValue
      switch key {
      case "format": continue
      case "number": guard let text else { return nil }; number = text
      case "label": guard let text else { return nil }; label = text
      case "delimiter": guard let text else { return nil }; delimiter = text
      case "encoding": guard let text else { return nil }; encoding = text
      case "dateFormat": guard let text else { return nil }; dateFormat = text
      case "numberSeparator": guard let text else { return nil }; numberSeparator = text
      case "wildcard": guard let text else { return nil }; wildcard = text
      case "rangeSeparator": guard let text else { return nil }; rangeSeparator = text
      case "ranges": guard let flag else { return nil }; ranges = flag
      case "where": guard let flag else { return nil }; filters = flag
      case "regionColumn": guard let flag else { return nil }; regions = flag
      case "rewritePrefixes": guard let flag else { return nil }; rewrites = flag
      case "operators": guard let flag else { return nil }; operators = flag
      default: return nil
      }
    }
  }
}

extension SourceReadersOptions {
  /// The seed a seed source holds (`Tests/Fuzz/Seeds/source-readers/NAME`):
  /// its first line is the header (a JSON object, `init(header:)`), the
  /// rest the payload; the seed is the header's option bytes, then the
  /// payload. Nil when the header names no options the harness decodes.
  static func seed(fromSource source: [UInt8]) -> [UInt8]? {
    guard let newline = source.firstIndex(of: 0x0A),
      let header = try? JSONParser().parse(Array(source[..<newline])),
      let options = SourceReadersOptions(header: header), let bytes = options.bytes
    else { return nil }
    return bytes + source[(newline + 1)...]
  }
}
