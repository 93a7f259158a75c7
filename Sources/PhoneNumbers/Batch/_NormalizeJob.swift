/// One thread's share of a ``BatchNormalizer`` batch: its lines, normalized
/// (and classified, for JSON and `requireValid`) into its output buffer.
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
  let lines: UnsafeBufferPointer<UInt8>
  let output: _ByteBuffer
  let normalizer: PhoneNumberNormalizer
  let region: RegionMetadata?
  let json: Bool
  let requireValid: Bool
  /// `INVALID<TAB>reason<LF>` for each rejection, by `NormalizationRejection.index`.
  let invalidLines = _NormalizeOutput.reasons.map { Array("INVALID\t".utf8) + $0 + [0x0A] }

  init(lines: UnsafeBufferPointer<UInt8>, output: _ByteBuffer, normalizer: PhoneNumberNormalizer,
       region: RegionMetadata?, json: Bool, requireValid: Bool) {
    self.lines = lines
    self.output = output
    self.normalizer = normalizer
    self.region = region
    self.json = json
    self.requireValid = requireValid
  }

  /// The offset of the first LF in `base[from..<count]`, or `count`: eight
  /// bytes at a time (lines are short, so this beats calling `memchr`).
  @inline(__always)
  static func newline(in base: UnsafePointer<UInt8>, from: Int, count: Int) -> Int {
    var index = from
    while index &+ 8 <= count {
      let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) ^ 0x0A0A_0A0A_0A0A_0A0A
      // The lowest byte that was LF is the lowest set high bit (little endian).
      let found = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
      if found != 0 { return index &+ found.trailingZeroBitCount / 8 }
      index &+= 8
    }
    while index < count && base[index] != 0x0A { index &+= 1 }
    return index
  }

  /// The line starting at `start` (without its LF or CR LF); `start` moves
  /// past it.
  @inline(__always)
  static func line(in base: UnsafePointer<UInt8>, from start: inout Int, count: Int) -> UnsafeBufferPointer<UInt8> {
    let end = newline(in: base, from: start, count: count)
    var lineEnd = end
    if lineEnd > start && base[lineEnd &- 1] == 0x0D { lineEnd &-= 1 }
    let line = UnsafeBufferPointer(start: base + start, count: lineEnd &- start)
    start = end &+ 1
    return line
  }

  /// Lines normalized before their numbers are classified together: a
  /// loop of classifications alone lets the processor overlap one number's
  /// table walk with the next one's.
  static let groupSize = 64

  func run() {
    guard let base = lines.baseAddress else { return }
    if json || requireValid {
      runClassifying(base)
    } else {
      runPlain(base)
    }
  }

  /// Numbers only: no classifier.
  private func runPlain(_ base: UnsafePointer<UInt8>) {
    let count = lines.count
    let end = base + count
    let digitWords = UnsafeMutablePointer<UInt64>.allocate(capacity: ExactE164Split.wordCount)
    defer { digitWords.deallocate() }
    var start = 0
    while start < count {
      let line = Self.line(in: base, from: &start, count: count)
      if normalizer.exactE164Number(utf8: line, digitWords: digitWords) >= 0 {
        output.appendDigitLine(afterPlus: line, readableEnd: end)
      } else {
        emit(line, normalizer.packedOutcomeAfterExactPath(utf8: line, region: region), validity: nil)
      }
    }
  }

  /// Numbers with their validity (JSON, `requireValid`): each calling
  /// code's types compile when its first number comes. Lines go 64 at a
  /// time through normalizing, then classifying, then writing, so that
  /// the processor overlaps neighbouring numbers' table reads.
  private func runClassifying(_ base: UnsafePointer<UInt8>) {
    let count = lines.count
    let end = base + count
    var classifier = IncrementalClassifier(plan: normalizer.plan)
    let group = Self.groupSize
    // Trivial values only: assigned without initialize/deinitialize.
    let groupLines = UnsafeMutablePointer<UnsafeBufferPointer<UInt8>>.allocate(capacity: group)
    let outcomes = UnsafeMutablePointer<Int64>.allocate(capacity: group)
    let exact = UnsafeMutablePointer<Bool>.allocate(capacity: group)
    let width = ExactE164Split.wordCount
    let digitWords = UnsafeMutablePointer<UInt64>.allocate(capacity: width &* group)
    let verdicts = UnsafeMutablePointer<UInt64>.allocate(capacity: group)
    defer {
      groupLines.deallocate()
      outcomes.deallocate()
      exact.deallocate()
      digitWords.deallocate()
      verdicts.deallocate()
    }
    var start = 0
    while start < count {
      var filled = 0
      while filled < group && start < count {
        let line = Self.line(in: base, from: &start, count: count)
        groupLines[filled] = line
        let number = normalizer.exactE164Number(utf8: line, digitWords: digitWords + width &* filled)
        exact[filled] = number >= 0
        outcomes[filled] = number >= 0 ? number : normalizer.packedOutcomeAfterExactPath(utf8: line, region: region)
        filled &+= 1
      }
      // Verdicts as words (NumberValidity.word, 0 for none).
      for index in 0..<filled {
        if exact[index] {
          let split = ExactE164Split(words: digitWords + width &* index)
          verdicts[index] = classifier.verdictWord(callingCode: split.callingCode, nationalNumber: split.nationalNumber)
        } else if outcomes[index] >= 0 {
          verdicts[index] = classifier.validity(of: outcomes[index])?.word ?? 0
        } else {
          verdicts[index] = 0
        }
      }
      for index in 0..<filled {
        let verdict = verdicts[index]
        if json {
          emit(groupLines[index], outcomes[index], validity: NumberValidity(word: verdict))
        } else if outcomes[index] < 0 {
          output.append(invalidLines[Int(-1 &- outcomes[index])])
        } else if NumberValidity.isValid(word: verdict) {
          if exact[index] {
            output.appendDigitLine(afterPlus: groupLines[index], readableEnd: end)
          } else {
            output.reserve(24)
            output.appendDecimal(outcomes[index])
            output.appendByte(0x0A)
          }
        } else if verdict != 0 {
          output.appendInvalidLine(packedRegion: UInt32(truncatingIfNeeded: verdict))
        } else {
          emit(groupLines[index], outcomes[index], validity: nil)
        }
      }
    }
  }

  /// Writes the output line for one input line and its packed outcome.
  @inline(__always)
  func emit(_ line: UnsafeBufferPointer<UInt8>, _ outcome: Int64, validity: NumberValidity?) {
    if json {
      _NormalizeOutput.appendJSON(
        input: line, result: PackedOutcome.result(outcome), validity: validity, requireValid: requireValid,
        to: output)
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
    output.appendByte(0x0A)
  }
}
