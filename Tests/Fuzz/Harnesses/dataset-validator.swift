import CallDirectoryFormat
import CallDirectoryValidation

/// Fuzzes `DatasetValidator.validate(bytes:)`: text lists above all (the
/// streaming line checks), and blobs when the input starts with the blob
/// magic. The summary must agree with the violations reported.
///
/// Input: byte 0 holds the options (`DatasetValidatorOptions`: how many
/// violations to report, a 64-byte line limit, control characters, a full
/// snapshot's digest, resealing a blob's checksums), the rest is the input.
///
/// The digest expands runs, so it is recomputed only for blobs recording at
/// most `BlobReadingLimits.entryLimit` entries.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var input = FuzzInput(data, size)
  let flags = DatasetValidatorOptions(&input)
  var bytes = input.rest
  if flags.reseals { BlobResealing.reseal(&bytes) }
  let entries = (try? BlobReader.readHeader(bytes: bytes))?.sections.reduce(UInt64(0)) { $0 &+ $1.entryCount } ?? 0
  let options = ValidationOptions(
    maxReported: flags.maxReported,
    maxLineLength: flags.maxLineLength,
    reportsControlCharacters: flags.reportsControlCharacters,
    recomputesDigest: flags.recomputesDigest && entries <= BlobReadingLimits.entryLimit)
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
