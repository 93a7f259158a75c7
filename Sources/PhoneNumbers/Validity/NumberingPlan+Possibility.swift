extension NumberingPlan {
  /// libphonenumber's verdict on the E.164 number `number` (its calling
  /// code followed by its national significant number, as digits): nil
  /// when `is_possible_number` holds it possible (a local-only length
  /// counts), else the reason `parse` or `is_possible_number` gives for
  /// `+` and those digits, as the normalizer words it.
  ///
  /// Only the digits are judged: unlike normalizing `"+" + digits`, no
  /// national prefix is looked for after the calling code, so the verdict
  /// is on exactly this number.
  ///
  ///     let plan = NumberingPlan.standard
  ///     plan.possibilityRejection(ofE164: 3950)         // .tooShort (+39 50)
  ///     plan.possibilityRejection(ofE164: 33_162_000_000)  // nil
  public func possibilityRejection(ofE164 number: Int64) -> NormalizationRejection? {
    guard number > 0 else { return .notANumber }
    let digits = E164Digits.count(of: number)
    return possibilityRejection(leading: number, digits: digits)
  }

  /// The verdict on every number of `lower...upper`, which hold the same
  /// number of digits (as the numbers of a `#` pattern, a range or a
  /// wildcard block do): nil when at least one of them is a possible
  /// number, else the reason for `lower` (``possibilityRejection(ofE164:)``).
  ///
  /// Whether a number is possible depends only on its calling code and the
  /// length of what follows it (libphonenumber's `is_possible_number`
  /// compares that length with the possible lengths of the code's main
  /// region), so the range is judged by each calling code it spans, not
  /// number by number: at most a thousand codes, whatever its size.
  /// Bounds of different lengths, or out of order, are not judged (nil).
  public func possibilityRejection(ofRange lower: Int64, _ upper: Int64) -> NormalizationRejection? {
    guard lower > 0, lower <= upper else { return lower > 0 ? nil : .notANumber }
    let digits = E164Digits.count(of: lower)
    guard E164Digits.count(of: upper) == digits else { return nil }
    if lower == upper { return possibilityRejection(ofE164: lower) }
    for codeDigits in 1...3 where codeDigits <= digits {
      var scale: Int64 = 1
      for _ in 0..<(digits - codeDigits) { scale *= 10 }
      let first = lower / scale
      let last = upper / scale
      var code = first
      while code <= last {
        if isCallingCode(Int(code)), Self.isShortestCode(Int(code), codeDigits: codeDigits, plan: self),
          verdict(callingCode: Int(code), nationalDigits: digits - codeDigits) == nil
        {
          return nil
        }
        code += 1
      }
    }
    return possibilityRejection(ofE164: lower)
  }

  /// The verdict on a number whose first digits are `number`, `digits` long.
  private func possibilityRejection(leading number: Int64, digits: Int) -> NormalizationRejection? {
    // `parse`: after `+`, two digits or fewer are too short to hold a
    // calling code and a number.
    guard digits > 2 else { return .tooShortAfterInternationalPrefix }
    for codeDigits in 1...3 where codeDigits <= digits {
      var scale: Int64 = 1
      for _ in 0..<(digits - codeDigits) { scale *= 10 }
      let code = Int(number / scale)
      guard isCallingCode(code) else { continue }
      return verdict(callingCode: code, nationalDigits: digits - codeDigits)
    }
    return .invalidCountryCode
  }

  /// `is_possible_number` for a national significant number of
  /// `nationalDigits` digits after `callingCode`.
  private func verdict(callingCode: Int, nationalDigits: Int) -> NormalizationRejection? {
    // `parse` refuses a national number of fewer than two digits.
    guard nationalDigits >= 2 else { return .tooShort }
    guard let main = mainRegion(forCallingCode: callingCode) else { return .invalidCountryCode }
    switch main.lengthCheck(nationalDigits) {
    case .possible, .possibleLocalOnly: return nil
    case .tooShort: return .tooShort
    case .tooLong: return .tooLong
    case .invalidLength: return .invalidLength
    }
  }

  /// Whether no shorter prefix of `code` is itself a calling code (codes
  /// are prefix-free in libphonenumber's metadata; this keeps the range
  /// walk right for a plan that is not).
  private static func isShortestCode(_ code: Int, codeDigits: Int, plan: NumberingPlan) -> Bool {
    var prefix = code / 10
    var remaining = codeDigits - 1
    while remaining > 0 {
      if plan.isCallingCode(prefix) { return false }
      prefix /= 10
      remaining -= 1
    }
    return true
  }

}
