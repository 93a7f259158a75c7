/// Turns any phone number people write into a `CXCallDirectoryPhoneNumber`:
/// the country calling code followed by the national significant number, as
/// an Int64 (`+44 20 7946 0018` → 442079460018).
///
/// The semantics are libphonenumber's `parse` followed by
/// `is_possible_number` and E.164 formatting: international prefixes per
/// region, national prefixes and their transform rules (also after `+CC`),
/// extensions, vanity letters, decimal digits of every script, `tel:` URIs.
///
///     let normalizer = PhoneNumberNormalizer()
///     let uk = normalizer.plan.region("GB")
///     normalizer.normalize("020 7946 0018", region: uk)  // .success(442079460018)
public struct PhoneNumberNormalizer: Sendable {
  /// The numbering plan numbers are read against.
  public let plan: NumberingPlan

  /// Creates a normalizer over `plan` (by default the embedded one).
  public init(plan: NumberingPlan = .standard) {
    self.plan = plan
  }

  /// Normalizes `input`, reading numbers without a country code as numbers
  /// of `region`.
  /// - Parameters:
  ///   - input: the text as written in a list, without its line ending.
  ///   - region: the default region, or nil for none (then only numbers with
  ///     `+` or a `tel:` context can be read).
  /// - Returns: the number, or why it was rejected.
  public func normalize(_ input: String, region: RegionMetadata?) -> Result<Int64, NormalizationRejection> {
    do {
      return .success(try number(from: input, region: region))
    } catch {
      return .failure(error)
    }
  }

  /// Normalizes `input`; a throwing form of `normalize(_:region:)`.
  public func number(from input: String, region: RegionMetadata?) throws(NormalizationRejection) -> Int64 {
    var scalars: [UInt32] = []
    scalars.reserveCapacity(input.utf8.count)
    for scalar in input.unicodeScalars {
      scalars.append(scalar.value)
      // libphonenumber refuses inputs over 250 characters.
      guard scalars.count <= 250 else { throw .tooLong }
    }
    let (callingCode, nationalNumber) = try parse(scalars, region: region)
    return try Self.compose(callingCode: callingCode, nationalNumber: nationalNumber, plan: plan)
  }

  // MARK: - The parse pipeline

  /// libphonenumber's `parse`: the calling code and national significant number.
  private func parse(_ input: [UInt32], region: RegionMetadata?) throws(NormalizationRejection) -> (Int, [UInt8]) {
    let candidate = try InputExtraction.candidate(from: input)
    guard InputExtraction.isViable(candidate[...]) else { throw .notANumber }
    let startsWithPlus = candidate.first.map(ScalarClasses.isPlus) ?? false
    guard region != nil || startsWithPlus else { throw .missingDefaultRegion }

    var number = candidate[...]
    if let extensionStart = ExtensionMatcher.start(in: number),
      InputExtraction.isViable(number[..<extensionStart])
    {
      number = number[..<extensionStart]
    }

    var extracted: (callingCode: Int, nationalNumber: [UInt8])
    do {
      extracted = try extractCallingCode(number, region: region)
    } catch .invalidCountryCode where startsWithPlus {
      // "+" followed by something that is no calling code: try again as if
      // the plus were not there (it may precede an international prefix).
      let withoutPlus = number.drop(while: ScalarClasses.isPlus)
      extracted = try extractCallingCode(withoutPlus, region: region)
      guard extracted.callingCode != 0 else { throw .invalidCountryCode }
    }

    var callingCode = extracted.callingCode
    var nationalNumber = extracted.nationalNumber
    let metadata: RegionMetadata
    if callingCode != 0 {
      guard let main = plan.mainRegion(forCallingCode: callingCode) else { throw .invalidCountryCode }
      metadata = main
    } else {
      guard let region else { throw .invalidCountryCode }
      nationalNumber = Self.normalizedDigits(number)
      callingCode = region.callingCode
      metadata = region
    }

    guard nationalNumber.count >= 2 else { throw .tooShort }
    let stripped = Self.strippingNationalPrefix(nationalNumber, metadata: metadata)
    switch metadata.lengthCheck(stripped.count) {
    case .tooShort, .possibleLocalOnly, .invalidLength:
      break
    case .possible, .tooLong:
      nationalNumber = stripped
    }
    guard nationalNumber.count <= 17 else { throw .tooLong }
    return (callingCode, nationalNumber)
  }

