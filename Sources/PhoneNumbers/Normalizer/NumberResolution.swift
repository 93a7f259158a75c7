/// The second half of libphonenumber's `parse` plus `is_possible_number`,
/// shared by every front end: from the decimal digits of the number part
/// (after extraction, viability and extension removal) and whether it was
/// written with a leading `+`, to the E.164 number.
///
/// Everything here depends only on those digits: the digits of the text with
/// or without its leading pluses are the same, so `_maybe_extract_country_code`,
/// its retry without the plus, national-prefix stripping and the length
/// checks all run on one digit buffer. Intermediate numbers live in scratch
/// buffers on the stack; nothing is allocated for ordinary inputs.
extension PhoneNumberNormalizer {
  /// The table of main-region cores, indexed by calling code.
  typealias MainCores = UnsafeMutablePointer<UnsafePointer<RegionCore>?>

  /// The packed outcome (see `PackedOutcome`) for `digits` (values 0–9);
  /// `national`, when given, is set to whether they were read as a national
  /// number of `region` (no calling code written).
  @inline(__always)
  func resolve(
    _ digits: UnsafeBufferPointer<UInt8>, startsWithPlus: Bool, region: RegionMetadata?,
    national: UnsafeMutablePointer<Bool>? = nil
  ) -> Int64 {
    // National-prefix transforms can lengthen a number; the second stripping
    // can act on the result of the first.
    let first = plan.transformedCapacity(digits.count)
    let second = plan.transformedCapacity(max(first, digits.count))
    let regionCore = region.map { UnsafePointer($0.core) }
    let mains = plan.mainCores.cores
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: first + second) { scratch in
      Self.resolve(
        digits, startsWithPlus: startsWithPlus, region: regionCore, mains: mains, writtenNationally: national,
        scratch: UnsafeMutableBufferPointer(rebasing: scratch[0..<first]),
        finalScratch: UnsafeMutableBufferPointer(rebasing: scratch[first...]))
    }
  }

  private static func resolve(
    _ digits: UnsafeBufferPointer<UInt8>, startsWithPlus: Bool, region: UnsafePointer<RegionCore>?,
    mains: MainCores, writtenNationally: UnsafeMutablePointer<Bool>?, scratch: UnsafeMutableBufferPointer<UInt8>, finalScratch: UnsafeMutableBufferPointer<UInt8>
  ) -> Int64 {
    var (callingCode, national) = extractCallingCode(
      digits, international: startsWithPlus, region: region, mains: mains, scratch: scratch)
    if callingCode == PackedOutcome.rejection(.invalidCountryCode) && startsWithPlus {
      // "+" followed by something that is no calling code: try again as if
      // the plus were not there (it may precede an international prefix).
      (callingCode, national) = extractCallingCode(
        digits, international: false, region: region, mains: mains, scratch: scratch)
      if callingCode == 0 { return PackedOutcome.rejection(.invalidCountryCode) }
    }
    if callingCode < 0 { return callingCode }

    let metadata: UnsafePointer<RegionCore>
    let main: UnsafePointer<RegionCore>
    if callingCode != 0 {
      guard callingCode < 1000, let found = mains[Int(callingCode)] else {
        return PackedOutcome.rejection(.invalidCountryCode)
      }
      metadata = found
      main = found
    } else {
      guard let region else { return PackedOutcome.rejection(.invalidCountryCode) }
      writtenNationally?.pointee = true
      national = digits
      callingCode = Int64(region.pointee.callingCode)
      metadata = region
      guard let found = region.pointee.isMainRegion ? region : mains[region.pointee.callingCode] else {
        return PackedOutcome.rejection(.invalidCountryCode)
      }
      main = found
    }

    guard national.count >= 2 else { return PackedOutcome.rejection(.tooShort) }
    let stripped = strippingNationalPrefix(national, core: metadata, into: finalScratch)
    switch metadata.pointee.lengthCheck(stripped.count) {
    case .tooShort, .possibleLocalOnly, .invalidLength:
      break
    case .possible, .tooLong:
      national = stripped
    }
    guard national.count <= 17 else { return PackedOutcome.rejection(.tooLong) }
    return compose(callingCode: Int(callingCode), nationalNumber: national, main: main)
  }

  /// libphonenumber's `_maybe_extract_country_code`: a calling code written
  /// with `+`, after the region's international prefix, or (without either)
  /// the region's own code when the rest then fits the plan better.
  /// Returns calling code 0 when the number is national, or a packed
  /// rejection (negative).
  @inline(__always)
  private static func extractCallingCode(
    _ number: UnsafeBufferPointer<UInt8>, international startsWithPlus: Bool, region: UnsafePointer<RegionCore>?,
    mains: MainCores, scratch: UnsafeMutableBufferPointer<UInt8>
  ) -> (Int64, UnsafeBufferPointer<UInt8>) {
    var digits = number
    var international = startsWithPlus
    if !startsWithPlus, let region {
      let end = region.pointee.internationalPrefixEnd(digits)
      if end >= 0 && (end == digits.count || digits[end] != 0) {
        digits = UnsafeBufferPointer(rebasing: digits[end...])
        international = true
      }
    }

    if international {
      guard digits.count > 2 else { return (PackedOutcome.rejection(.tooShortAfterInternationalPrefix), number) }
      // The known calling code the digits start with (1 to 3 digits, never 0).
      if digits[0] != 0 {
        var code = 0
        for length in 1...3 {
          code = code &* 10 &+ Int(digits[length - 1])
          if mains[code] != nil {
            return (Int64(code), UnsafeBufferPointer(rebasing: digits[length...]))
          }
        }
      }
      return (PackedOutcome.rejection(.invalidCountryCode), number)
    }

    if let region, region.pointee.startsWithCallingCode(digits) {
      let potential = strippingNationalPrefix(
        UnsafeBufferPointer(rebasing: digits[region.pointee.callingCodeDigitCount...]), core: region, into: scratch)
      // Too long for the region as written: the code is taken whatever
      // the patterns say (tested first, it spares their two walks).
      if region.pointee.lengthCheck(digits.count) == .tooLong {
        return (Int64(region.pointee.callingCode), potential)
      }
      let fullFits = region.pointee.matchesGeneralPattern(digits)
      let potentialFits = region.pointee.matchesGeneralPattern(potential)
      if !fullFits && potentialFits {
        return (Int64(region.pointee.callingCode), potential)
      }
    }
    return (0, number)
  }

  /// libphonenumber's `_maybe_strip_national_prefix_carrier_code`: removes a
  /// national (trunk) prefix and carrier code, applying the transform rule,
  /// unless that breaks a number that fitted the plan. The result is
  /// `number`, a suffix of it, or a transformed copy in `scratch` (sized by
  /// `NumberingPlan.transformedCapacity`).
  @inline(__always)
  static func strippingNationalPrefix(
    _ number: UnsafeBufferPointer<UInt8>, core: UnsafePointer<RegionCore>,
    into scratch: UnsafeMutableBufferPointer<UInt8>
  ) -> UnsafeBufferPointer<UInt8> {
    guard !number.isEmpty else { return number }
    let screen = core.pointee.nationalPrefixScreen
    switch screen.kind {
    case .none:
      return number
    case .literal:
      // A plain prefix such as `0` or `1`: no groups, so no transform.
      let end = screen.literalMatchEnd(number)
      guard end >= 0 else { return number }
      let result = UnsafeBufferPointer(rebasing: number[end...])
      return core.pointee.matchesGeneralPattern(number) && !core.pointee.matchesGeneralPattern(result)
        ? number : result
    case .pattern:
      if screen.excludes(number) { return number }
      return core.pointee.owner._withUnsafeGuaranteedRef { metadata in
        strippingNationalPrefix(number, metadata: metadata, into: scratch)
      }
    }
  }

  /// `strippingNationalPrefix` for a national-prefix pattern that is not a
  /// plain digit string: run the pattern, keep its groups for the transform.
  static func strippingNationalPrefix(
    _ number: UnsafeBufferPointer<UInt8>, metadata: RegionMetadata, into scratch: UnsafeMutableBufferPointer<UInt8>
  ) -> UnsafeBufferPointer<UInt8> {
    guard let pattern = metadata.nationalPrefixForParsing else { return number }
    return withUnsafeTemporaryAllocation(of: Int.self, capacity: pattern.captureSlotCount) { slots in
      let captures = slots.baseAddress!
      // The core's screen has ruled out the cheap cases: run the pattern.
      let end = pattern.prefixMatchEnd(number, captures: captures)
      guard end >= 0 else { return number }
      func range(ofGroup group: Int) -> Range<Int>? {
        let lower = captures[2 * group]
        let upper = captures[2 * group + 1]
        return lower >= 0 && upper >= lower ? lower..<upper : nil
      }
      let originalFits = metadata.matchesGeneralPattern(number)
      let result: UnsafeBufferPointer<UInt8>
      if let transform = metadata.nationalPrefixTransform, pattern.groupCount > 0,
        range(ofGroup: pattern.groupCount) != nil
      {
        var count = 0
        func append(_ digits: UnsafeBufferPointer<UInt8>) {
          for digit in digits {
            scratch[count] = digit
            count += 1
          }
        }
        for part in transform {
          switch part {
          case .digits(let literal): literal.withUnsafeBufferPointer { append($0) }
          case .group(let group):
            if let range = range(ofGroup: group) { append(UnsafeBufferPointer(rebasing: number[range])) }
          }
        }
        append(UnsafeBufferPointer(rebasing: number[end...]))
        result = UnsafeBufferPointer(rebasing: scratch[0..<count])
      } else {
        result = UnsafeBufferPointer(rebasing: number[end...])
      }
      let resultFits = metadata.matchesGeneralPattern(result)
      return originalFits && !resultFits ? number : result
    }
  }

  /// E.164 as an integer, after libphonenumber's `is_possible_number`
  /// (`main` is the main region of `callingCode`).
  @inline(__always)
  private static func compose(
    callingCode: Int, nationalNumber: UnsafeBufferPointer<UInt8>, main: UnsafePointer<RegionCore>
  ) -> Int64 {
    switch main.pointee.lengthCheck(nationalNumber.count) {
    case .possible, .possibleLocalOnly: break
    case .tooShort: return PackedOutcome.rejection(.tooShort)
    case .tooLong: return PackedOutcome.rejection(.tooLong)
    case .invalidLength: return PackedOutcome.rejection(.invalidLength)
    }
    if callingCode < 1000 && nationalNumber.count <= 15 {
      // At most 18 digits: below Int64.max, no check needed.
      return joining(Int64(callingCode), nationalNumber)
    }
    var value = Int64(callingCode)
    for digit in nationalNumber {
      let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflowSum) = shifted.addingReportingOverflow(Int64(digit))
      guard !overflow, !overflowSum else { return PackedOutcome.rejection(.outOfRange) }
      value = sum
    }
    guard value < Int64.max else { return PackedOutcome.rejection(.outOfRange) }
    return value
  }
}

