/// One region's number types compiled for libphonenumber's
/// `_number_type_helper`: one automaton over the general pattern and every
/// type pattern together, so a national number is classified in a single
/// pass over its digits plus a few bit tests.
///
/// The hot fields live in ``TypeCore``, plain values behind a pointer (no
/// reference counting per number, as ``RegionCore``); this object owns the
/// automata they point into.
final class RegionClassifier: Sendable {
  let region: RegionMetadata
  /// Bit i of a match mask stands for `patterns[i]`: 0 is the general
  /// pattern, then the region's type patterns.
  let automaton: DigitAutomaton?
  /// Used one by one when the combined automaton would be too large.
  private let separate: [DigitAutomaton?]
  private let patterns: [DigitPattern]
  /// `leading_digits` as an automaton whose accepting states mark a
  /// matching prefix.
  let leadingDigits: DigitAutomaton?
  nonisolated(unsafe) let core: UnsafeMutablePointer<TypeCore>
  /// `TypeCore.lengthMasks`, owned here.
  private nonisolated(unsafe) let lengthMaskStorage: UnsafeMutablePointer<UInt16>

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
    let automaton = patterns.isEmpty ? nil : DigitAutomaton(patterns: patterns)
    self.automaton = automaton
    self.separate = automaton == nil ? patterns.map { DigitAutomaton($0) } : []
    let leadingDigits = region.leadingDigits.flatMap { DigitAutomaton($0) }
    self.leadingDigits = leadingDigits
    var lengthMasks = [UInt16](repeating: 0, count: TypeCore.lengthLimit)
    for length in lengthMasks.indices {
      for (index, allowed) in lengths.enumerated() where allowed == 0 || allowed & (1 << UInt64(length)) != 0 {
        lengthMasks[length] |= 1 << UInt16(index)
      }
    }
    lengthMaskStorage = .allocate(capacity: TypeCore.lengthLimit)
    lengthMaskStorage.initialize(from: lengthMasks, count: TypeCore.lengthLimit)
    core = .allocate(capacity: 1)
    core.initialize(to: TypeCore(
      transitions: automaton.map { UnsafePointer($0.totalTransitionTable) },
      pairTransitions: automaton?.pairTransitionTable.map { UnsafePointer($0) },
      matchMasks: automaton.map { UnsafePointer($0.matchMaskTable) },
      lengthMasks: UnsafePointer(lengthMaskStorage),
      premiumRate: bits[.premiumRate] ?? 0, tollFree: bits[.tollFree] ?? 0, sharedCost: bits[.sharedCost] ?? 0,
      voip: bits[.voip] ?? 0, personalNumber: bits[.personalNumber] ?? 0, pager: bits[.pager] ?? 0,
      uan: bits[.uan] ?? 0, voicemail: bits[.voicemail] ?? 0, fixedLine: bits[.fixedLine] ?? 0,
      mobile: bits[.mobile] ?? 0, sameMobileAndFixedLine: region.sameMobileAndFixedLinePattern,
      hasLeadingDigits: region.leadingDigits != nil,
      leadingTransitions: leadingDigits.map { UnsafePointer($0.transitionTable) },
      leadingAccepting: leadingDigits.map { UnsafePointer($0.acceptingTable) },
      packedRegion: NumberValidity.pack(region.regionCode),
      owner: .passUnretained(self)))
  }

  deinit {
    core.deinitialize(count: 1)
    core.deallocate()
    lengthMaskStorage.deallocate()
  }

  /// `TypeCore.matchMask` without the combined automaton: pattern by pattern.
  func separateMatchMask(_ digits: UnsafeBufferPointer<UInt8>, lengthMask: UInt16) -> UInt16 {
    var mask: UInt16 = 0
    for index in patterns.indices where lengthMask & (1 << UInt16(index)) != 0 {
      let matches = separate[index]?.fullMatch(digits) ?? patterns[index].fullMatch(digits)
      if matches { mask |= 1 << UInt16(index) } else if index == 0 { return 0 }
    }
    return mask
  }

  /// Whether some pattern of the region may match a number starting with
  /// `prefix` (false: the combined automaton is dead after it).
  func mayMatchSomeType(startingWith prefix: [UInt8]) -> Bool {
    guard let automaton else { return true }
    return automaton.isLive(after: prefix)
  }

  /// `leading_digits` by backtracking, when its automaton could not be built.
  func leadingDigitsPatternMatch(_ digits: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let pattern = region.leadingDigits else { return false }
    return withUnsafeTemporaryAllocation(of: Int.self, capacity: pattern.captureSlotCount) { slots in
      pattern.prefixMatchEnd(digits, captures: slots.baseAddress!) >= 0
    }
  }
}

