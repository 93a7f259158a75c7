/// The facts the normalizer's hot path needs about a region, as plain
/// values behind a pointer: reading them costs no reference counting, which
/// matters at tens of nanoseconds per number, and more so when several
/// threads would otherwise contend on the same object's reference count.
///
/// Each `RegionMetadata` owns one (`core`), valid for the metadata's lifetime;
/// patterns that are not plain digit strings, and transform rules, are still
/// reached through `owner`.
struct RegionCore {
  /// The country calling code and its number of digits.
  let callingCode: Int
  let callingCodeDigitCount: Int
  /// Whether the owner is the main region of its calling code.
  let isMainRegion: Bool
  let internationalPrefixScreen: PrefixScreen
  let nationalPrefixScreen: PrefixScreen
  let possibleLengthBits: UInt64
  let localOnlyLengthBits: UInt64
  let minimumLength: Int
  let maximumLength: Int
  /// The metadata this core belongs to (unretained: it owns the core).
  let owner: Unmanaged<RegionMetadata>

  /// libphonenumber's `_test_number_length` for the unknown number type.
  @inline(__always)
  func lengthCheck(_ length: Int) -> RegionMetadata.LengthCheck {
    let bit: UInt64 = length >= 0 && length < 64 ? 1 << UInt64(length) : 0
    if localOnlyLengthBits & bit != 0 { return .possibleLocalOnly }
    guard minimumLength >= 0 else { return .invalidLength }
    if length == minimumLength { return .possible }
    if length < minimumLength { return .tooShort }
    if length > maximumLength { return .tooLong }
    return possibleLengthBits & bit != 0 ? .possible : .invalidLength
  }

  /// `RegionMetadata.matchesGeneralPattern`.
  @inline(__always)
  func matchesGeneralPattern(_ digits: UnsafeBufferPointer<UInt8>) -> Bool {
    owner._withUnsafeGuaranteedRef { $0.generalAutomaton.fullMatch(digits) }
  }

  /// `RegionMetadata.internationalPrefixEnd`.
  @inline(__always)
  func internationalPrefixEnd(_ digits: UnsafeBufferPointer<UInt8>) -> Int {
    let screen = internationalPrefixScreen
    switch screen.kind {
    case .none: return -1
    case .literal: return screen.literalMatchEnd(digits)
    case .pattern:
      if screen.excludes(digits) { return -1 }
      return owner._withUnsafeGuaranteedRef { $0.internationalPrefixPatternEnd(digits) }
    }
  }

  /// Whether `digits` start with the calling code.
  @inline(__always)
  func startsWithCallingCode(_ digits: UnsafeBufferPointer<UInt8>) -> Bool {
    let count = callingCodeDigitCount
    guard digits.count >= count else { return false }
    var value = 0
    for index in 0..<count { value = value &* 10 &+ Int(digits[index]) }
    // A leading 0 would make a shorter code, which the digit count rules out.
    return value == callingCode && digits[0] != 0
  }
}

/// The cores of a plan's main regions, indexed by calling code (0...999),
/// as a plain table.
final class MainCoreTable: Sendable {
  nonisolated(unsafe) let cores: UnsafeMutablePointer<UnsafePointer<RegionCore>?>

  init(_ mains: [Int: RegionMetadata]) {
    cores = .allocate(capacity: 1000)
    cores.initialize(repeating: nil, count: 1000)
    for (code, region) in mains where code >= 0 && code < 1000 { cores[code] = UnsafePointer(region.core) }
  }

  deinit { cores.deallocate() }
}
