import CalldirSystem
import PhoneNumbers

#if canImport(Glibc)
  import Glibc
#endif

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
/// The text is also read as lines the way a parsing job reads a list: an
/// `ExactE164Reader` kept across inputs answers each line, four at a time
/// after a number line of the same length where it can, and each answer
/// must be the exact path's.
///
/// A text with a line break is also read as a stream by `BatchNormalizer`
/// (`calldir normalize` without arguments): it must print, line for line, what
/// normalizing each line on its own gives, with lines cut as ``LineEndings``
/// and the batch say; for inputs whose region byte is odd, with each
/// number's national format (`--national`).
///
/// `NationalFormatter` (kept across inputs) formats every number the text
/// gives, the text itself as E.164 digits, and the first 8 bytes as an
/// Int64: it must not trap, and a number must format alike as an Int64,
/// as its digits and as `+` and its digits.
///
/// Input: byte 0 picks the default region (`NormalizerOptions`: 0 none,
/// otherwise one of the plan's regions), the rest is the text.
private let normalizer = PhoneNumberNormalizer()
private let regionCodes = normalizer.plan.regionCodes
private let classifier = normalizer.plan.classifier

nonisolated(unsafe) private var readers: [Int: FormattedNumberReader] = [:]
nonisolated(unsafe) private let lineReader = ExactE164Reader(normalizer)
nonisolated(unsafe) private let formatter = NationalFormatter(plan: normalizer.plan)

/// The national digits of `number` as text (nil: none), checked to be
/// the same from its digits and from `+` and its digits.
private func national(_ number: Int64) -> String? {
  let digits = formatter.nationalDigits(ofE164: number)?.description
  fuzzCheck(formatter.nationalDigits(ofE164: String(number))?.description == digits, "national of \(number) as digits")
  fuzzCheck(formatter.nationalDigits(ofE164: "+\(number)")?.description == digits, "national of +\(number)")
  if let digits { fuzzCheck(digits.allSatisfy(\.isASCII) && !digits.isEmpty, "national of \(number): \(digits)") }
  return digits
}

/// Reads `bytes` (copied to memory of their own, so that a read outside
/// them is caught) as lines, as described above.
private func checkLines(_ bytes: UnsafeBufferPointer<UInt8>) {
  let text = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
  defer { text.deallocate() }
  _ = text.initialize(from: bytes)
  let out = UnsafeMutablePointer<Int64>.allocate(capacity: bytes.count / 2 + 4)
  defer { out.deallocate() }
  guard let start = text.baseAddress else { return }
  let begin = UnsafePointer(start)
  let end = begin + text.count
  func exact(_ line: UnsafePointer<UInt8>, _ count: Int) -> Int64? {
    normalizer.exactE164(utf8: UnsafeBufferPointer(start: line, count: count))
  }
  var cursor = begin
  var length = 0
  var ending = 1
  while cursor < end {
    if length > 0 {
      let read = lineReader.readLines(at: cursor, length: length, ending: ending, begin: begin, end: end, into: out)
      for index in 0..<read {
        let line = cursor + index * (length + ending)
        fuzzCheck(out[index] == exact(line, length), "four at a time: \(out[index]) for line at \(line - begin)")
      }
      cursor += read * (length + ending)
      if read > 0 { continue }
    }
    var newline = cursor
    while newline < end && newline.pointee != 0x0A { newline += 1 }
    var count = newline - cursor
    if count > 0, newline[-1] == 0x0D { count -= 1 }
    let answer = lineReader.read(utf8: UnsafeBufferPointer(start: cursor, count: count))
    fuzzCheck(answer == exact(cursor, count), "one at a time: \(String(describing: answer)) for line at \(cursor - begin)")
    length = answer == nil ? 0 : count
    ending = newline - cursor - count + 1
    cursor = newline + 1
  }
}

/// Runs `BatchNormalizer` on `bytes` (as a file) and checks its output.
private func checkBatch(_ bytes: UnsafeBufferPointer<UInt8>, region: RegionMetadata?, national withNational: Bool) {
  guard let file = tmpfile() else { return }
  defer { fclose(file) }
  guard fwrite(bytes.baseAddress, 1, bytes.count, file) == bytes.count, fflush(file) == 0 else { return }
  rewind(file)
  var batch = BatchNormalizer(normalizer: normalizer, region: region, json: false, national: withNational)
  batch.threadCount = 1
  batch.chunkSize = 1 << 12
  var output: [UInt8] = []
  guard (try? batch.run(input: FileDescriptor(rawValue: fileno(file)), write: { output.append(contentsOf: $0); return true })) != nil
  else { return fuzzCheck(false, "the batch normalizer failed to read its file") }
  // The lines, as the batch cuts them.
  var text = Array(bytes)
  if LineEndings.endInCarriageReturnsAlone(UnsafeBufferPointer(rebasing: bytes.prefix(LineEndings.sampleBytes))) {
    text = text.map { $0 == 0x0D ? 0x0A : $0 }
  }
  var lines = text.split(separator: 0x0A, omittingEmptySubsequences: false)
  if lines.last?.isEmpty == true { lines.removeLast() }
  let expected = lines.map { line -> String in
    let body = line.last == 0x0D ? line.dropLast() : line
    // Longer than a chunk: read past, and too long whatever it holds.
    if line.count > batch.chunkSize { return "INVALID\t\(NormalizationRejection.tooLong)" }
    switch normalizer.normalize(String(decoding: body, as: UTF8.self), region: region) {
    case .success(let number): return withNational ? "\(number)\t\(national(number) ?? "")" : String(number)
    case .failure(let rejection): return "INVALID\t\(rejection)"
    }
  }
  let printed = String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
  fuzzCheck(printed.map(String.init) == expected, "the batch normalizer printed \(printed) for lines \(expected)")
}

private func reader(for choice: Int, _ region: RegionMetadata?) -> FormattedNumberReader {
  if let reader = readers[choice] { return reader }
  let reader = FormattedNumberReader(normalizer, region: region)
  readers[choice] = reader
  return reader
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var input = FuzzInput(data, size)
  let options = NormalizerOptions(&input)
  let choice = options.choice
  let region = options.regionCode.flatMap { normalizer.plan.region($0) }
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
    _ = national(number)
  }
  // The text as E.164 digits: as text, and as an Int64 where it is one.
  let asText = formatter.nationalDigits(ofE164: text)
  if let value = Int64(text), value > 0, String(value) == text {
    fuzzCheck(national(value) == asText?.description, "national of \(described()) as text and as a number")
  }
  checkLines(bytes)
  // A file per input costs time: only texts of several lines.
  if bytes.contains(0x0A) || bytes.contains(0x0D) { checkBatch(bytes, region: region, national: options.national) }
  if bytes.count >= 8 {
    let raw = bytes.prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
    _ = classifier.validity(of: raw)
    _ = formatter.nationalDigits(ofE164: raw)
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
