import CallDirectoryCompiler
import CallDirectorySources

/// Fuzzes every source reader of `SourceFormatRegistry.standard` on bytes in
/// memory (`SourceInput.bytes`): each record, range and issue it reports is
/// materialized, and the summary's counts must match the events.
///
/// Input: the option bytes `SourceReadersOptions` decodes (the format,
/// then its keys), then the source text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var input = FuzzInput(data, size)
  let decoded = SourceReadersOptions(&input)
  let name = decoded.format
  guard let options = decoded.sourceOptions, let format = SourceFormatRegistry.standard[name],
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
