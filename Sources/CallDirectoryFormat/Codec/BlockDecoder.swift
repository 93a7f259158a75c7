#if os(Linux)
  import CVectorCodec
#endif

/// Validating decoders for bitmap, Elias–Fano and packed-label payloads.
///
/// Every function checks its payload completely and returns `false` rather
/// than produce out-of-order or out-of-range output. Callers have checked
/// that the payload's bytes lie inside the frame and keep at least 16
/// readable bytes after the frame (the unaligned 64-bit loads may read
/// there; those bits are masked off).
enum _BlockDecoder {
  /// Decodes a bitmap of `span` bits holding `count` numbers from `first`.
  static func bitmap(
    _ payload: UnsafeRawPointer, span: Int, count: Int, first: UInt64,
    into out: UnsafeMutablePointer<Int64>
  ) -> Bool {
    let words = (span + 63) >> 6
    let tailBits = span & 63
    var ones = 0
    for k in 0..<words {
      var word = _loadWord(payload, k &* 8)
      if k == words - 1 {
        if tailBits != 0 {
          // Bits past the span inside the last payload byte must be zero.
          let byteBits = (span + 7) & ~7
          let ownBits = byteBits - (k * 64)
          let own = ownBits >= 64 ? word : word & ((1 << UInt64(ownBits)) - 1)
          if own >> UInt64(tailBits) != 0 { return false }
          word &= (1 << UInt64(tailBits)) - 1
        }
      }
      ones &+= word.nonzeroBitCount
    }
    guard ones == count else { return false }
    guard _loadWord(payload, 0) & 1 == 1 else { return false }
    let lastBit = span - 1
    guard (_loadWord(payload, (lastBit >> 6) &* 8) >> UInt64(lastBit & 63)) & 1 == 1 else {
      return false
    }
    var j = 0
    for k in 0..<words {
      var word = _loadWord(payload, k &* 8)
      if k == words - 1 && tailBits != 0 { word &= (1 &<< UInt64(tailBits)) &- 1 }
      let base = first &+ UInt64(k &* 64)
      while word != 0 {
        out[j] = Int64(bitPattern: base &+ UInt64(word.trailingZeroBitCount))
        word &= word &- 1
        j &+= 1
      }
    }
    return true
  }

  /// Decodes an Elias–Fano block of `m + 1` numbers: `first`, then
  /// `first + i + x_i` for the `m` coded `x_i` with low width `l` and
  /// maximum `upper`. Low widths up to 16 go to the AVX-512 decoder when
  /// `vectorized` (tests pass false to hold the Swift loops to the same
  /// answers on a CPU that has it).
  static func eliasFano(
    _ payload: UnsafeRawPointer, m: Int, l: Int, upper: UInt64, first: UInt64,
    into out: UnsafeMutablePointer<Int64>, vectorized: Bool = _VectorLoops.available
  ) -> Bool {
    out[0] = Int64(bitPattern: first)
    let highStart = m &* l
    let highBits = Int(upper >> UInt64(l)) &+ m
    let startByte = highStart >> 3
    let shift = highStart & 7
    let total = shift &+ highBits
    let words = (total &+ 63) >> 6

    // The high region must hold exactly m ones and end with a one.
    var ones = 0
    for k in 0..<words {
      var word = _loadWord(payload, startByte &+ k &* 8)
      if k == 0 { word &= ~0 << UInt64(shift) }
      if k == words - 1 {
        let rest = total - k * 64
        if rest < 64 { word &= (1 << UInt64(rest)) - 1 }
      }
      ones &+= word.nonzeroBitCount
    }
    guard ones == m else { return false }
    let lastBit = total - 1
    guard (_loadWord(payload, startByte &+ (lastBit >> 6) &* 8) >> UInt64(lastBit & 63)) & 1 == 1
    else { return false }

    if l > 56 {
      return _eliasFanoWide(payload, m: m, l: l, upper: upper, first: first, into: out)
    }
    if l <= 16 {
      #if os(Linux)
        if vectorized && m >= _VectorLoops.minimumBlockEntries {
          return cvectorcodec_elias_fano_narrow(
            payload.assumingMemoryBound(to: UInt8.self), Int64(m), Int32(l), upper, first, out) == 1
        }
      #endif
      return _eliasFanoNarrow(payload, m: m, l: l, upper: upper, first: first, into: out)
    }
    // Hot loop: all quantities are unsigned and wrapping by construction.
    // The i-th one of the high region (validated above) sits at position
    // `p >= i`, so `high = p - i >= 0`, and every x is below 2^63, so
    // `x - previousX` has bit 63 set exactly when the sequence goes down.
    let width = UInt64(l)
    let mask: UInt64 = (1 &<< width) &- 1
    var positions = _HighPositions(payload + startByte, shift: shift)
    var entry: UInt64 = 0
    var lowPosition = 0
    var previousX: UInt64 = 0
    var descents: UInt64 = 0
    var value = first
    var target = out + 1
    let end = target + m
    while target < end {
      let high = positions.next() &- entry
      entry &+= 1
      let low = (_loadWord(payload, lowPosition &>> 3) &>> UInt64(lowPosition & 7)) & mask
      lowPosition &+= l
      let x = (high &<< width) | low
      descents |= x &- previousX
      previousX = x
      value &+= 1
      target.pointee = Int64(bitPattern: value &+ x)
      target += 1
    }
    return descents >> 63 == 0 && previousX == upper
  }

