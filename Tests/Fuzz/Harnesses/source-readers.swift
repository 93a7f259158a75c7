import CallDirectoryCompiler

/// Fuzzes every source reader of `SourceFormatRegistry.standard` on bytes in
/// memory (`SourceInput.bytes`): each record, range and issue it reports is
/// materialized, and the summary's counts must match the events.
///
/// Input: byte 0 picks the format, byte 1 its options (number and label
/// column names, the csv delimiter), byte 2 the delimited keys (encoding,
/// a range instead of a number, `where`, `regionColumn`, `dateColumn`,
/// several number columns, `rewritePrefixes`; for a preset, its own keys
/// only, and `operators`); for `csv`, `tsv` and `lines` only, byte 3 the
/// cell keys (bits 0–1 `numberSeparator`, 2–3 `wildcard`, 4–5
/// `rangeSeparator`, each 0 for none); the rest is the source text.
///
/// The formats come in a fixed order, the presets last, so that byte 0 of
/// a seed keeps its meaning as formats are added.
private let presets = ["arcep-majnum", "ftc-dnc", "fcc-complaints"]
private let formats = ["csv", "jsonl", "lines", "patterns", "tsv", "vcard"] + presets
  + SourceFormatRegistry.standard.names.filter {
    !["csv", "jsonl", "lines", "patterns", "tsv", "vcard"].contains($0) && !presets.contains($0)
  }
private let dateFormats = ["YYYY-MM-DD", "MM/DD/YYYY", "DD/MM/YYYY", "D.M.Y"]
private let numberColumns = ["phone", "number", "Company_Phone_Number", "n"]
private let labelColumns: [String?] = [nil, "name", "label", "phone"]
private let delimiters: [String?] = [nil, ";", "|", "\t", "7", "\"", "ab"]
private let encodings: [String?] = [nil, "ISO-8859-1", "Windows-1252", "UTF-16LE", "Shift_JIS"]
/// The cell keys' values byte 3 picks (index 0: the key unset).
private let numberSeparators: [String?] = [nil, "|", " oder ", "\n"]
private let wildcards: [String?] = [nil, "X", "*", "#"]
private let rangeSeparators: [String?] = [nil, " bis ", " - ", "-"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var input = FuzzInput(data, size)
  let name = formats[input.choose(formats.count)]
  let choice = Int(input.takeByte())
  let delimited = Int(input.takeByte())
  var options: SourceOptions = ["number": .string(numberColumns[choice % numberColumns.count])]
  options["label"] = labelColumns[(choice >> 2) % labelColumns.count]
  if presets.contains(name) {
    options = [:]
    if delimited & 0x01 != 0 { options["label"] = "Subject" }
    if delimited & 0x10 != 0, name == "arcep-majnum" { options[value: "operators"] = .strings(["FRTE", "SFR0"]) }
    if delimited & 0x20 != 0 { options["encoding"] = "UTF-8" }
  } else if name == "csv" || name == "tsv" {
    if name == "csv" { options["delimiter"] = delimiters[(choice >> 4) % delimiters.count] }
    options["encoding"] = encodings[delimited % encodings.count]
    if delimited & 0x08 != 0 {
      options["number"] = nil
      options["rangeStart"] = "start"
      options["rangeEnd"] = "end"
    }
    if delimited & 0x10 != 0 { options[value: "where"] = .object(["op": .strings(["A", "B"])]) }
    if delimited & 0x20 != 0 {
      options["regionColumn"] = "territory"
      options[value: "regions"] = .object(["ch": "CH", "fr": "FR"])
    }
    if delimited & 0x40 != 0 {
      options["dateColumn"] = "date"
      options["dateFormat"] = dateFormats[(choice >> 6) % dateFormats.count]
    }
    if delimited & 0x80 != 0 {
      if options["number"] != nil { options[value: "number"] = .strings(["phone", "n"]) }
      options[value: "rewritePrefixes"] = .object(["0508": "+508", "00": "+", "": "x"])
    }
  }
  if ["csv", "tsv", "lines"].contains(name) {
    let cells = Int(input.takeByte())
    options["numberSeparator"] = numberSeparators[cells & 3]
    options["wildcard"] = wildcards[(cells >> 2) & 3]
    options["rangeSeparator"] = rangeSeparators[(cells >> 4) & 3]
  }
  if let preset = SourceFormatRegistry.standard[name]?.preset {
    guard let merged = try? preset.options(over: options, list: .identify) else { return 0 }
    options = merged
  }
  guard let format = SourceFormatRegistry.standard[name],
    let reader = try? format.makeReader(input: .bytes(input.rest), options: options)
  else { return 0 }

  var seen = SourceSummary()
  let summary = try? reader.read { event in
    switch event {
    case .record(let record):
      _ = record.makeRecord()
      _ = record.reportedText
      fuzzCheck(
        record.wildcardDigits == 0 || record.rangeEndBytes != nil,
        "a wildcard block of \(name) has no last number")
      fuzzCheck(
        record.numberBytes.count > 0 || options["numberSeparator"] == nil,
        "\(name) gave an empty piece of a cell as a number")
      seen.records += 1
    case .range(let range):
      fuzzCheck(range.range.lower <= range.range.upper, "range \(range.range) of \(name) is reversed")
      _ = range.range.count
      seen.ranges += 1
    case .issue(let issue):
      _ = issue.description
      seen.issues += 1
    }
  }
  if let summary {
    fuzzCheck(
      (summary.records, summary.ranges, summary.issues) == (seen.records, seen.ranges, seen.issues),
      "\(name) summary \(summary) does not count its events \(seen)")
  }
  return 0
}
