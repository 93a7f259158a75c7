/// libphonenumber's national format of E.164 numbers, as its digits: what
/// Python's `phonenumbers.format_number(parse("+" + digits),
/// PhoneNumberFormat.NATIONAL)` writes, with everything but the digits
/// removed. `+44 20 7946 0018` gives `02079460018`, `+1 212-555-0142`
/// gives `2125550142`, `+54 9 11 1234-5678` gives `0111512345678`
/// (`011 15-1234-5678`: Argentina's mobile format drops the `9` and
/// writes `15`).
///
/// Step by step, as libphonenumber does:
/// 1. `parse`: the calling code is the first 1 to 3 digits that are one
///    (none: no national format); the rest is the national number, from
///    which a national prefix is stripped as `parse` strips one after
///    `+CC` (`+44 020…` reads as `+44 20…`), with the calling code's main
///    region's rules; it must then be 2 to 17 digits (else no national
///    format). Leading zeros stay (Italy's `06…`).
/// 2. `format_number`: the formats of the calling code's main region (US
///    for +1, GB for +44, RU for +7) or non-geographic entity
///    (`region_code_for_country_code`); the first format, in table order,
///    whose last leading-digits pattern matches at the start of the
///    national number and whose pattern matches all of it; its format
///    with its national prefix formatting rule in place of the first
///    group (`0$FG`, `8 ($FG)`), the national prefix coming with it.
///    Where no format fits, or the region has none, the national number
///    as it is.
///
/// Whether the number is possible or valid does not matter, as to
/// libphonenumber. The formats come from `data/number-formats.tsv`
/// (`schemas/numbering-plan.md`); each calling code's are compiled on
/// first use, into automata that choose the format in one pass over the
/// digits.
///
/// A formatter remembers the calling codes it has met: make one per
/// thread (it is not to be shared), and ask it for many numbers.
///
///     let formatter = NationalFormatter()
///     formatter.nationalDigits(ofE164: 442_079_460_018)?.description  // "02079460018"
public final class NationalFormatter {
  public let plan: NumberingPlan
  /// The main regions' cores by calling code.
  private let cores: UnsafeMutablePointer<UnsafePointer<RegionCore>?>
  /// Each calling code's compiled formats once met (unretained: `met`
  /// and the plan keep them).
  private let formats: UnsafeMutablePointer<Unmanaged<CallingCodeFormats>?>
  private var met: [CallingCodeFormats] = []
  /// `plan.transformedCapacity`'s terms, read once.
  private let transformGroupReferences: Int
  private let transformLiterals: Int

  /// A formatter for the numbers of `plan` (the embedded one by default).
  public init(plan: NumberingPlan = .standard) {
    self.plan = plan
    self.cores = plan.mainCores.cores
    self.transformGroupReferences = plan.maxTransformGroupReferences
    self.transformLiterals = plan.maxTransformLiteralCount
    formats = .allocate(capacity: 1000)
    formats.initialize(repeating: nil, count: 1000)
  }

  deinit { formats.deallocate() }