/// A ``RegionClassifier``'s facts as plain values for the hot path.
struct TypeCore {
  static let lengthLimit = 32
  /// The combined automaton's table with a dead state (no -1 entries).
  let transitions: UnsafePointer<Int32>?
  /// The combined automaton two digits per step, when it is small enough.
  let pairTransitions: UnsafePointer<UInt16>?
  let matchMasks: UnsafePointer<UInt16>?
  /// For each length 0..<32, the patterns whose possible lengths allow it (a
  /// pattern without lengths allows every length).
  let lengthMasks: UnsafePointer<UInt16>
  /// The mask bit of each type's pattern, 0 when the region lacks the type.
  let premiumRate, tollFree, sharedCost, voip, personalNumber, pager, uan, voicemail, fixedLine, mobile: UInt16
  let sameMobileAndFixedLine: Bool
  let hasLeadingDigits: Bool
  let leadingTransitions: UnsafePointer<Int32>?
  let leadingAccepting: UnsafePointer<Bool>?
  /// The region code, packed (``NumberValidity/pack(_:)``).
  let packedRegion: UInt32
  let owner: Unmanaged<RegionClassifier>

  /// Which patterns match all of `digits` with an allowed length (bit 0:
  /// the general description; 0 when it fails).
  @inline(__always)
  func matchMask(_ digits: UnsafeBufferPointer<UInt8>) -> UInt16 {
    guard digits.count < Self.lengthLimit else { return 0 }
    let lengthMask = lengthMasks[digits.count]
    // libphonenumber gives up at once when the general description fails.
    guard lengthMask & 1 != 0 else { return 0 }
    if let pairTransitions, let matchMasks {
      return DigitAutomaton.fullMatchMask(digits, pairTransitions: pairTransitions, matchMasks: matchMasks) & lengthMask
    }
    guard let transitions, let matchMasks else {
      return owner._withUnsafeGuaranteedRef { $0.separateMatchMask(digits, lengthMask: lengthMask) }
    }
    return DigitAutomaton.fullMatchMask(digits, totalTransitions: transitions, matchMasks: matchMasks) & lengthMask
  }

  /// libphonenumber's `_number_type_helper` for the national significant
  /// number `digits` (values 0–9).
  @inline(__always)
  func type(of digits: UnsafeBufferPointer<UInt8>) -> PhoneNumberType {
    type(forMask: matchMask(digits))
  }

  /// The type a number whose match mask (length mask applied) is `mask` has.
  @inline(__always)
  func type(forMask mask: UInt16) -> PhoneNumberType {
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
      if sameMobileAndFixedLine { return .fixedLineOrMobile }
      return mask & mobile != 0 ? .fixedLineOrMobile : .fixedLine
    }
    if !sameMobileAndFixedLine && mask & mobile != 0 { return .mobile }
    return .unknown
  }

  /// Whether `leading_digits` matches at the start of `digits` (Python's
  /// `re.match`).
  @inline(__always)
  func leadingDigitsMatch(_ digits: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let transitions = leadingTransitions, let accepting = leadingAccepting else {
      return owner._withUnsafeGuaranteedRef { $0.leadingDigitsPatternMatch(digits) }
    }
    return DigitAutomaton.matchesPrefix(digits, transitions: transitions, accepting: accepting)
  }

  /// Whether `leading_digits` may still match a number starting with
  /// `prefix` (it matched within it, or its automaton is not dead after it).
  func leadingDigitsMayMatch(startingWith prefix: [UInt8]) -> Bool {
    guard let transitions = leadingTransitions, let accepting = leadingAccepting else { return true }
    var state = 0
    if accepting[0] { return true }
    for digit in prefix {
      let next = transitions[state * 10 + Int(digit)]
      if next < 0 { return false }
      state = Int(next)
      if accepting[state] { return true }
    }
    return true
  }
}
