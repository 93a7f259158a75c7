/// SHA-256 (FIPS 180-4) in pure Swift, streaming.
///
/// Feed bytes with ``update(_:)`` and read the 32-byte digest with
/// ``finalize()``. The value type holds its state inline (no allocation).
public struct SHA256: Sendable {
  private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a,
    0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
  )
  private var block: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
    (0, 0, 0, 0, 0, 0, 0, 0)
  private var blockFill = 0
  private var totalBytes: UInt64 = 0

  public init() {}

  /// Feeds `bytes` into the hash.
  public mutating func update(_ bytes: UnsafeRawBufferPointer) {
    guard var p = bytes.baseAddress else { return }
    var left = bytes.count
    totalBytes &+= UInt64(left)
    if blockFill > 0 {
      let take = min(64 - blockFill, left)
      let fill = blockFill
      withUnsafeMutableBytes(of: &block) { buffer in
        buffer.baseAddress.map { ($0 + fill).copyMemory(from: p, byteCount: take) }
      }
      blockFill += take
      p += take
      left -= take
      if blockFill < 64 { return }
      let copy = block
      withUnsafeBytes(of: copy) { buffer in
        if let base = buffer.baseAddress { SHA256._compress(&state, base, 1) }
      }
      blockFill = 0
    }
    let whole = left / 64
    if whole > 0 {
      SHA256._compress(&state, p, whole)
      p += whole * 64
      left -= whole * 64
    }
    if left > 0 {
      withUnsafeMutableBytes(of: &block) { buffer in
        buffer.baseAddress.map { $0.copyMemory(from: p, byteCount: left) }
      }
      blockFill = left
    }
  }

  /// Feeds a byte sequence into the hash.
  public mutating func update(_ bytes: some Sequence<UInt8>) {
    let array = Array(bytes)
    array.withUnsafeBytes { update($0) }
  }

  /// Pads the message and returns the 32-byte digest.
  public consuming func finalize() -> [UInt8] {
    let bitLength = totalBytes &* 8
    var padding = [UInt8](repeating: 0, count: blockFill < 56 ? 56 - blockFill : 120 - blockFill)
    padding[0] = 0x80
    withUnsafeBytes(of: bitLength.bigEndian) { padding.append(contentsOf: $0) }
    let recorded = totalBytes
    padding.withUnsafeBytes { update($0) }
    totalBytes = recorded
    var out = [UInt8]()
    out.reserveCapacity(32)
    let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
    for word in words {
      withUnsafeBytes(of: word.bigEndian) { out.append(contentsOf: $0) }
    }
    return out
  }

  /// The digest of `bytes`.
  public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
    var hasher = SHA256()
    hasher.update(bytes)
    return hasher.finalize()
  }

  private static func _compress(
    _ state: inout (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32),
    _ data: UnsafeRawPointer, _ blocks: Int
  ) {
    _sha256K.withUnsafeBufferPointer { kBuffer in
      guard let k = kBuffer.baseAddress else { return }
      withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { wBuffer in
        guard let w = wBuffer.baseAddress else { return }
        var h0 = state.0, h1 = state.1, h2 = state.2, h3 = state.3
        var h4 = state.4, h5 = state.5, h6 = state.6, h7 = state.7
        var p = data
        for _ in 0..<blocks {
          for i in 0..<16 {
            w[i] = UInt32(bigEndian: p.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self))
          }
          for i in 16..<64 {
            let x = w[i &- 15], y = w[i &- 2]
            let s0 = x.rotr(7) ^ x.rotr(18) ^ (x &>> 3)
            let s1 = y.rotr(17) ^ y.rotr(19) ^ (y &>> 10)
            w[i] = w[i &- 16] &+ s0 &+ w[i &- 7] &+ s1
          }
          var a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7
          for i in 0..<64 {
            let s1 = e.rotr(6) ^ e.rotr(11) ^ e.rotr(25)
            let ch = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ ch &+ k[i] &+ w[i]
            let s0 = a.rotr(2) ^ a.rotr(13) ^ a.rotr(22)
            let maj = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ maj
            h = g
            g = f
            f = e
            e = d &+ t1
            d = c
            c = b
            b = a
            a = t1 &+ t2
          }
          h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d
          h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
          p += 64
        }
        state = (h0, h1, h2, h3, h4, h5, h6, h7)
      }
    }
  }
}

extension UInt32 {
  @inline(__always)
  fileprivate func rotr(_ n: UInt32) -> UInt32 {
    (self &>> n) | (self &<< (32 &- n))
  }
}

private let _sha256K: [UInt32] = [
  0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
  0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
  0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
  0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
  0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
  0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
  0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
  0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
]
