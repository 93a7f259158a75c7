import CallDirectorySources
import PhoneNumbers

extension RecordAcceptance {
  /// What a range row's two number fields give.
  package enum RangeVerdict {
    case range(NumberRange)
    case rejected(String)
  }

  /// The verdict on a range row (`rangeStart`/`rangeEnd`), a range written
  /// in one cell (`rangeSeparator`) or a wildcard block (`wildcard`, with
  /// `wildcardDigits` > 0: `start` and `end` are its number with zeros and
  /// with nines in the wildcards' place): both ends normalize like any
  /// number, then must share a calling code and a length, with the start
  /// at most the end. A wildcard block must still be one: `10^n` numbers
  /// from a number ending in `n` zeros (the normalizer read both ends
  /// alike).
  ///
  /// The range is exact: `0590100000`–`0590100099` read in `FR` is
  /// `33590100000...33590100099`, never a prefix.
  static func range(
    _ start: UnsafeBufferPointer<UInt8>, _ end: UnsafeBufferPointer<UInt8>,
    normalizer: PhoneNumberNormalizer, region: RegionMetadata?, wildcardDigits: Int = 0
  ) -> RangeVerdict {
    let block = wildcardDigits > 0
    let lower: Int64
    switch number(start, normalizer: normalizer, region: region) {
    case .number(let value): lower = value
    case .rejected(let reason, _): return .rejected(block ? "wildcard block: \(reason)" : "range start: \(reason)")
    case .dropped: return .rejected("range start: not of the source's types")  // not without number rules
    }
    let upper: Int64
    switch number(end, normalizer: normalizer, region: region) {
    case .number(let value): upper = value
    case .rejected(let reason, _): return .rejected(block ? "wildcard block: \(reason)" : "range end: \(reason)")
    case .dropped: return .rejected("range end: not of the source's types")  // not without number rules
    }
    let plan = normalizer.plan
    let lowerCode = callingCode(of: lower, plan: plan)
    let upperCode = callingCode(of: upper, plan: plan)
    if block {
      var size: Int64 = 1
      for _ in 0..<min(wildcardDigits, 18) { size *= 10 }
      guard wildcardDigits <= 18, lowerCode == upperCode, lower % size == 0, upper - lower == size - 1 else {
        return .rejected("wildcard block: its first and last numbers (+\(lower), +\(upper)) do not span one block")
      }
    }
    if lowerCode != upperCode {
      return .rejected(
        "range start and end have different calling codes (\(codeText(lowerCode)) and \(codeText(upperCode)))")
    }
    let lowerDigits = E164Digits.count(of: lower)
    let upperDigits = E164Digits.count(of: upper)
    if lowerDigits != upperDigits {
      return .rejected("range start and end have different lengths (\(lowerDigits) and \(upperDigits) digits)")
    }
    if lower > upper {
      return .rejected("range start +\(lower) is greater than range end +\(upper)")
    }
    guard let range = NumberRange(lower: lower, upper: upper) else { return .rejected("number too large") }
    return .range(range)
  }

  /// The country calling code an E.164 number starts with (codes are
  /// prefix-free), or nil.
  static func callingCode(of number: Int64, plan: NumberingPlan) -> Int? {
    var leading = number
    var prefixes: [Int] = []
    while leading > 0 {
      if leading < 1000 { prefixes.append(Int(leading)) }
      leading /= 10
    }
    // Shortest prefix first: 1, then 2, then 3 digits.
    for code in prefixes.reversed() where plan.mainRegion(forCallingCode: code) != nil {
      return code
    }
    return nil
  }

  private static func codeText(_ code: Int?) -> String {
    code.map { "+\($0)" } ?? "unknown"
  }
}
