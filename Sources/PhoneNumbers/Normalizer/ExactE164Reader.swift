#if os(Linux)
  import CVectorCodec
#endif

/// ``PhoneNumberNormalizer/exactE164(utf8:)`` for a worker that reads many
/// lines in a row: it remembers what decided the numbers it answered, and
/// answers a number alike in that from its digits alone.
///
/// What decides the exact path is the digit count and the leading digits
/// that the calling code and its region's national prefix screen look at
/// (the calling code's digits, then none, the prefix's digits, or one, by
/// the screen's kind). A number of the same length that starts with the
/// same such digits gets the same answer; lists sorted numerically or as
/// text are long runs of them, and each of their lines then costs a
/// digit check and a comparison. Numbers alike but for their last deciding
/// digit are remembered as one (`+44 20 …` and `+44 7700 …`: the third
/// digit only has to rule out the national prefix), so that a shuffled
/// list of one country finds them too. Numbers the path declines for their
/// national prefix or length (`+441…`, which GB's `0|180020` could start)
/// are remembered as declined, by the same digits. `ExactE164ReaderTests`
/// checks it against ``PhoneNumberNormalizer/exactE164(utf8:)`` line for
/// line.
public final class ExactE164Reader {
  /// What decided one remembered number: its text length (0 for an empty
  /// slot) and its deciding digits, as ASCII in the two words the text
  /// loads into, with the masks that keep just those bytes; the same masks
  /// without the last deciding digit (`lead`), where that digit sits
  /// (`lastInLow`, `lastShift`), the digits it may be (bit d for d), and
  /// whether the path declines such numbers.
  private struct Memory {
    var length = 0
    var high: UInt64 = 0
    var low: UInt64 = 0
    var highMask: UInt64 = 0
    var lowMask: UInt64 = 0
    var leadHighMask: UInt64 = 0
    var leadLowMask: UInt64 = 0
    var lastShift: UInt64 = 0
    var lastInLow = false
    var lastDigits: UInt16 = 0
    var declines = false

    /// Whether a number (as its two words) of this length is read alike.
    @inline(__always)
    func recalls(high highWord: UInt64, low lowWord: UInt64) -> Bool {
      let last = ((lastInLow ? lowWord : highWord) >> lastShift) & 15
      return (highWord ^ high) & leadHighMask == 0 && (lowWord ^ low) & leadLowMask == 0
        && lastDigits & (1 &<< UInt16(truncatingIfNeeded: last)) != 0
    }

    /// Whether `other` differs from this at most in its last deciding digit.
    func isAlike(_ other: Memory) -> Bool {
      length == other.length && declines == other.declines && leadHighMask == other.leadHighMask
        && leadLowMask == other.leadLowMask
        && lastShift == other.lastShift && lastInLow == other.lastInLow
        && (high ^ other.high) & leadHighMask == 0 && (low ^ other.low) & leadLowMask == 0
    }
  }

  private let normalizer: PhoneNumberNormalizer
  /// Remembered numbers by length and first two digits (hashed), so that
  /// a shuffled list of a few countries finds each of them remembered too;
  /// two per slot (ways), the one learnt last first.
  private let memories: UnsafeMutablePointer<Memory>
  private static let slots = 256
  private static let ways = 2

  /// ``readsLinesInBulk``, read once (a static is checked at every use).
  private let readsInBulk = ExactE164Reader.readsLinesInBulk

  public init(_ normalizer: PhoneNumberNormalizer) {
    self.normalizer = normalizer
    memories = .allocate(capacity: Self.slots &* Self.ways)
    memories.initialize(repeating: Memory(), count: Self.slots &* Self.ways)
  }

  deinit { memories.deallocate() }

