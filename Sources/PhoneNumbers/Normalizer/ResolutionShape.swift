/// How ``PhoneNumberNormalizer/resolve(_:startsWithPlus:region:national:)``
/// read a digit string whose answer follows from its length, its leading
/// `+` and its first `deciding` digits alone: every digit string alike in
/// those is the number `callingCode` followed by its digits from `skip` on.
struct ResolutionShape {
  /// How many leading digits the answer depends on.
  let deciding: Int
  let callingCode: Int
  /// The digits before the national significant number (a calling code
  /// written without `+`, an international prefix, a national prefix), or
  /// none.
  let skip: Int
  /// Whether the digits were read as a national number of the region.
  let national: Bool
}

extension PhoneNumberNormalizer {
  /// The shape of ``resolve(_:startsWithPlus:region:national:)``'s answer
  /// for `digits`, when it is a number decided by their length, their `+`
  /// and a few leading digits. Nil otherwise. It follows `resolve` step by
  /// step:
  ///
  /// - A prefix pattern (international or national) decides by the digits
  ///   its run reads, and the length: a run reads the same digits, and so
  ///   takes the same steps, for every digit string that has them.
  /// - A national prefix is stripped whatever follows only when no digit
  ///   string starting alike fits the region's general pattern as written
  ///   (the automaton dies within the deciding digits), and when no
  ///   transform rule rewrites the number.
  /// - Every length check passes.
  ///
  /// A reader that remembers shapes checks each against `resolve`'s own
  /// answer before keeping it.
  func resolutionShape(
    _ digits: UnsafeBufferPointer<UInt8>, startsWithPlus: Bool, region: RegionMetadata?
  ) -> ResolutionShape? {
    let mains = plan.mainCores.cores
    let count = digits.count
    if startsWithPlus { return Self.internationalShape(digits, after: 0, reads: 0, mains: mains) }
    guard let region = region.map({ UnsafePointer($0.core) }),
      let international = Self.prefixTrace(digits, core: region, national: false)
    else { return nil }
    if international.end >= 0 {
      // Dialled with the region's international prefix: the calling code
      // follows it.
      return Self.internationalShape(digits, after: international.end, reads: international.reads, mains: mains)
    }
    let codeDigits = region.pointee.callingCodeDigitCount
    let deciding = max(international.reads, codeDigits)
    if region.pointee.startsWithCallingCode(digits) {
      // The region's own code, taken whatever the patterns say only when
      // the digits are too long for the region as written.
      let code = region.pointee.callingCode
      guard region.pointee.lengthCheck(count) == .tooLong, code < 1000, let main = mains[code] else { return nil }
      let national = UnsafeBufferPointer(rebasing: digits[codeDigits...])
      guard let first = Self.digitsRulingOut(region.pointee.nationalPrefixScreen, national),
        let second = Self.digitsRulingOut(main.pointee.nationalPrefixScreen, national),
        Self.composes(national.count, main: main)
      else { return nil }
      return ResolutionShape(
        deciding: max(deciding, codeDigits &+ max(first, second)), callingCode: code, skip: codeDigits,
        national: false)
    }
    let code = region.pointee.callingCode
    guard code < 1000, let main = region.pointee.isMainRegion ? region : mains[code],
      let stripping = Self.nationalShape(digits, core: region, main: main)
    else { return nil }
    return ResolutionShape(
      deciding: max(deciding, stripping.deciding), callingCode: code, skip: stripping.skip, national: true)
  }

  /// The shape of a number written internationally, its calling code
  /// starting at `offset` (after `+`, or after the region's international
  /// prefix, whose run read `reads` digits): `extractCallingCode`'s first
  /// known code of 1 to 3 digits (never starting with 0, with more than two
  /// digits from it), then a national number of that code.
  private static func internationalShape(
    _ digits: UnsafeBufferPointer<UInt8>, after offset: Int, reads: Int,
    mains: UnsafeMutablePointer<UnsafePointer<RegionCore>?>
  ) -> ResolutionShape? {
    let rest = UnsafeBufferPointer(rebasing: digits[offset...])
    guard rest.count > 2, rest[0] != 0 else { return nil }
    var code = 0
    for length in 1...3 {
      code = code &* 10 &+ Int(rest[length &- 1])
      guard let main = mains[code] else { continue }
      let start = offset &+ length
      guard let stripping = nationalShape(UnsafeBufferPointer(rebasing: rest[length...]), core: main, main: main)
      else { return nil }
      return ResolutionShape(
        deciding: max(reads, start &+ stripping.deciding), callingCode: code, skip: start &+ stripping.skip,
        national: false)
    }
    return nil
  }

