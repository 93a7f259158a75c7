/// One calling code's verdicts decided by the first four digits of a
/// national number of its most common length: for most numbers of most
/// codes, `is_valid_number`, `number_type` and `region_code_for_number`
/// in one table read instead of a walk through the regions' automata.
///
/// Each entry is what ``NumberClassifier`` would find by walking
/// (candidate regions, `leading_digits`, the type automata), computed
/// when the code compiles from what those automata decide after four
/// digits: an entry exists only where every number of that length with
/// that prefix gets the same verdict; elsewhere the classifier walks as
/// before (`ClassifierTablesTests` checks both ways agree).
struct VerdictTable {
  /// The national number length the table answers for.
  static let prefixDigits = 4
  static let entryCount = 10_000

  /// Packed verdicts by prefix (0: walk), owned by ``CallingCodeTypes``;
  /// two bytes each, so a code's table is 20 KB.
  let entries: UnsafeMutablePointer<UInt16>
  let length: Int

  /// Bit 15: an entry; bits 0–3: the type's index; bits 4–8: the
  /// region's position in the code's regions (fewer than 32); bit 9:
  /// region resolved.
  static func pack(type: PhoneNumberType, region: Int, resolved: Bool) -> UInt16 {
    1 << 15 | UInt16(type.index) | UInt16(region & 31) << 4 | (resolved ? 1 << 9 : 0)
  }

  /// The verdict of a packed entry (non-zero), the regions' cores given.
  @inline(__always)
  static func verdict(_ entry: UInt16, cores: UnsafeMutablePointer<TypeCore>) -> NumberValidity {
    NumberValidity(
      type: PhoneNumberType(index: Int(entry & 15)),
      packedRegion: cores[Int(entry >> 4 & 31)].packedRegion, isRegionResolved: entry & 1 << 9 != 0)
  }

  /// The entry index of `nationalNumber`'s first four digits (values
  /// 0–9), or nil when they are not four such digits.
  @inline(__always)
  static func index(_ nationalNumber: UnsafeBufferPointer<UInt8>) -> Int? {
    guard nationalNumber.count >= 4 else { return nil }
    let index = Int(nationalNumber[0]) &* 1000 &+ Int(nationalNumber[1]) &* 100 &+ Int(nationalNumber[2]) &* 10
      &+ Int(nationalNumber[3])
    return index < entryCount ? index : nil
  }

  /// Builds the table for the regions `classifiers` of one calling code
  /// (`candidates` as ``CallingCodeTypes/candidates``), or nil when the
  /// main region has no length of at least five digits.
  static func build(classifiers: [RegionClassifier], candidates: UnsafeMutablePointer<UInt32>?) -> VerdictTable? {
    guard let main = classifiers.first,
      let length = main.region.possibleLengths.last, length > prefixDigits, length < TypeCore.lengthLimit
    else { return nil }
    let deciders = classifiers.map { PrefixDecider($0, length: length) }
    let hasLeadingDigits = classifiers.map(\.core.pointee.hasLeadingDigits)
    let entries = UnsafeMutablePointer<UInt16>.allocate(capacity: entryCount)
    for index in 0..<entryCount {
      let bits = candidates.map { $0[index / 10] } ?? 1
      (entries + index).initialize(
        to: decided(prefix: index, deciders: deciders, hasLeadingDigits: hasLeadingDigits, candidates: bits) ?? 0)
    }
    return VerdictTable(entries: entries, length: length)
  }

  /// ``NumberClassifier``'s verdict for every number of the table's
  /// length starting with the four digits of `prefix` (an entry index),
  /// packed, or nil when the later digits decide.
  private static func decided(
    prefix: Int, deciders: [PrefixDecider], hasLeadingDigits: [Bool], candidates: UInt32
  ) -> UInt16? {
    let regions = deciders.count
    if regions == 1 {
      guard let type = deciders[0].decidedType(prefix: prefix) else { return nil }
      return pack(type: type, region: 0, resolved: true)
    }
    var bits = candidates
    while bits != 0 {
      let index = bits.trailingZeroBitCount
      bits &= bits &- 1
      guard index < regions else { break }
      if hasLeadingDigits[index] {
        guard let matches = deciders[index].leadingDigitsDecision(prefix: prefix) else { return nil }
        guard matches else { continue }
        guard let type = deciders[index].decidedType(prefix: prefix) else { return nil }
        return pack(type: type, region: index, resolved: true)
      }
      guard let type = deciders[index].decidedType(prefix: prefix) else { return nil }
      if type != .unknown { return pack(type: type, region: index, resolved: true) }
    }
    return pack(type: .unknown, region: 0, resolved: false)
  }
}

