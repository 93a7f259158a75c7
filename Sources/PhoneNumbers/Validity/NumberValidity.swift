/// libphonenumber's verdict on a possible number: `is_valid_number`,
/// `number_type` and `region_code_for_number`.
///
///     let plan = NumberingPlan.standard
///     plan.validity(of: 41_446_681_800)    // fixedLine in CH, valid
///     plan.validity(of: 60_880_816)        // unknown in MY: not valid
public struct NumberValidity: Sendable, Hashable, CustomStringConvertible {
  /// The number's type; ``PhoneNumberType/unknown`` for an invalid number.
  public let type: PhoneNumberType
  /// The region code's ASCII bytes, packed (``pack(_:)``): the verdict is
  /// made per number, so it carries no String.
  let packedRegion: UInt32
  /// Whether libphonenumber's `region_code_for_number` finds the region
  /// (false only for the case ``regionCode`` describes).
  public let isRegionResolved: Bool

  /// Creates a verdict. `regionCode` has at most four ASCII characters.
  public init(type: PhoneNumberType, regionCode: String, isRegionResolved: Bool = true) {
    self.init(type: type, packedRegion: Self.pack(regionCode), isRegionResolved: isRegionResolved)
  }

  @inline(__always)
  init(type: PhoneNumberType, packedRegion: UInt32, isRegionResolved: Bool = true) {
    self.type = type
    self.packedRegion = packedRegion
    self.isRegionResolved = isRegionResolved
  }

  /// The region the number belongs to (`001` for a non-geographic calling
  /// code such as +800). For a calling code several regions share, a number
  /// that none of them claims (an invalid +1 number that fits no NANP
  /// region) gets the calling code's main region, with ``isRegionResolved``
  /// false.
  public var regionCode: String {
    String(decoding: regionCodeBytes, as: UTF8.self)
  }

  /// ``regionCode`` as ASCII bytes.
  var regionCodeBytes: [UInt8] {
    var bytes: [UInt8] = []
    var rest = packedRegion
    while rest != 0 {
      bytes.append(UInt8(truncatingIfNeeded: rest))
      rest >>= 8
    }
    return bytes
  }

  /// Up to four ASCII bytes of `code`, first in the lowest byte.
  static func pack(_ code: String) -> UInt32 {
    var packed: UInt32 = 0
    for (index, byte) in code.utf8.prefix(4).enumerated() { packed |= UInt32(byte) << UInt32(8 * index) }
    return packed
  }

  /// Whether the number is valid (libphonenumber's `is_valid_number`): its
  /// region is known and it fits one of the region's number types.
  @inline(__always)
  public var isValid: Bool { type != .unknown }

  /// The reason a build or `normalize --valid` gives for an invalid number:
  /// `invalid for region CH`.
  public var invalidReason: String { "invalid for region \(regionCode)" }

  public var description: String { isValid ? "\(type) in \(regionCode)" : invalidReason }
}

extension NumberValidity {
  /// The verdict as one word, for loops that keep many (0 stands for no
  /// verdict): bit 63 set, the type's index in bits 32–35, bit 36 for a
  /// resolved region, the packed region in the low 32 bits.
  @inline(__always)
  static func word(typeIndex: Int, packedRegion: UInt32, isRegionResolved: Bool) -> UInt64 {
    1 << 63 | UInt64(typeIndex & 15) << 32 | (isRegionResolved ? 1 << 36 : 0) | UInt64(packedRegion)
  }

  @inline(__always)
  var word: UInt64 {
    Self.word(typeIndex: type.index, packedRegion: packedRegion, isRegionResolved: isRegionResolved)
  }

  /// The verdict a ``word`` stands for, nil for 0.
  @inline(__always)
  init?(word: UInt64) {
    guard word != 0 else { return nil }
    self.init(
      type: PhoneNumberType(index: Int(word >> 32 & 15)), packedRegion: UInt32(truncatingIfNeeded: word),
      isRegionResolved: word & 1 << 36 != 0)
  }

  /// Whether the verdict of a (non-zero) ``word`` is valid.
  @inline(__always)
  static func isValid(word: UInt64) -> Bool {
    word != 0 && Int(word >> 32 & 15) != PhoneNumberType.unknown.index
  }
}
