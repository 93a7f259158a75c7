/// ``PhoneNumberNormalizer/normalize(utf8:region:writtenNationally:)`` for
/// a worker that reads many numbers of one region in a row: it remembers
/// how the numbers it resolved were read, and reads a number alike in that
/// from its digits alone.
///
/// Once the byte fast path has the digits of a number and whether it
/// starts with `+`, the rest of `parse` often depends on no more than their
/// count and a few leading digits (see ``ResolutionShape``): `212 555 1234`
/// and `(646) 555-9876` in the US are both ten digits that neither start
/// with the international prefix `011`, nor the calling code `1`, nor the
/// national prefix `1`, so both are `1` and their digits. The reader keeps
/// two such shapes per digit count, `+` and first two digits (the two
/// learnt last); a number that matches one costs a comparison or two and
/// its value. Shapes are kept only after `resolve`'s own answer has been
/// checked against them. Shapes alike but for their last deciding digit
/// are kept as one: `+44 20 …` and `+44 7700 …` are both `44` and their
/// digits after `+44`, which the third digit decides (it is not the
/// national prefix `0`, nor the `1` of `180020`).
/// `FormattedNumberReaderTests` checks the reader against the normalizer.
public final class FormattedNumberReader {
  /// One remembered shape: the digit count and `+` it holds for (`tag`,
  /// -1 for an empty slot), its deciding digits but the last as bytes of
  /// the first eight digits' word, with the mask that keeps them, and the
  /// last deciding digit's place and the digits it may be (bit d for d).
  private struct Memory: Equatable {
    var prefix: UInt64 = 0
    var mask: UInt64 = 0
    var tag: Int32 = -1
    var callingCode: Int16 = 0
    var skip: UInt8 = 0
    var national = false
    var lastPlace: UInt8 = 0
    var lastDigits: UInt16 = 0
  }

  private let normalizer: PhoneNumberNormalizer
  private let region: RegionMetadata?
  private let hasRegion: Bool
  /// Two shapes (ways) per slot, the one learnt last first.
  private let memories: UnsafeMutablePointer<Memory>
  /// Slots by digit count (0 to 16), `+` and the first two digits.
  private static let slots = 17 * 2 * 100
  private static let ways = 2

  /// A reader of numbers written without a country code as numbers of
  /// `region` (none: only numbers with `+` can be read).
  public init(_ normalizer: PhoneNumberNormalizer, region: RegionMetadata?) {
    self.normalizer = normalizer
    self.region = region
    hasRegion = region != nil
    memories = .allocate(capacity: Self.slots &* Self.ways)
    memories.initialize(repeating: Memory(), count: Self.slots &* Self.ways)
  }

  deinit { memories.deallocate() }

  /// Whether the reader reads as `normalizer` does with `region` (the same
  /// plan and the same region object), so that what it remembers holds.
  public func reads(for normalizer: PhoneNumberNormalizer, region: RegionMetadata?) -> Bool {
    normalizer.plan.mainCores === self.normalizer.plan.mainCores && region === self.region
  }

  /// How many shapes the reader remembers.
  var rememberedShapes: Int {
    (0..<Self.slots &* Self.ways).reduce(0) { $0 + (memories[$1].tag >= 0 ? 1 : 0) }
  }

  /// What ``PhoneNumberNormalizer/normalize(utf8:region:writtenNationally:)``
  /// answers for `utf8` and the reader's region.
  public func normalize(
    utf8: UnsafeBufferPointer<UInt8>, writtenNationally: inout Bool
  ) -> Result<Int64, NormalizationRejection> {
    var national = false
    let packed = withUnsafeMutablePointer(to: &national) { packedOutcome(utf8: utf8, national: $0) }
    writtenNationally = national
    return PackedOutcome.result(packed)
  }

  /// The packed outcome, as ``PhoneNumberNormalizer/packedOutcome(utf8:region:national:)``
  /// gives it (`national`, when given, must be false on entry). The byte
  /// fast path answers whatever the exact E.164 path would, alike. Only the shapes
  /// are read on the way to an answer the reader remembers: the
  /// normalizer and the region, which every worker shares, are touched
  /// (and counted) only past it.
  @inline(__always)
  func packedOutcome(utf8: UnsafeBufferPointer<UInt8>, national: UnsafeMutablePointer<Bool>? = nil) -> Int64 {
    let memories = self.memories
    let fast = PhoneNumberNormalizer.fastPackedOutcome(utf8: utf8, hasRegion: hasRegion) { digits, startsWithPlus in
      let count = digits.count
      guard count >= 2 && count <= 16, let base = digits.baseAddress else {
        return resolve(digits, startsWithPlus: startsWithPlus, national: national)
      }
      let (tag, slot) = Self.slot(base, count: count, startsWithPlus: startsWithPlus)
      var memory = memories[slot &* Self.ways]
      if !Self.recalls(memory, tag: tag, base, count) {
        memory = memories[slot &* Self.ways &+ 1]
        guard Self.recalls(memory, tag: tag, base, count) else {
          return resolve(digits, startsWithPlus: startsWithPlus, national: national)
        }
      }
      if memory.national { national?.pointee = true }
      return Self.number(callingCode: Int(memory.callingCode), skip: Int(memory.skip), base, count)
    }
    if fast != PackedOutcome.notHandled { return fast }
    return afterFastPath(utf8, national: national)
  }