  /// How `resolve` reads `national`, the digits after any calling code, in
  /// the region of `core` (whose main region is `main`): how many leading
  /// digits decide it and how many it strips as a national prefix, for
  /// every digit string of that length that has those digits; nil when
  /// that is not so, or when a length check fails.
  private static func nationalShape(
    _ national: UnsafeBufferPointer<UInt8>, core: UnsafePointer<RegionCore>, main: UnsafePointer<RegionCore>
  ) -> (deciding: Int, skip: Int)? {
    guard let prefix = prefixTrace(national, core: core, national: true) else { return nil }
    guard prefix.end > 0 else {
      return composes(national.count, main: main) ? (prefix.reads, 0) : nil
    }
    // Stripped whatever follows: no digit string starting alike fits the
    // general pattern unstripped, and what is left has a possible length.
    let count = national.count &- prefix.end
    guard
      let ruledOut = core.pointee.owner._withUnsafeGuaranteedRef({
        $0.generalAutomaton.digitsRulingOutMatch(UnsafeBufferPointer(rebasing: national.prefix(8)))
      }),
      core.pointee.lengthCheck(count) == .possible, composes(count, main: main)
    else { return nil }
    return (max(prefix.reads, ruledOut), prefix.end)
  }

  /// Where a prefix pattern matches at the start of some digits (`end`,
  /// -1 for nowhere) and how many leading digits decide that (`reads`).
  private struct PrefixTrace {
    var end: Int
    var reads: Int
  }

  /// How the region of `core`'s national prefix (or international prefix)
  /// matches at the start of `digits`, running its pattern when the
  /// screen cannot tell. Nil when that run cannot be traced, or when a
  /// national-prefix transform would rewrite the number (the pattern's
  /// last group took part).
  private static func prefixTrace(
    _ digits: UnsafeBufferPointer<UInt8>, core: UnsafePointer<RegionCore>, national: Bool
  ) -> PrefixTrace? {
    let screen = national ? core.pointee.nationalPrefixScreen : core.pointee.internationalPrefixScreen
    switch screen.kind {
    case .none:
      return PrefixTrace(end: -1, reads: 0)
    case .literal:
      if let ruledOut = digitsRulingOut(screen, digits) { return PrefixTrace(end: -1, reads: ruledOut) }
      return PrefixTrace(end: screen.literalCount, reads: screen.literalCount)
    case .pattern:
      if screen.excludes(digits) { return PrefixTrace(end: -1, reads: min(1, digits.count)) }
      return core.pointee.owner._withUnsafeGuaranteedRef { metadata in
        guard let pattern = national ? metadata.nationalPrefixForParsing : metadata.internationalPrefix else {
          return nil
        }
        let transforms = national && metadata.nationalPrefixTransform != nil
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: pattern.captureSlotCount) { slots in
          guard let captures = slots.baseAddress, let run = pattern.tracedPrefixMatchEnd(digits, captures: captures)
          else { return nil }
          let group = pattern.groupCount
          if transforms && run.end >= 0 && group > 0 && captures[2 &* group] >= 0
            && captures[2 &* group &+ 1] >= captures[2 &* group]
          {
            return nil
          }
          return PrefixTrace(end: run.end, reads: run.reads)
        }
      }
    }
  }

  /// How many leading digits of `digits` show that `screen`'s prefix does
  /// not match at their start (the first that differs from a plain prefix,
  /// the first digit for a pattern that cannot start with it; none when the
  /// length alone tells), or nil when it matches or its pattern must run.
  @inline(__always)
  private static func digitsRulingOut(_ screen: PrefixScreen, _ digits: UnsafeBufferPointer<UInt8>) -> Int? {
    switch screen.kind {
    case .none:
      return 0
    case .literal:
      guard digits.count >= screen.literalCount else { return 0 }
      var packed = screen.literalDigits
      for index in 0..<screen.literalCount {
        if UInt64(digits[index]) != packed & 15 { return index &+ 1 }
        packed >>= 4
      }
      return nil
    case .pattern:
      return screen.excludes(digits) ? min(1, digits.count) : nil
    }
  }

  /// Whether a national significant number of `count` digits passes the
  /// length checks of `resolve` and `compose` and fits the shape's
  /// arithmetic (at most 15 digits after a code below 1000).
  @inline(__always)
  private static func composes(_ count: Int, main: UnsafePointer<RegionCore>) -> Bool {
    guard count >= 2 && count <= 15 else { return false }
    switch main.pointee.lengthCheck(count) {
    case .possible, .possibleLocalOnly: return true
    case .tooShort, .tooLong, .invalidLength: return false
    }
  }
}
