import CallDirectoryFormat
import CallDirectoryValidation

/// Fuzzes `DatasetValidator.validate(bytes:)`: text lists above all (the
/// streaming line checks), and blobs when the input starts with the blob
/// magic. The summary must agree with the violations reported.
///
/// Input: byte 0 holds the options (bits 0–1: how many violations to report;
/// bit 2: a 64-byte line limit; bit 3: report control characters; bit 4:
/// recompute a full snapshot's digest; bit 5: reseal a blob's checksums),
/// the rest is the input.
///
/// The digest expands runs, so it is recomputed only for blobs recording at
/// most `BlobReadingLimits.entryLimit` entries.
private let reportLimits: [Int?] = [nil, 0, 1, 20]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var input = FuzzInput(data, size)
  let flags = input.takeByte()
  var bytes = input.rest
  if flags & 32 != 0 { BlobResealing.reseal(&bytes) }
  let entries = (try? BlobReader.readHeader(bytes: bytes))?.sections.reduce(UInt64(0)) { $0 &+ $1.entryCount } ?? 0
  let options = ValidationOptions(
    maxReported: reportLimits[Int(flags & 3)],
    maxLineLength: flags & 4 != 0 ? 64 : 1 << 20,
    reportsControlCharacters: flags & 8 != 0,
    recomputesDigest: flags & 16 != 0 && entries <= BlobReadingLimits.entryLimit)
  var reported: UInt64 = 0
  guard let summary = try? DatasetValidator(options: options).validate(bytes: bytes, report: { _ in reported += 1 })
  else { return 0 }
  fuzzCheck(summary.reportedCount == reported, "summary counts \(summary.reportedCount) reported, saw \(reported)")
  fuzzCheck(reported <= summary.violationCount, "\(reported) reported of \(summary.violationCount) violations")
  if let limit = options.maxReported {
    fuzzCheck(reported <= UInt64(limit), "\(reported) reported, the limit is \(limit)")
  }
  return 0
}
