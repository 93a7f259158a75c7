import CallDirectoryCompiler
import CallDirectorySources

/// Fuzzes the `xml` source reader (libxml2's streaming reader, patterns and
/// XPath) on documents in memory: whatever it delivers is materialized, its
/// numbers are non-empty UTF-8 without surrounding white space, and the
/// summary counts the events. A refusal (`SourceError`) is a fine outcome;
/// a crash, a leak, a hang or unbounded memory is not (the run's -timeout
/// and -rss_limit_mb).
///
/// Input: the option bytes `XMLDocumentOptions` decodes (records, number
/// and label XPaths, encoding), then the document.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var input = FuzzInput(data, size)
  let options = XMLDocumentOptions(&input)
  guard
    let reader = try? XMLSourceReader(
      input: .bytes(input.rest), records: options.records, number: options.number, label: options.label,
      encoding: options.encoding)
  else { return 0 }
  var records = 0
  var issues = 0
  let summary = try? reader.read { event in
    switch event {
    case .record(let record):
      let copy = record.makeRecord()
      _ = record.reportedText
      fuzzCheck(!record.numberBytes.isEmpty, "an empty number was delivered")
      fuzzCheck(String(validating: record.numberBytes, as: UTF8.self) != nil, "a number is not UTF-8")
      fuzzCheck(
        copy.number.utf8.first.map { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } ?? false
          && copy.number.utf8.last.map { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } ?? false,
        "number '\(copy.number)' is not trimmed")
      fuzzCheck(record.line >= 0, "record at line \(record.line)")
      records += 1
    case .range:
      fuzzCheck(false, "the xml reader delivered a range")
    case .issue:
      issues += 1
    }
  }
  if let summary {
    fuzzCheck(
      summary.records == records && summary.issues == issues,
      "summary \(summary) does not count its events (\(records) records, \(issues) issues)")
  }
  return 0
}