  @inline(never)
  private func afterFastPath(_ utf8: UnsafeBufferPointer<UInt8>, national: UnsafeMutablePointer<Bool>?) -> Int64 {
    normalizer.packedOutcomeAfterFastPath(utf8: utf8, region: region, national: national)
  }

  /// `resolve`'s answer for `digits`, whose shape is then remembered when
  /// it has one.
  @inline(never)
  private func resolve(
    _ digits: UnsafeBufferPointer<UInt8>, startsWithPlus: Bool, national: UnsafeMutablePointer<Bool>?
  ) -> Int64 {
    var writtenNationally = false
    let packed = normalizer.resolve(digits, startsWithPlus: startsWithPlus, region: region, national: &writtenNationally)
    if writtenNationally { national?.pointee = true }
    let count = digits.count
    guard packed >= 0, count >= 2 && count <= 16, let base = digits.baseAddress,
      let shape = normalizer.resolutionShape(digits, startsWithPlus: startsWithPlus, region: region),
      shape.deciding <= 8, shape.national == writtenNationally
    else { return packed }
    let (tag, slot) = Self.slot(base, count: count, startsWithPlus: startsWithPlus)
    // Kept only when it gives `resolve`'s answer.
    guard Self.number(callingCode: shape.callingCode, skip: shape.skip, base, count) == packed else { return packed }
    // The deciding digits but the last (at least 1 of 2 or more digits).
    let leading = max(min(shape.deciding, count) &- 1, 0)
    let mask: UInt64 = (1 << UInt64(8 &* leading)) &- 1
    let memory = Memory(
      prefix: Self.leadingWord(base, count) & mask, mask: mask, tag: Int32(tag),
      callingCode: Int16(shape.callingCode), skip: UInt8(shape.skip), national: shape.national,
      lastPlace: UInt8(leading), lastDigits: shape.deciding == 0 ? 0x3FF : 1 &<< UInt16(base[leading]))
    let ways = memories + slot &* Self.ways
    for way in 0..<Self.ways {
      // A shape alike but for the last deciding digit: keep both digits.
      var previous = ways[way]
      previous.lastDigits = memory.lastDigits
      if previous == memory {
        ways[way].lastDigits |= memory.lastDigits
        return packed
      }
    }
    // The older way makes room.
    ways[1] = ways[0]
    ways[0] = memory
    return packed
  }

  /// Whether `memory` reads the `count` digits at `base` (tagged `tag`).
  @inline(__always)
  private static func recalls(_ memory: Memory, tag: Int, _ base: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    memory.tag == tag && leadingWord(base, count) & memory.mask == memory.prefix
      && memory.lastDigits & (1 &<< UInt16(base[Int(memory.lastPlace)] & 15)) != 0
  }

  /// Whether a remembered shape reads `digits` (values 0–9, 2 to 16 of
  /// them) with or without `+`.
  func recalls(_ digits: [UInt8], startsWithPlus: Bool) -> Bool {
    guard digits.count >= 2 && digits.count <= 16 else { return false }
    return digits.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return false }
      let (tag, slot) = Self.slot(base, count: buffer.count, startsWithPlus: startsWithPlus)
      return (0..<Self.ways).contains { Self.recalls(memories[slot &* Self.ways &+ $0], tag: tag, base, buffer.count) }
    }
  }

  /// The tag of `count` digits at `base` (at least 2) with or without `+`,
  /// and the slot of their shape.
  @inline(__always)
  private static func slot(_ base: UnsafePointer<UInt8>, count: Int, startsWithPlus: Bool) -> (tag: Int, slot: Int) {
    let tag = count &* 2 &+ (startsWithPlus ? 1 : 0)
    return (tag, tag &* 100 &+ Int(base[0]) &* 10 &+ Int(base[1]))
  }

  /// The number a shape reads from `count` digits at `base`: `callingCode`
  /// followed by the digits from `skip` on.
  @inline(__always)
  private static func number(callingCode: Int, skip: Int, _ base: UnsafePointer<UInt8>, _ count: Int) -> Int64 {
    PhoneNumberNormalizer.joining(Int64(callingCode), UnsafeBufferPointer(start: base + skip, count: count &- skip))
  }

  /// The first eight of `count` digits (fewer: zeros after them), one to
  /// a byte, the first in the lowest.
  @inline(__always)
  private static func leadingWord(_ base: UnsafePointer<UInt8>, _ count: Int) -> UInt64 {
    if count >= 8 { return UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(as: UInt64.self)) }
    var word: UInt64 = 0
    for index in 0..<count { word |= UInt64(base[index]) << UInt64(8 &* index) }
    return word
  }
}

@available(*, unavailable)
extension FormattedNumberReader: Sendable {}