extension PhoneNumberType {
  /// The type whose ``index`` is `index` (``unknown`` past the last).
  @inline(__always)
  init(index: Int) {
    switch index {
    case 0: self = .fixedLine
    case 1: self = .mobile
    case 2: self = .fixedLineOrMobile
    case 3: self = .tollFree
    case 4: self = .premiumRate
    case 5: self = .sharedCost
    case 6: self = .voip
    case 7: self = .personalNumber
    case 8: self = .pager
    case 9: self = .uan
    case 10: self = .voicemail
    default: self = .unknown
    }
  }
}

/// One calling code's verdict table as the batch normalizer reads it, line
/// after line of the same code, without going back to the classifier's
/// per-code entry.
struct VerdictLookup {
  let entries: UnsafeMutablePointer<UInt16>
  let length: Int
  let regionWords: UnsafeMutablePointer<UInt64>

  /// The ``NumberValidity/word`` the table holds for `nationalNumber`
  /// (values 0–9), or 0 when it holds none.
  @inline(__always)
  func word(_ nationalNumber: UnsafeBufferPointer<UInt8>) -> UInt64 {
    guard nationalNumber.count == length, let index = VerdictTable.index(nationalNumber) else { return 0 }
    return word(atIndex: index)
  }

  /// The word of entry `index` (0..<``VerdictTable/entryCount``), or 0.
  @inline(__always)
  func word(atIndex index: Int) -> UInt64 {
    let entry = entries[index]
    guard entry != 0 else { return 0 }
    return regionWords[Int(entry >> 4 & 31)] | UInt64(entry & 15) << 32 | UInt64(entry >> 9 & 1) << 36
  }
}

/// The numbers of one calling code whose national number has its verdict
/// table's length, as a range of `Int64` values (the code's digits then
/// exactly `length` more): the verdict of such a number, as the
/// normalizer composed it, is a subtraction, a division by a constant and a
/// table read away, without writing its digits out.
///
/// Valid while the ``NumberClassifier`` it came from lives. (Sendable: the
/// tables it reads are the classifier's, never written once built.)
public struct VerdictBand: @unchecked Sendable {
  private var lowerBound: Int64 = 0
  private var upperBound: Int64 = 0
  /// `length - 4`: the digits after an entry's four.
  private var tailDigits = 0
  private var lookup: VerdictLookup?

  /// The empty band.
  public init() {}

  /// The band of `callingCode`, whose verdict table `lookup` is; empty when
  /// its numbers would not fit an `Int64`.
  init(callingCode: Int, lookup: VerdictLookup) {
    guard lookup.length > VerdictTable.prefixDigits, lookup.length <= 15 else { return }
    var scale: Int64 = 1
    for _ in 0..<lookup.length { scale *= 10 }
    lowerBound = Int64(callingCode) * scale
    upperBound = lowerBound + scale
    tailDigits = lookup.length - VerdictTable.prefixDigits
    self.lookup = lookup
  }

  /// Whether `number` is in the band.
  @inline(__always)
  func contains(_ number: Int64) -> Bool { number >= lowerBound && number < upperBound }

  /// What ``NumberClassifier/validity(of:)`` answers for `number`, when
  /// the table decides it; nil when the number is outside the band or its
  /// verdict needs the walk (ask the classifier then).
  @inline(__always)
  public func validity(of number: Int64) -> NumberValidity? {
    NumberValidity(word: word(number))
  }

  /// The ``NumberValidity/word`` the table holds for `number`, or 0 when
  /// it is outside the band or its entry leaves the verdict to the walk.
  @inline(__always)
  func word(_ number: Int64) -> UInt64 {
    guard contains(number), let lookup else { return 0 }
    let national = UInt64(number &- lowerBound)
    // A constant divisor per case: a multiplication, not a division.
    let index: UInt64
    switch tailDigits {
    case 1: index = national / 10
    case 2: index = national / 100
    case 3: index = national / 1_000
    case 4: index = national / 10_000
    case 5: index = national / 100_000
    case 6: index = national / 1_000_000
    case 7: index = national / 10_000_000
    case 8: index = national / 100_000_000
    case 9: index = national / 1_000_000_000
    case 10: index = national / 10_000_000_000
    default: index = national / 100_000_000_000
    }
    return lookup.word(atIndex: Int(index))
  }
}
