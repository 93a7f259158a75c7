import CalldirHost

/// One block of a ``BatchNormalizer``'s input, normalized (and classified,
/// for JSON and `requireValid`) into its output buffer on a worker thread;
/// reused block after block.
///
/// Lines that are `+` and the digits of an E.164 number take the
/// normalizer's exact path
/// (``PhoneNumberNormalizer/exactE164Number(utf8:digitWords:)``): their
/// number is written by copying those digits (the decimal form of the
/// number they are), and their validity is read from the digits the path
/// split, with no second calling-code lookup and no conversion of the
/// number back to digits. Every other line goes through the normalizer's
/// byte API; both give the same bytes (`BatchNormalizerTests`).
final class _NormalizeJob: @unchecked Sendable {
  /// The lines to normalize, copied from the input: whole lines, the
  /// input's last of which may lack its LF.
  let input: ByteBuffer
  /// What they normalize to, in order.
  let output: ByteBuffer
  /// Reads the lines the exact path declines (kept from block to block:
  /// what it learned of the list's shapes serves the next block too).
  let reader: FormattedNumberReader
  let normalizer: PhoneNumberNormalizer
  let region: RegionMetadata?
  let json: Bool
  let requireValid: Bool
  /// The national format's digits are added to each number
  /// (`normalize --national`), by this job's formatter.
  let formatter: NationalFormatter?
  /// `INVALID<TAB>reason<LF>` for each rejection, by `NormalizationRejection.index`.
  let invalidLines = _NormalizeOutput.reasons.map { Array("INVALID\t".utf8) + $0 + [0x0A] }

  init(blockBytes: Int, reader: FormattedNumberReader, normalizer: PhoneNumberNormalizer, region: RegionMetadata?,
       json: Bool, requireValid: Bool, formatter: NationalFormatter? = nil) {
    input = ByteBuffer(capacity: blockBytes)
    output = ByteBuffer(capacity: 2 * blockBytes)
    self.reader = reader
    self.normalizer = normalizer
    self.region = region
    self.json = json
    self.requireValid = requireValid
    self.formatter = formatter
  }

  /// Takes a copy of `lines`.
  func load(_ lines: UnsafeBufferPointer<UInt8>) { input.append(lines) }

  /// Empties the job for the next block, once its output is taken.
  func reset() {
    input.removeAll()
    output.removeAll()
  }

  /// The line starting at `start` (without its LF or CR LF); `start` moves
  /// past it.
  @inline(__always)
  static func line(in base: UnsafePointer<UInt8>, from start: inout Int, count: Int) -> UnsafeBufferPointer<UInt8> {
    let end = LineBlock.nextLineFeed(from: base + start, end: base + count) - base
    var lineEnd = end
    if lineEnd > start && base[lineEnd &- 1] == 0x0D { lineEnd &-= 1 }
    let line = UnsafeBufferPointer(start: base + start, count: lineEnd &- start)
    start = end &+ 1
    return line
  }

  /// Normalizes the lines loaded into ``output``.
  func run() {
    let lines = UnsafePointer(input.base)
    if json || requireValid {
      runClassifying(lines, count: input.count)
    } else {
      runPlain(lines, count: input.count)
    }
  }

  /// Numbers only: no classifier.
  private func runPlain(_ base: UnsafePointer<UInt8>, count: Int) {
    let end = base + count
    let digitWords = UnsafeMutablePointer<UInt64>.allocate(capacity: ExactE164Split.wordCount)
    defer { digitWords.deallocate() }
    var start = 0
    while start < count {
      let line = Self.line(in: base, from: &start, count: count)
      let number = normalizer.exactE164Number(utf8: line, digitWords: digitWords)
      if number >= 0 && formatter == nil {
        output.appendDigitLine(afterPlus: line, readableEnd: end)
      } else if number >= 0 {
        emit(line, number, validity: nil)
      } else {
        emit(line, reader.packedOutcome(utf8: line), validity: nil)
      }
    }
  }

  /// Numbers with their validity (JSON, `requireValid`): each calling
  /// code's types compile when its first number comes. An exact E.164
  /// line whose verdict the code's verdict table holds (most lines of most
  /// lists) is classified and written without a branch on its verdict, so
  /// a list of valid and invalid numbers mixed at random costs no
  /// mispredictions.
  private func runClassifying(_ base: UnsafePointer<UInt8>, count: Int) {
    let end = base + count
    var classifier = IncrementalClassifier(plan: normalizer.plan)
    let digitWords = UnsafeMutablePointer<UInt64>.allocate(capacity: ExactE164Split.wordCount)
    defer { digitWords.deallocate() }
    // Each calling code's verdict table once found (lists are mostly of
    // one code, some of a few taking turns).
    let lookups = UnsafeMutablePointer<VerdictLookup?>.allocate(capacity: 1000)
    lookups.initialize(repeating: nil, count: 1000)
    defer { lookups.deallocate() }
    // The verdicts of the last calling code other lines composed numbers of.
    var band = VerdictBand()
    var start = 0
    while start < count {
      let line = Self.line(in: base, from: &start, count: count)
      let number = normalizer.exactE164Number(utf8: line, digitWords: digitWords)
      if number >= 0 {
        let split = ExactE164Split(words: digitWords)
        let code = split.callingCode
        let cached = code > 0 && code < 1000
        var lookup = cached ? lookups[code] : nil
        if lookup == nil {
          lookup = classifier.verdictLookup(callingCode: code)
          if cached { lookups[code] = lookup }
        }
        var verdict = lookup?.word(split.nationalNumber) ?? 0
        if verdict != 0 && !json && formatter == nil {
          output.appendExactLine(afterPlus: line, readableEnd: end, verdict: verdict)
          continue
        }
        if verdict == 0 {
          verdict = classifier.walkedVerdictWord(callingCode: split.callingCode, nationalNumber: split.nationalNumber)
        }
        emit(line, number, validity: NumberValidity(word: verdict))
        continue
      }
      let outcome = reader.packedOutcome(utf8: line)
      guard outcome >= 0 else {
        emit(line, outcome, validity: nil)
        continue
      }
      let word = band.word(outcome)
      if word != 0 {
        emit(line, outcome, validity: NumberValidity(word: word))
        continue
      }
      emit(line, outcome, validity: classifier.validity(of: outcome))
      // The next numbers are likely of the same code (compiled by now).
      if !band.contains(outcome), let code = normalizer.plan.callingCode(of: outcome),
        let lookup = classifier.verdictLookup(callingCode: code)
      {
        band = VerdictBand(callingCode: code, lookup: lookup)
      }
    }
  }

  /// Writes the output line for one input line and its packed outcome.
  @inline(__always)
  func emit(_ line: UnsafeBufferPointer<UInt8>, _ outcome: Int64, validity: NumberValidity?) {
    if json {
      _NormalizeOutput.appendJSON(
        input: line, result: PackedOutcome.result(outcome), validity: validity, requireValid: requireValid,
        formatter: formatter, to: output)
      return
    }
    guard outcome >= 0 else {
      output.append(invalidLines[Int(-1 &- outcome)])
      return
    }
    if requireValid, validity?.isValid != true {
      output.append("INVALID\t")
      _NormalizeOutput.appendInvalidReason(validity, to: output)
      output.append("\n")
      return
    }
    output.reserve(24)
    output.appendDecimal(outcome)
    if let formatter { _NormalizeOutput.appendNationalColumn(outcome, formatter: formatter, to: output) }
    output.appendByte(0x0A)
  }
}