  /// The digits of the national format of the E.164 number `number`
  /// (country calling code and national significant number, e.g.
  /// 442079460018), or nil when libphonenumber's `parse` would refuse
  /// `"+" + number` (no calling code at its start, a national number
  /// shorter than 2 or longer than 17 digits) and there is no national
  /// format.
  public func nationalDigits(ofE164 number: Int64) -> NationalDigits? {
    guard number > 0 else { return nil }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: NumberDigits.capacity) { buffer in
      let base = buffer.baseAddress!
      let first = NumberDigits.write(UInt64(number), into: base)
      return nationalDigits(digits: UnsafeBufferPointer(start: base + first, count: NumberDigits.capacity - first))
    }
  }

  /// ``nationalDigits(ofE164:)-(Int64)`` for a number written as its ASCII
  /// digits, with or without one leading `+` (`442079460018`,
  /// `+442079460018`); nil as there, and for text that is not such digits
  /// or longer than the 250 characters `parse` reads.
  public func nationalDigits(ofE164 text: some StringProtocol) -> NationalDigits? {
    var utf8 = Substring(text).utf8[...]
    if utf8.first == UInt8(ascii: "+") { utf8 = utf8.dropFirst() }
    guard !utf8.isEmpty, text.utf8.count <= 250 else { return nil }
    let count = utf8.count
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer in
      for (index, byte) in utf8.enumerated() {
        guard byte >= 48 && byte <= 57 else { return nil }
        buffer[index] = byte - 48
      }
      return nationalDigits(digits: UnsafeBufferPointer(buffer))
    }
  }

  /// The national format's digits of the E.164 number whose digits
  /// (values 0–9) are `digits`.
  @inline(__always)
  func nationalDigits(digits: UnsafeBufferPointer<UInt8>) -> NationalDigits? {
    // `_maybe_extract_country_code` after "+": more than two digits, then
    // the first 1 to 3 that are a calling code (never starting with 0).
    guard digits.count > 2, digits[0] != 0 else { return nil }
    var code = 0
    var codeLength = 0
    for length in 1...3 {
      code = code &* 10 &+ Int(digits[length - 1])
      if cores[code] != nil {
        codeLength = length
        break
      }
    }
    guard codeLength > 0, let core = cores[code] else { return nil }
    var national = UnsafeBufferPointer(rebasing: digits[codeLength...])
    guard national.count >= 2 else { return nil }
    // `NumberingPlan.transformedCapacity`.
    let scratchCount = national.count &* (1 &+ transformGroupReferences) &+ transformLiterals
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: scratchCount + NationalDigits.capacity) { memory in
      // `parse` strips a national prefix after "+CC" too, when what is
      // left has a possible length (or is too long).
      let stripped = PhoneNumberNormalizer.strippingNationalPrefix(
        national, core: core, into: UnsafeMutableBufferPointer(rebasing: memory[0..<scratchCount]))
      switch core.pointee.lengthCheck(stripped.count) {
      case .possible, .tooLong: national = stripped
      case .tooShort, .possibleLocalOnly, .invalidLength: break
      }
      guard national.count >= 2, national.count <= NumberFormatRule.maximumNationalLength else { return nil }
      let output = memory.baseAddress! + scratchCount
      let compiled = formats(forCallingCode: code)
      var count = national.count
      if let rule = compiled._withUnsafeGuaranteedRef({ $0.choose(national) }) {
        count = compiled._withUnsafeGuaranteedRef { $0.apply(rule, to: national, output: output) }
      } else {
        for index in 0..<count { output[index] = national[index] }
      }
      return NationalDigits(digits: output, count: count)
    }
  }

  /// The compiled formats of `code`'s main region, from the plan the
  /// first time.
  @inline(__always)
  private func formats(forCallingCode code: Int) -> Unmanaged<CallingCodeFormats> {
    if let found = formats[code] { return found }
    return load(code)
  }

  @inline(never)
  private func load(_ code: Int) -> Unmanaged<CallingCodeFormats> {
    let key: String
    if let main = plan.mainRegion(forCallingCode: code), main.regionCode != "001" {
      key = main.regionCode
    } else {
      key = "001+\(code)"
    }
    let compiled = plan.formatTable.formats(forKey: key)
    met.append(compiled)
    let reference = Unmanaged.passUnretained(compiled)
    formats[code] = reference
    return reference
  }
}