  /// The ways of the slot for a text of `count` bytes (at least 3)
  /// starting at `base`.
  @inline(__always)
  private func ways(_ base: UnsafePointer<UInt8>, _ count: Int) -> UnsafeMutablePointer<Memory> {
    memories + ((count &* 131 &+ Int(base[1]) &* 10 &+ Int(base[2])) & (Self.slots &- 1)) &* Self.ways
  }

  /// What ``PhoneNumberNormalizer/exactE164(utf8:)`` answers for `text`.
  @inline(__always)
  public func read(utf8 text: UnsafeBufferPointer<UInt8>) -> Int64? {
    let count = text.count
    if count >= 10, count <= 16, let base = text.baseAddress, base[0] == 0x2B {
      let ways = ways(base, count)
      // Nine to fifteen digits: the last eight, and the first ones moved
      // to the top of a word padded with ASCII zeros, as the path loads them.
      let (highWord, lowWord) = Self.words(base, count)
      if PhoneNumberNormalizer.areEightDigits(highWord), PhoneNumberNormalizer.areEightDigits(lowWord) {
        for way in 0..<Self.ways where ways[way].length == count && ways[way].recalls(high: highWord, low: lowWord) {
          if ways[way].declines { return nil }
          return Int64(
            PhoneNumberNormalizer.eightDigitValue(highWord) &* 100_000_000
              &+ PhoneNumberNormalizer.eightDigitValue(lowWord))
        }
      }
    }
    return readAndRemember(text)
  }

  /// Whether a remembered number reads `text` alike (without the digit
  /// checks ``read(utf8:)`` adds).
  func recalls(utf8 text: UnsafeBufferPointer<UInt8>) -> Bool {
    let count = text.count
    guard count >= 10, count <= 16, let base = text.baseAddress, base[0] == 0x2B else { return false }
    let ways = ways(base, count)
    let (high, low) = Self.words(base, count)
    return (0..<Self.ways).contains { ways[$0].length == count && ways[$0].recalls(high: high, low: low) }
  }

  /// Whether ``readLines(at:length:ending:begin:end:into:)`` reads four lines at
  /// a time (AVX-512 on Linux); otherwise it reads none.
  #if os(Linux)
    public static let readsLinesInBulk = cvectorcodec_available() == 1
  #else
    public static let readsLinesInBulk = false
  #endif

  /// Reads lines of `length` bytes, each followed by a line feed (`ending`
  /// 1) or a carriage return and a line feed (`ending` 2), from `cursor`
  /// (no further than `end`) into `out`, four at a time, for as
  /// long as they are numbers of the shape remembered for the line at
  /// `cursor`: each then gets the answer ``read(utf8:)`` would give.
  /// Reads up to 6 bytes before `cursor`, none before `begin`.
  /// - Returns: How many lines were read (0 when the next four are not
  ///   all of that shape, or on a CPU without the instructions).
  @inline(__always)
  public func readLines(
    at cursor: UnsafePointer<UInt8>, length: Int, ending: Int, begin: UnsafePointer<UInt8>,
    end: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<Int64>
  ) -> Int {
    #if os(Linux)
      guard readsInBulk, length >= 10, length <= 16, end - cursor > length else { return 0 }
      // The shape learnt last, when it answers.
      let memory = ways(cursor, length)[0]
      guard memory.length == length, !memory.declines else { return 0 }
      return cvectorcodec_read_e164_lines(
        begin, cursor, end, Int32(length), Int32(ending), memory.high, memory.low, memory.highMask,
        memory.lowMask, out)
    #else
      return 0
    #endif
  }

