import PhoneNumbers

/// Fuzzes `PhoneNumberNormalizer`: the byte path, `normalize(utf8:region:)`,
/// must give what the String path gives for the same text,
/// `normalize(String(decoding: bytes, as: UTF8.self), region:)`, on every
/// input (ill-formed UTF-8 reads as its repaired text); so must the
/// throwing `number(…)` forms, the exact E.164 path wherever it answers,
/// and a `FormattedNumberReader` kept per region across inputs (result and
/// `writtenNationally`). A disagreement traps: it is a finding. Every
/// number it gives is also classified (`validity(of:)`), which must know
/// its calling code; any 64-bit value classifies without trapping.
///
/// Input: byte 0 picks the default region (0: none, otherwise one of the
/// plan's regions), the rest is the text.
private let normalizer = PhoneNumberNormalizer()
private let regionCodes = normalizer.plan.regionCodes
private let classifier = normalizer.plan.classifier

nonisolated(unsafe) private var readers: [Int: FormattedNumberReader] = [:]

private func reader(for choice: Int, _ region: RegionMetadata?) -> FormattedNumberReader {
  if let reader = readers[choice] { return reader }
  let reader = FormattedNumberReader(normalizer, region: region)
  readers[choice] = reader
  return reader
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var input = FuzzInput(data, size)
  let choice = Int(input.takeByte())
  let region = choice == 0 ? nil : normalizer.plan.region(regionCodes[(choice - 1) % regionCodes.count])
  let bytes = input.remaining
  let text = String(decoding: bytes, as: UTF8.self)

  let viaBytes = normalizer.normalize(utf8: bytes, region: region)
  let viaString = normalizer.normalize(text, region: region)
  func described() -> String { "\(text.debugDescription) (bytes \(Array(bytes)), region \(region?.regionCode ?? "none"))" }
  fuzzCheck(viaBytes == viaString, "byte path gives \(viaBytes), String path \(viaString) for \(described())")
  let numberViaBytes = Result { () throws(NormalizationRejection) in try normalizer.number(utf8: bytes, region: region) }
  let numberViaString = Result { () throws(NormalizationRejection) in try normalizer.number(from: text, region: region) }
  fuzzCheck(numberViaBytes == viaBytes, "number(utf8:) gives \(numberViaBytes), normalize \(viaBytes) for \(described())")
  fuzzCheck(numberViaString == viaString, "number(from:) gives \(numberViaString), normalize \(viaString) for \(described())")
  // The reader that remembers shapes, one per region for the whole run,
  // so that what earlier inputs taught it is tested on the later ones.
  var writtenNationally = false
  var readerNationally = false
  let nationalResult = normalizer.normalize(utf8: bytes, region: region, writtenNationally: &writtenNationally)
  let viaReader = reader(for: choice, region).normalize(utf8: bytes, writtenNationally: &readerNationally)
  fuzzCheck(
    viaReader == nationalResult && readerNationally == writtenNationally,
    "FormattedNumberReader gives \(viaReader) (\(readerNationally)), normalize \(nationalResult) (\(writtenNationally)) for \(described())")
  if let exact = normalizer.exactE164(utf8: bytes) {
    fuzzCheck(.success(exact) == viaBytes, "exactE164 gives \(exact), normalize \(viaBytes) for \(described())")
  }
  if case .success(let number) = viaBytes {
    fuzzCheck(classifier.validity(of: number) != nil, "+\(number) from \(described()) has no calling code of the plan")
  }
  if bytes.count >= 8 {
    let raw = bytes.prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
    _ = classifier.validity(of: raw)
  }
  return 0
}

/// Builds the numbering plan and its classifier before the first input, so
/// that their one-time cost (seconds under ASan) is not timed as an input's.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
  _ = (regionCodes.count, classifier.validity(of: 41_446_681_800))
  return 0
}
