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
    return _GF2Operator.zeros(byteCount: secondLength).apply(first) ^ second
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

/// A linear map on 32-bit CRC registers over GF(2), as the images of the
/// 32 basis bits.
private struct _GF2Operator {
  var columns: [UInt32]

  func apply(_ vector: UInt32) -> UInt32 {
    var sum: UInt32 = 0
    var bits = vector
    var index = 0
    while bits != 0 {
      if bits & 1 != 0 { sum ^= columns[index] }
      bits >>= 1
      index += 1
    }
    return sum
  }

  /// This map applied twice.
  func squared() -> _GF2Operator {
    _GF2Operator(columns: columns.map(apply))
  }

  /// The map after this one, then `other`.
  func followed(by other: _GF2Operator) -> _GF2Operator {
    _GF2Operator(columns: columns.map(other.apply))
  }

  /// What feeding `byteCount` zero bytes does to a register.
  static func zeros(byteCount: Int) -> _GF2Operator {
    // One zero bit: shift right, folding the polynomial in for a bit shifted out.
    var power = _GF2Operator(columns: (0..<32).map { $0 == 0 ? 0x82F6_3B78 : UInt32(1) << UInt32($0 - 1) })
    for _ in 0..<3 { power = power.squared() }  // one zero byte
    var result: _GF2Operator?
    var remaining = byteCount
    while remaining > 0 {
      if remaining & 1 != 0 { result = result.map { $0.followed(by: power) } ?? power }
      remaining >>= 1
      if remaining > 0 { power = power.squared() }
    }
    return result ?? _GF2Operator(columns: (0..<32).map { UInt32(1) << UInt32($0) })
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
