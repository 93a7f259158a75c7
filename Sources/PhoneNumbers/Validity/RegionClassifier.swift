/// One region's number types compiled for libphonenumber's
/// `_number_type_helper`: one automaton over the general pattern and every
/// type pattern together, so a national number is classified in a single
/// pass over its digits plus a few bit tests.
final class RegionClassifier: Sendable {
  let region: RegionMetadata
  /// Bit i of a match mask stands for `patterns[i]`: 0 is the general
  /// pattern, then the region's type patterns.
  private let automaton: DigitAutomaton?
  /// Used one by one when the combined automaton would be too large.
  private let separate: [DigitAutomaton?]
  private let patterns: [DigitPattern]
  /// For each length 0...31, the patterns whose possible lengths allow it
  /// (a pattern without lengths allows every length).
  private let lengthMasks: [UInt16]
  /// The mask bit of each described type (`PhoneNumberType.described`
  /// order), 0 when the region does not have it.
  private let premiumRate, tollFree, sharedCost, voip, personalNumber, pager, uan, voicemail: UInt16
  private let fixedLine, mobile: UInt16
  /// `leading_digits` as an automaton whose accepting states mark a
  /// matching prefix.
  private let leadingDigits: DigitAutomaton?

  init(region: RegionMetadata, descriptions: [NumberTypeDescription]) {
    self.region = region
    var patterns: [DigitPattern] = []
    var lengths: [UInt64] = []
    var bits: [PhoneNumberType: UInt16] = [:]
    if let general = region.generalPattern {
      patterns.append(general)
      lengths.append(region.possibleLengthBits)
      // Types without a general pattern never match (libphonenumber checks
      // the general description first).
      for description in descriptions.prefix(15) {
        bits[description.type] = 1 << UInt16(patterns.count)
        patterns.append(description.pattern)
        lengths.append(description.lengthBits)
      }
    }
    self.patterns = patterns
    self.automaton = patterns.isEmpty ? nil : DigitAutomaton(patterns: patterns)
    self.separate = automaton == nil ? patterns.map { DigitAutomaton($0) } : []
    self.lengthMasks = (0..<32).map { length in
      var mask: UInt16 = 0
      for (index, allowed) in lengths.enumerated() where allowed == 0 || allowed & (1 << UInt64(length)) != 0 {
        mask |= 1 << UInt16(index)
      }
      return mask
    }
    premiumRate = bits[.premiumRate] ?? 0
    tollFree = bits[.tollFree] ?? 0
    sharedCost = bits[.sharedCost] ?? 0
    voip = bits[.voip] ?? 0
    personalNumber = bits[.personalNumber] ?? 0
    pager = bits[.pager] ?? 0
    uan = bits[.uan] ?? 0
    voicemail = bits[.voicemail] ?? 0
    fixedLine = bits[.fixedLine] ?? 0
    mobile = bits[.mobile] ?? 0
    leadingDigits = region.leadingDigits.flatMap { DigitAutomaton($0) }
  }

  /// Which patterns match all of `digits` with an allowed length (bit 0:
  /// the general description).
  @inline(__always)
  private func matchMask(_ digits: UnsafeBufferPointer<UInt8>) -> UInt16 {
    guard digits.count < 32 else { return 0 }
    let lengthMask = lengthMasks[digits.count]
    // libphonenumber gives up at once when the general description fails.
    guard lengthMask & 1 != 0 else { return 0 }
    if let automaton { return automaton.fullMatchMask(digits) & lengthMask }
    var mask: UInt16 = 0
    for index in patterns.indices where lengthMask & (1 << UInt16(index)) != 0 {
      let matches = separate[index]?.fullMatch(digits) ?? patterns[index].fullMatch(digits)
      if matches { mask |= 1 << UInt16(index) } else if index == 0 { return 0 }
    }
    return mask
  }

  /// libphonenumber's `_number_type_helper` for the national significant
  /// number `digits` (values 0–9).
  @inline(__always)
  func type(of digits: UnsafeBufferPointer<UInt8>) -> PhoneNumberType {
    let mask = matchMask(digits)
    if mask & 1 == 0 { return .unknown }
    if mask & premiumRate != 0 { return .premiumRate }
    if mask & tollFree != 0 { return .tollFree }
    if mask & sharedCost != 0 { return .sharedCost }
    if mask & voip != 0 { return .voip }
    if mask & personalNumber != 0 { return .personalNumber }
    if mask & pager != 0 { return .pager }
    if mask & uan != 0 { return .uan }
    if mask & voicemail != 0 { return .voicemail }
    if mask & fixedLine != 0 {
      if region.sameMobileAndFixedLinePattern { return .fixedLineOrMobile }
      return mask & mobile != 0 ? .fixedLineOrMobile : .fixedLine
    }
    if !region.sameMobileAndFixedLinePattern && mask & mobile != 0 { return .mobile }
    return .unknown
  }

  /// Whether the region has a `leading_digits` pattern.
  var hasLeadingDigits: Bool { region.leadingDigits != nil }

  /// Whether `leading_digits` matches at the start of `digits` (Python's
  /// `re.match`).
  @inline(__always)
  func leadingDigitsMatch(_ digits: UnsafeBufferPointer<UInt8>) -> Bool {
    if let leadingDigits { return leadingDigits.matchesPrefix(digits) }
    guard let pattern = region.leadingDigits else { return false }
    return withUnsafeTemporaryAllocation(of: Int.self, capacity: pattern.captureSlotCount) { slots in
      pattern.prefixMatchEnd(digits, captures: slots.baseAddress!) >= 0
    }
  }
}