  /// libphonenumber's `_maybe_extract_country_code`: a calling code written
  /// with `+`, after the region's international prefix, or (without either)
  /// the region's own code when the rest then fits the plan better.
  /// Returns calling code 0 when the number is national.
  private func extractCallingCode(
    _ number: ArraySlice<UInt32>, region: RegionMetadata?
  ) throws(NormalizationRejection) -> (callingCode: Int, nationalNumber: [UInt8]) {
    guard !number.isEmpty else { return (0, []) }
    var digits: [UInt8]
    var international = false
    if ScalarClasses.isPlus(number[number.startIndex]) {
      digits = Self.normalizedDigits(number.drop(while: ScalarClasses.isPlus))
      international = true
    } else {
      digits = Self.normalizedDigits(number)
      if let idd = region?.internationalPrefix,
        let match = digits.withUnsafeBufferPointer({ idd.prefixMatch($0) }),
        match.end == digits.count || digits[match.end] != 0
      {
        digits.removeFirst(match.end)
        international = true
      }
    }

    if international {
      guard digits.count > 2 else { throw .tooShortAfterInternationalPrefix }
      if let (code, length) = leadingCallingCode(digits) {
        return (code, Array(digits[length...]))
      }
      throw .invalidCountryCode
    }

    if let region, digits.starts(with: region.callingCodeDigits) {
      let potential = Self.strippingNationalPrefix(
        Array(digits[region.callingCodeDigits.count...]), metadata: region)
      let fullFits = digits.withUnsafeBufferPointer { region.matchesGeneralPattern($0) }
      let potentialFits = potential.withUnsafeBufferPointer { region.matchesGeneralPattern($0) }
      if (!fullFits && potentialFits) || region.lengthCheck(digits.count) == .tooLong {
        return (region.callingCode, potential)
      }
    }
    return (0, [])
  }

  /// The known calling code the digits start with (1 to 3 digits, never 0).
  private func leadingCallingCode(_ digits: [UInt8]) -> (code: Int, length: Int)? {
    guard let first = digits.first, first != 0 else { return nil }
    var code = 0
    for length in 1...min(3, digits.count) {
      code = code * 10 + Int(digits[length - 1])
      if plan.mainRegion(forCallingCode: code) != nil { return (code, length) }
    }
    return nil
  }

  /// libphonenumber's `_maybe_strip_national_prefix_carrier_code`: removes a
  /// national (trunk) prefix and carrier code, applying the transform rule,
  /// unless that breaks a number that fitted the plan.
  static func strippingNationalPrefix(_ number: [UInt8], metadata: RegionMetadata) -> [UInt8] {
    guard !number.isEmpty, let pattern = metadata.nationalPrefixForParsing else { return number }
    return number.withUnsafeBufferPointer { digits -> [UInt8] in
      guard let match = pattern.prefixMatch(digits) else { return number }
      let originalFits = metadata.matchesGeneralPattern(digits)
      var result: [UInt8]
      if let transform = metadata.nationalPrefixTransform, pattern.groupCount > 0,
        match.range(ofGroup: pattern.groupCount) != nil
      {
        result = []
        for part in transform {
          switch part {
          case .digits(let literal): result += literal
          case .group(let group): if let range = match.range(ofGroup: group) { result += digits[range] }
          }
        }
        result += digits[match.end...]
      } else {
        result = Array(digits[match.end...])
      }
      let resultFits = result.withUnsafeBufferPointer { metadata.matchesGeneralPattern($0) }
      return originalFits && !resultFits ? number : result
    }
  }

  /// libphonenumber's `_normalize`: keypad digits for vanity numbers (three or
  /// more ASCII letters), otherwise the decimal digits of any script.
  static func normalizedDigits(_ text: ArraySlice<UInt32>) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(text.count)
    var letters = 0
    var hasNewline = false
    for value in text {
      if ScalarClasses.isASCIILetter(value) { letters += 1 }
      if value == 0x0A { hasNewline = true }
    }
    if letters >= 3 && !hasNewline {
      for value in text {
        if let digit = ScalarClasses.keypadDigit(value) { result.append(digit) }
      }
    } else {
      for value in text {
        if let digit = ScalarClasses.digitValue(value) { result.append(digit) }
      }
    }
    return result
  }

  /// E.164 as an integer, after libphonenumber's `is_possible_number`.
  private static func compose(
    callingCode: Int, nationalNumber: [UInt8], plan: NumberingPlan
  ) throws(NormalizationRejection) -> Int64 {
    guard let main = plan.mainRegion(forCallingCode: callingCode) else { throw .invalidCountryCode }
    switch main.lengthCheck(nationalNumber.count) {
    case .possible, .possibleLocalOnly: break
    case .tooShort: throw .tooShort
    case .tooLong: throw .tooLong
    case .invalidLength: throw .invalidLength
    }
    var value = Int64(callingCode)
    for digit in nationalNumber {
      let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflowSum) = shifted.addingReportingOverflow(Int64(digit))
      guard !overflow, !overflowSum else { throw .outOfRange }
      value = sum
    }
    guard value < Int64.max else { throw .outOfRange }
    return value
  }
}
