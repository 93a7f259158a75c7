#if os(Linux)
  import CHardwareCRC
#endif

/// CRC-32C (Castagnoli, reflected polynomial `0x82F63B78`), as used by
/// iSCSI (RFC 3720) and ext4: with the CPU's CRC-32C instruction where
/// calldir runs on Linux (SSE4.2, or AArch64's CRC32 extension), in pure
/// Swift with slicing-by-16 tables elsewhere (slicing-by-8 for an 8-byte
/// tail). Both give the same values.
///
/// Streaming use: create, call ``update(_:)`` any number of times, read
/// ``value``. The initial register is `0xFFFFFFFF` and the result is the
/// register complemented, so `CRC32C.checksum("123456789")` is `0xE3069283`.
public struct CRC32C: Sendable {
  private var register: UInt32 = 0xFFFF_FFFF

  public init() {}

  /// The checksum of the bytes seen so far.
  public var value: UInt32 { ~register }

  /// Feeds `bytes` into the checksum.
  public mutating func update(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress else { return }
    register = CRC32C._update(register, base, bytes.count)
  }

  /// Feeds the four little-endian bytes of `word` into the checksum.
  mutating func update(littleEndian word: UInt32) {
    withUnsafeBytes(of: word.littleEndian) { update($0) }
  }

  /// The checksum of `bytes`.
  static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    var crc = CRC32C()
    crc.update(bytes)
    return crc.value
  }

  /// The checksum of a byte collection.
  static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
    let array = Array(bytes)
    return array.withUnsafeBytes { checksum($0) }
  }

  /// The checksum of bytes `A` followed by bytes `B`, from the checksum of
  /// `A`, the checksum of `B` and `B`'s length: pieces of one input can be
  /// checksummed apart (on several cores) and joined in order.
  /// - Complexity: O(log `secondLength`).
  public static func combine(_ first: UInt32, _ second: UInt32, secondLength: Int) -> UInt32 {
    // Both checksums start from all ones and end complemented, so the ones
    // cancel: the result is `first` moved past `secondLength` zero bytes,
    // plus `second` (addition in GF(2) is exclusive or).
    guard secondLength > 0 else { return first }
    return _CRCPolynomial.multiply(_CRCPolynomial.zerosFactor(byteCount: secondLength), first) ^ second
  }

  /// Whether ``update(_:)`` runs on the CPU's CRC-32C instruction.
  public static var isHardwareAccelerated: Bool { _hardware }

  private static func _update(
    _ start: UInt32, _ base: UnsafeRawPointer, _ count: Int
  ) -> UInt32 {
    #if os(Linux)
      if _hardware { return chardwarecrc_update(start, base, count) }
    #endif
    return _tableUpdate(start, base, count)
  }

  /// The register after `count` bytes at `base`, from the tables alone.
  static func _tableUpdate(
    _ start: UInt32, _ base: UnsafeRawPointer, _ count: Int
  ) -> UInt32 {
    _crc32cTables.withUnsafeBufferPointer { tables -> UInt32 in
      guard let t = tables.baseAddress else { return start }
      var crc = start
      var p = base
      var left = count
      while left >= 16 {
        let a = UInt32(littleEndian: p.loadUnaligned(as: UInt32.self)) ^ crc
        let b = UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        let c = UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
        let d = UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
        let ab = t[15 &* 256 &+ Int(a & 0xFF)]
          ^ t[14 &* 256 &+ Int((a &>> 8) & 0xFF)]
          ^ t[13 &* 256 &+ Int((a &>> 16) & 0xFF)]
          ^ t[12 &* 256 &+ Int(a &>> 24)]
          ^ t[11 &* 256 &+ Int(b & 0xFF)]
          ^ t[10 &* 256 &+ Int((b &>> 8) & 0xFF)]
          ^ t[9 &* 256 &+ Int((b &>> 16) & 0xFF)]
          ^ t[8 &* 256 &+ Int(b &>> 24)]
        let cd = t[7 &* 256 &+ Int(c & 0xFF)]
          ^ t[6 &* 256 &+ Int((c &>> 8) & 0xFF)]
          ^ t[5 &* 256 &+ Int((c &>> 16) & 0xFF)]
          ^ t[4 &* 256 &+ Int(c &>> 24)]
          ^ t[3 &* 256 &+ Int(d & 0xFF)]
          ^ t[2 &* 256 &+ Int((d &>> 8) & 0xFF)]
          ^ t[1 &* 256 &+ Int((d &>> 16) & 0xFF)]
          ^ t[Int(d &>> 24)]
        crc = ab ^ cd
        p += 16
        left &-= 16
      }
      while left >= 8 {
        let lo = UInt32(littleEndian: p.loadUnaligned(as: UInt32.self)) ^ crc
        let hi = UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        crc = t[7 &* 256 &+ Int(lo & 0xFF)]
          ^ t[6 &* 256 &+ Int((lo &>> 8) & 0xFF)]
          ^ t[5 &* 256 &+ Int((lo &>> 16) & 0xFF)]
          ^ t[4 &* 256 &+ Int(lo &>> 24)]
          ^ t[3 &* 256 &+ Int(hi & 0xFF)]
          ^ t[2 &* 256 &+ Int((hi &>> 8) & 0xFF)]
          ^ t[1 &* 256 &+ Int((hi &>> 16) & 0xFF)]
          ^ t[Int(hi &>> 24)]
        p += 8
        left &-= 8
      }
      while left > 0 {
        let byte = p.load(as: UInt8.self)
        crc = t[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc &>> 8)
        p += 1
        left &-= 1
      }
      return crc
    }
  }
}