  /// The Elias–Fano loop for low widths up to 16 bits, the common case
  /// (dense and moderately sparse blocks): the low fields of eight entries
  /// fill `l` whole bytes, so two loads give eight of them. Each width has
  /// its own copy of the loop, with constant shifts and masks.
  private static func _eliasFanoNarrow(
    _ payload: UnsafeRawPointer, m: Int, l: Int, upper: UInt64, first: UInt64,
    into out: UnsafeMutablePointer<Int64>
  ) -> Bool {
    switch l {
    case 0: return _eliasFanoNarrow(payload, m: m, width: _Width0.self, upper: upper, first: first, into: out)
    case 1: return _eliasFanoNarrow(payload, m: m, width: _Width1.self, upper: upper, first: first, into: out)
    case 2: return _eliasFanoNarrow(payload, m: m, width: _Width2.self, upper: upper, first: first, into: out)
    case 3: return _eliasFanoNarrow(payload, m: m, width: _Width3.self, upper: upper, first: first, into: out)
    case 4: return _eliasFanoNarrow(payload, m: m, width: _Width4.self, upper: upper, first: first, into: out)
    case 5: return _eliasFanoNarrow(payload, m: m, width: _Width5.self, upper: upper, first: first, into: out)
    case 6: return _eliasFanoNarrow(payload, m: m, width: _Width6.self, upper: upper, first: first, into: out)
    case 7: return _eliasFanoNarrow(payload, m: m, width: _Width7.self, upper: upper, first: first, into: out)
    case 8: return _eliasFanoNarrow(payload, m: m, width: _Width8.self, upper: upper, first: first, into: out)
    case 9: return _eliasFanoNarrow(payload, m: m, width: _Width9.self, upper: upper, first: first, into: out)
    case 10: return _eliasFanoNarrow(payload, m: m, width: _Width10.self, upper: upper, first: first, into: out)
    case 11: return _eliasFanoNarrow(payload, m: m, width: _Width11.self, upper: upper, first: first, into: out)
    case 12: return _eliasFanoNarrow(payload, m: m, width: _Width12.self, upper: upper, first: first, into: out)
    case 13: return _eliasFanoNarrow(payload, m: m, width: _Width13.self, upper: upper, first: first, into: out)
    case 14: return _eliasFanoNarrow(payload, m: m, width: _Width14.self, upper: upper, first: first, into: out)
    case 15: return _eliasFanoNarrow(payload, m: m, width: _Width15.self, upper: upper, first: first, into: out)
    default: return _eliasFanoNarrow(payload, m: m, width: _Width16.self, upper: upper, first: first, into: out)
    }
  }

  /// One copy per low width (a generic specialization each).
  private static func _eliasFanoNarrow<Width: _LowWidth>(
    _ payload: UnsafeRawPointer, m: Int, width _: Width.Type, upper: UInt64, first: UInt64,
    into out: UnsafeMutablePointer<Int64>
  ) -> Bool {
    let l = Width.bits
    // With `l <= 16` the high region is at most 8 * maxFramePayload = 2^19
    // bits (checked by the caller), so every x is below 2^35 and every
    // value below 2^63 + 2^35: the arithmetic below never wraps for a block
    // that passes, and the differences between values are small, so the
    // sign of `value - previous - 1` tells a descent exactly.
    //
    // For entry i (0-based) at high position p, x = ((p - i) << l) | low,
    // so its value `first + 1 + i + x` is `((p << l) | low) + offset_i`
    // with `offset_i = first + 1 - i * (2^l - 1)`: within a group of eight
    // the offsets differ by constants.
    let highStart = m &* l
    let width = UInt64(l)
    let mask: UInt64 = (1 &<< width) &- 1
    var high = _HighPositions(payload + (highStart >> 3), shift: highStart & 7)
    var lowAddress = payload
    var offset = first &+ 1
    var target = out + 1
    let end = target + m
    @inline(__always) func put(_ low: UInt64, _ j: UInt64) {
      let value = ((high.next() &<< width) | low) &+ (offset &- j &* mask)
      target.pointee = Int64(bitPattern: value)
      target += 1
    }
    /// Field `j` of the 128 bits `high:low` (bit positions are constants
    /// once `l` is).
    @inline(__always) func field(_ low: UInt64, _ high: UInt64, _ j: Int) -> UInt64 {
      let position = j &* l
      if position &+ l <= 64 { return (low &>> UInt64(position)) & mask }
      if position >= 64 { return (high &>> UInt64(position &- 64)) & mask }
      return ((low &>> UInt64(position)) | (high &<< UInt64(64 &- position))) & mask
    }
    while end - target >= 8 {
      let low = _loadWord(lowAddress, 0)
      let high = _loadWord(lowAddress, 8)
      lowAddress += l
      put(field(low, high, 0), 0)
      put(field(low, high, 1), 1)
      put(field(low, high, 2), 2)
      put(field(low, high, 3), 3)
      put(field(low, high, 4), 4)
      put(field(low, high, 5), 5)
      put(field(low, high, 6), 6)
      put(field(low, high, 7), 7)
      offset &-= 8 &* mask
    }
    var position = (lowAddress - payload) &* 8
    while target < end {
      put((_loadWord(payload, position &>> 3) &>> UInt64(position & 7)) & mask, 0)
      position &+= l
      offset &-= mask
    }
    // x ascends (a value is above the one before) and ends at U.
    var descents: UInt64 = 0
    var previous = first
    for i in 1...m {
      let value = UInt64(bitPattern: out[i])
      descents |= value &- previous &- 1
      previous = value
    }
    return descents >> 63 == 0 && previous == first &+ UInt64(m) &+ upper
  }