/// The digits of a national format, held in two words: up to
/// ``capacity`` digits, no allocation. Equal digit strings are equal
/// values, and values order as their digit strings do (a string before
/// the longer ones it starts), so that numbers sharing national digits can
/// be found by hashing or sorting these.
public struct NationalDigits: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The most digits a value holds; no national format libphonenumber's
  /// metadata writes is longer (the formats table is checked for that).
  public static let capacity = 32

  /// The digits, 4 bits each from the top of `high` on, then of `low`,
  /// each written as the digit plus one; 0 past the last digit.
  public let high: UInt64
  public let low: UInt64

  /// Digits `digits` (values 0–9) of which there are `count`, 1 to
  /// ``capacity``.
  @inline(__always)
  init?(digits: UnsafePointer<UInt8>, count: Int) {
    guard count >= 1, count <= Self.capacity else { return nil }
    var high: UInt64 = 0
    var low: UInt64 = 0
    for index in 0..<min(count, 16) { high |= UInt64(digits[index] &+ 1) << UInt64(60 &- 4 &* index) }
    if count > 16 {
      for index in 16..<count { low |= UInt64(digits[index] &+ 1) << UInt64(60 &- 4 &* (index &- 16)) }
    }
    self.high = high
    self.low = low
  }

  /// The value whose words are `high` and `low` (as read from
  /// ``high``/``low`` of another), or nil when they hold no digit or
  /// are not such words.
  public init?(high: UInt64, low: UInt64) {
    func digitCount(_ word: UInt64) -> Int? {
      var count = 0
      var rest = word
      while count < 16 {
        let nibble = rest >> 60
        if nibble == 0 { break }
        guard nibble <= 10 else { return nil }
        count += 1
        rest <<= 4
      }
      return rest == 0 ? count : nil
    }
    guard let highCount = digitCount(high), let lowCount = digitCount(low), highCount > 0,
      lowCount == 0 || highCount == 16
    else { return nil }
    self.high = high
    self.low = low
  }

  /// The value of ASCII digits (1 to ``capacity``), or nil for other text.
  public init?(_ text: some StringProtocol) {
    let bytes = Array(text.utf8)
    guard bytes.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
    let values = bytes.map { $0 - 48 }
    guard let value = values.withUnsafeBufferPointer({ buffer -> NationalDigits? in
      guard let base = buffer.baseAddress else { return nil }
      return NationalDigits(digits: base, count: buffer.count)
    }) else { return nil }
    self = value
  }

  /// How many digits.
  public var count: Int {
    @inline(__always) get {
      if low != 0 { return 32 &- low.trailingZeroBitCount / 4 }
      return 16 &- high.trailingZeroBitCount / 4
    }
  }

  /// Hands `body` the digits as ASCII, from a buffer on the stack.
  @inline(__always)
  public func withASCII<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
    try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.capacity) { buffer in
      let count = self.count
      for index in 0..<count {
        let word = index < 16 ? high : low
        buffer[index] = UInt8(truncatingIfNeeded: word >> UInt64(60 &- 4 &* (index & 15)) & 15) &+ 47
      }
      return try body(UnsafeBufferPointer(rebasing: buffer[0..<count]))
    }
  }

  /// The digits as ASCII bytes.
  public var ascii: [UInt8] { withASCII { Array($0) } }

  /// The digits as text, e.g. `02079460018`.
  public var description: String { withASCII { String(decoding: $0, as: UTF8.self) } }

  public static func < (lhs: NationalDigits, rhs: NationalDigits) -> Bool {
    (lhs.high, lhs.low) < (rhs.high, rhs.low)
  }
}

/// libphonenumber's national format for a few numbers (for many, make a
/// ``NationalFormatter`` and keep it).
public enum NationalFormat {
  /// The digits of the national format of the E.164 number `number`, as
  /// ``NationalFormatter/nationalDigits(ofE164:)-(Int64)`` (nil: none),
  /// with the embedded numbering plan: `02079460018` for 442079460018.
  public static func digits(ofE164 number: Int64) -> String? {
    NationalFormatter().nationalDigits(ofE164: number)?.description
  }

  /// ``digits(ofE164:)-(Int64)`` for the number written as its ASCII
  /// digits, with or without one leading `+`.
  public static func digits(ofE164 text: some StringProtocol) -> String? {
    NationalFormatter().nationalDigits(ofE164: text)?.description
  }
}