extension PhoneNumberNormalizer {
  /// `callingCode` (below 1000) followed by `digits` (values 0–9, at most
  /// 15) as one number.
  @inline(__always)
  static func joining(_ callingCode: Int64, _ digits: UnsafeBufferPointer<UInt8>) -> Int64 {
    if digits.count >= 8, let base = digits.baseAddress {
      return callingCode &* Int64(NumberDigits.powerOfTen(digits.count)) &+ Int64(value(of: base, count: digits.count))
    }
    var value = callingCode
    for digit in digits { value = value &* 10 &+ Int64(digit) }
    return value
  }

  /// The value of `count` (8 to 16) digits (values 0–9) at `digits`, read
  /// as two words of eight (the first one's leading digits shifted to its
  /// top, zeros below them) instead of one multiplication per digit.
  @inline(__always)
  static func value(of digits: UnsafePointer<UInt8>, count: Int) -> UInt64 {
    let raw = UnsafeRawPointer(digits)
    let low = eightDigitValue(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)))
    let leading = count &- 8
    guard leading > 0 else { return low }
    let first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)) << UInt64(8 &* (8 &- leading))
    return eightDigitValue(first) &* 100_000_000 &+ low
  }
}

extension NumberingPlan {
  /// A capacity that holds any national-prefix transform of an `n`-digit number.
  @inline(__always)
  func transformedCapacity(_ count: Int) -> Int {
    count &* (1 &+ maxTransformGroupReferences) &+ maxTransformLiteralCount
  }
}
