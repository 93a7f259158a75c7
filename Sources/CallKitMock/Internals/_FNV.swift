/// FNV-1a 64, the store's body checksum.
enum _FNV {
  static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
  static let prime: UInt64 = 0x100_0000_01b3

  /// `hash` extended by `bytes`.
  @inline(__always)
  static func add(_ bytes: UnsafeRawBufferPointer, to hash: UInt64) -> UInt64 {
    var hash = hash
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* prime }
    return hash
  }
}