/// Arithmetic on polynomials over GF(2) modulo the CRC-32C polynomial, in
/// the CRC's reflected representation (bit 31 is the constant term).
private enum _CRCPolynomial {
  static let one: UInt32 = 1 << 31

  /// `a · b` modulo the polynomial.
  static func multiply(_ a: UInt32, _ b: UInt32) -> UInt32 {
    var product: UInt32 = 0
    var factor = b
    var bit = one
    while bit != 0 {
      if a & bit != 0 {
        product ^= factor
        if a & (bit &- 1) == 0 { break }
      }
      bit >>= 1
      factor = factor & 1 != 0 ? (factor >> 1) ^ 0x82F6_3B78 : factor >> 1
    }
    return product
  }

  /// x^(2^k) for every k a bit count of an `Int` byte count can need.
  static let powersOfTwo: [UInt32] = {
    var table = [UInt32](repeating: 0, count: 67)
    table[0] = one >> 1  // x
    for k in 1..<67 { table[k] = multiply(table[k - 1], table[k - 1]) }
    return table
  }()

  /// x^(8 · byteCount): what feeding `byteCount` zero bytes multiplies a register by.
  static func zerosFactor(byteCount: Int) -> UInt32 {
    var factor = one
    var count = UInt64(byteCount)
    var k = 3  // a byte is 2^3 bits
    while count != 0 {
      if count & 1 != 0 { factor = multiply(powersOfTwo[k], factor) }
      count >>= 1
      k += 1
    }
    return factor
  }
}

#if os(Linux)
  private let _hardware = chardwarecrc_available() == 1
#else
  private let _hardware = false
#endif

/// Sixteen 256-entry tables: table k maps a byte to its CRC after k more zero bytes.
private let _crc32cTables: [UInt32] = {
  var tables = [UInt32](repeating: 0, count: 16 * 256)
  for byte in 0..<256 {
    var crc = UInt32(byte)
    for _ in 0..<8 {
      crc = (crc & 1) != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1
    }
    tables[byte] = crc
  }
  for slice in 1..<16 {
    for byte in 0..<256 {
      let previous = tables[(slice - 1) * 256 + byte]
      tables[slice * 256 + byte] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
    }
  }
  return tables
}()