  /// A text of 10 to 16 bytes (`+` and 9 to 15 digits) as the exact path
  /// loads it: its first digits at the top of a word padded with ASCII
  /// zeros, and its last eight.
  @inline(__always)
  private static func words(_ base: UnsafePointer<UInt8>, _ count: Int) -> (high: UInt64, low: UInt64) {
    let raw = UnsafeRawPointer(base)
    let zeros: UInt64 = 0x3030_3030_3030_3030
    let shift = UInt64(8 &* (17 &- count))
    let high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 1, as: UInt64.self)) << shift
      | zeros & (1 << shift &- 1)
    return (high, UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)))
  }

  /// The full exact path; an answer of 9 digits or more is remembered,
  /// and so is a decline of `+` and as many digits with a known calling
  /// code (the national prefix or the length declined it, which the same
  /// digits decide).
  private func readAndRemember(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: ExactE164Split.wordCount) { words -> Int64? in
      guard let words = words.baseAddress else { return nil }
      let number = normalizer.exactE164Number(utf8: text, digitWords: words)
      let answer = number >= 0 ? number : nil
      let count = text.count
      let digitCount = count &- 1
      guard digitCount >= 9, count <= 16, let base = text.baseAddress else { return answer }
      let split = ExactE164Split(words: words)
      guard let (callingCode, codeDigits) =
          number >= 0 ? (split.callingCode, split.callingCodeDigitCount) : callingCode(base, count),
        let main = normalizer.plan.mainCores.cores[callingCode]
      else { return answer }
      let screen = main.pointee.nationalPrefixScreen
      let screened =
        switch screen.kind {
        case .none: 0
        case .literal: screen.literalCount
        case .pattern: 1
        }
      let deciding = min(digitCount, codeDigits &+ screened)
      // The text's digits sit at positions 16 - digitCount ..< 16 of the
      // sixteen the two words hold, eight to a word, lowest byte first.
      var memory = Memory(length: count)
      memory.declines = number < 0
      let first = 16 &- digitCount
      for position in first..<(first &+ deciding) {
        if position < 8 {
          memory.highMask |= 0xFF << UInt64(8 &* position)
        } else {
          memory.lowMask |= 0xFF << UInt64(8 &* (position &- 8))
        }
      }
      let (high, low) = Self.words(base, count)
      memory.high = high & memory.highMask
      memory.low = low & memory.lowMask
      // The last deciding digit (deciding is at least the calling code's one).
      let last = first &+ deciding &- 1
      memory.lastInLow = last >= 8
      memory.lastShift = UInt64(8 &* (last & 7))
      memory.leadHighMask = memory.highMask & ~(memory.lastInLow ? 0 : 0xFF << memory.lastShift)
      memory.leadLowMask = memory.lowMask & ~(memory.lastInLow ? 0xFF << memory.lastShift : 0)
      memory.lastDigits = 1 &<< UInt16(truncatingIfNeeded: ((memory.lastInLow ? low : high) >> memory.lastShift) & 15)
      // Learnt last, with the digits of a way alike (whose own go: the
      // four-at-a-time path compares all deciding digits with the newest).
      let ways = ways(base, count)
      if memory.isAlike(ways[0]) {
        memory.lastDigits |= ways[0].lastDigits
      } else {
        if memory.isAlike(ways[1]) { memory.lastDigits |= ways[1].lastDigits }
        ways[1] = ways[0]
      }
      ways[0] = memory
      return answer
    }
  }

  /// The calling code of `+` and `count - 1` digits (9 to 15) at `base`
  /// and how many digits it has, as the exact path finds it (the first 1
  /// to 3 digits that are one); nil when the text is not all digits, starts
  /// with 0, or has no known code.
  private func callingCode(_ base: UnsafePointer<UInt8>, _ count: Int) -> (code: Int, digits: Int)? {
    let (high, low) = Self.words(base, count)
    guard base[0] == 0x2B, base[1] != 0x30, PhoneNumberNormalizer.areEightDigits(high),
      PhoneNumberNormalizer.areEightDigits(low)
    else { return nil }
    var code = 0
    for length in 1...3 {
      code = code &* 10 &+ Int(base[length] &- 0x30)
      if normalizer.plan.mainCores.cores[code] != nil { return (code, length) }
    }
    return nil
  }
}

@available(*, unavailable)
extension ExactE164Reader: Sendable {}