  /// The Elias–Fano loop for low widths above 56 bits (two loads per field).
  private static func _eliasFanoWide(
    _ payload: UnsafeRawPointer, m: Int, l: Int, upper: UInt64, first: UInt64,
    into out: UnsafeMutablePointer<Int64>
  ) -> Bool {
    let highStart = m &* l
    let startByte = highStart >> 3
    let shift = highStart & 7
    var positions = _HighPositions(payload + startByte, shift: shift)
    var previousX: UInt64 = 0
    var disorder = false
    for i in 0..<m {
      let high = positions.next() &- UInt64(i)
      let x = (high &<< UInt64(l)) | _readBits(payload, i &* l, l)
      if x < previousX { disorder = true }
      previousX = x
      out[i &+ 1] = Int64(bitPattern: first &+ UInt64(i &+ 1) &+ x)
    }
    return !disorder && previousX == upper
  }

  /// Decodes `count` labels of `width` bits added to `minimum`; fails if
  /// any label is `limit` or more.
  static func labels(
    _ payload: UnsafeRawPointer, count: Int, width: Int, minimum: UInt64, limit: UInt64,
    into out: UnsafeMutablePointer<UInt32>
  ) -> Bool {
    guard minimum < limit else { return false }
    if width == 0 {
      out.update(repeating: UInt32(minimum), count: count)
      return true
    }
    let mask: UInt64 = (1 &<< UInt64(width)) &- 1
    var largest: UInt64 = 0
    for i in 0..<count {
      let position = i &* width
      let value = (_loadWord(payload, position &>> 3) &>> UInt64(position & 7)) & mask
      largest = max(largest, value)
      out[i] = UInt32(truncatingIfNeeded: minimum &+ value)
    }
    return minimum &+ largest < limit
  }
}

/// A low-bit width known at compile time, for the narrow Elias–Fano loops.
protocol _LowWidth {
  static var bits: Int { get }
}

enum _Width0: _LowWidth { static var bits: Int { 0 } }
enum _Width1: _LowWidth { static var bits: Int { 1 } }
enum _Width2: _LowWidth { static var bits: Int { 2 } }
enum _Width3: _LowWidth { static var bits: Int { 3 } }
enum _Width4: _LowWidth { static var bits: Int { 4 } }
enum _Width5: _LowWidth { static var bits: Int { 5 } }
enum _Width6: _LowWidth { static var bits: Int { 6 } }
enum _Width7: _LowWidth { static var bits: Int { 7 } }
enum _Width8: _LowWidth { static var bits: Int { 8 } }
enum _Width9: _LowWidth { static var bits: Int { 9 } }
enum _Width10: _LowWidth { static var bits: Int { 10 } }
enum _Width11: _LowWidth { static var bits: Int { 11 } }
enum _Width12: _LowWidth { static var bits: Int { 12 } }
enum _Width13: _LowWidth { static var bits: Int { 13 } }
enum _Width14: _LowWidth { static var bits: Int { 14 } }
enum _Width15: _LowWidth { static var bits: Int { 15 } }
enum _Width16: _LowWidth { static var bits: Int { 16 } }

/// The positions of the ones of an Elias–Fano high region, in order,
/// counted from the region's first bit. The caller has checked that the
/// region holds enough ones.
struct _HighPositions {
  private var address: UnsafeRawPointer
  private var word: UInt64
  /// `64 k - shift` for the word `k` being read.
  private var base: UInt64

  @inline(__always)
  init(_ start: UnsafeRawPointer, shift: Int) {
    address = start
    word = _loadWord(start, 0) & (~0 &<< UInt64(shift))
    base = 0 &- UInt64(shift)
  }

  @inline(__always)
  mutating func next() -> UInt64 {
    while word == 0 {
      address += 8
      base &+= 64
      word = _loadWord(address, 0)
    }
    let position = base &+ UInt64(word.trailingZeroBitCount)
    word &= word &- 1
    return position
  }
}
