import CalldirSystem

#if os(Linux)
  import CVectorCodec
#endif

extension _BlockEncoder {
  /// The most bytes one block takes, whatever its coding and labels (an
  /// Elias–Fano block of ``BlobLimits/maxBlockEntries`` 62-bit fields with
  /// 32-bit labels is about 25 KiB).
  static let maxBlockBytes = 1 << 15

  /// Writes one unlabelled block holding `values[0..<count]` (strictly
  /// ascending, all above `previous`) at `out`, which has room for
  /// ``maxBlockBytes``; returns its length.
  ///
  /// The same bytes as ``encode(values:labels:previous:into:)`` without
  /// labels, written straight to memory: the bit fields go through one
  /// 64-bit accumulator, several low fields to a write, and the ones of
  /// the high half are gathered in a word before they go out.
  ///
  /// Elias–Fano blocks with a low width up to 16 go to the AVX-512 encoder
  /// when `vectorized` (tests pass false to hold the Swift loops to the
  /// same bytes).
  ///
  /// - Precondition: as for ``encode(values:labels:previous:into:)``.
  static func encodeUnlabeled(
    _ values: UnsafePointer<UInt64>, count n: Int, previous: UInt64, into out: UnsafeMutablePointer<UInt8>,
    vectorized: Bool = _VectorLoops.available
  ) -> Int {
    let first = values[0]
    let last = values[n &- 1]
    let gap = first &- previous &- 1
    let span = last &- first &+ 1
    let count = UInt64(n)
    if span == count {
      out[0] = _BlockKind.run.rawValue << 6
      var length = 1 &+ Varint.write(gap, to: out + 1)
      length &+= Varint.write(count &- 1, to: out + length)
      return length
    }

    let m = n &- 1
    let upper = span &- 1 &- UInt64(m)
    let l = bestLowWidth(count: m, upper: upper)
    let head = 1 &+ Varint.size(gap) &+ Varint.size(count &- 1)
    let efBits = UInt64(m &* l) &+ (upper >> UInt64(l)) &+ UInt64(m)
    let efCost = UInt64(head &+ Varint.size(upper)) &+ (efBits &+ 7) / 8
    if span <= UInt64(BlobLimits.maxBitmapSpan),
      UInt64(head &+ Varint.size(span &- count)) &+ (span &+ 7) / 8 <= efCost
    {
      out[0] = _BlockKind.bitmap.rawValue << 6
      var length = 1 &+ Varint.write(gap, to: out + 1)
      length &+= Varint.write(count &- 1, to: out + length)
      length &+= Varint.write(span &- count, to: out + length)
      return length &+ _writeBitmap(values, count: n, span: span, to: out + length)
    }

    out[0] = _BlockKind.eliasFano.rawValue << 6 | UInt8(l)
    var length = 1 &+ Varint.write(gap, to: out + 1)
    length &+= Varint.write(count &- 1, to: out + length)
    length &+= Varint.write(upper, to: out + length)
    #if os(Linux)
      if vectorized && l <= 16 && m >= _VectorLoops.minimumBlockEntries {
        return length &+ cvectorcodec_elias_fano_encode_narrow(values, Int64(m), Int32(l), first &+ 1, out + length)
      }
    #endif
    var stream = _BitStream(out + length)
    let base = first &+ 1
    _writeLowHalf(values, count: n, base: base, width: l, to: &stream)
    _writeHighHalf(values, count: n, base: base, width: UInt64(l), to: &stream)
    return length &+ stream.finish()
  }

  /// A bitmap block's payload at `bitmap`: one bit per number of
  /// `values[0]...values[0] + span - 1`; returns its length.
  @inline(__always)
  private static func _writeBitmap(
    _ values: UnsafePointer<UInt64>, count n: Int, span: UInt64, to bitmap: UnsafeMutablePointer<UInt8>
  ) -> Int {
    let first = values[0]
    let bytes = Int((span &+ 7) / 8)
    bitmap.initialize(repeating: 0, count: bytes)
    for index in 0..<n {
      let bit = Int(values[index] &- first)
      bitmap[bit &>> 3] |= UInt8(1) &<< UInt8(bit & 7)
    }
    return bytes
  }

  /// The low half of an Elias–Fano block: the low `l` bits of each field
  /// `values[i] - base - (i - 1)` (i ≥ 1), several to a write while they
  /// fit in 63 bits.
  @inline(__always)
  private static func _writeLowHalf(
    _ values: UnsafePointer<UInt64>, count n: Int, base: UInt64, width l: Int, to stream: inout _BitStream
  ) {
    let width = UInt64(l)
    let mask: UInt64 = l == 64 ? ~0 : (1 &<< width) &- 1
    // The low fields, several to a write while they fit in 63 bits.
    var index = 1
    if l <= 15 {
      while index &+ 3 < n {
        let a = (values[index] &- base &- UInt64(index &- 1)) & mask
        let b = (values[index &+ 1] &- base &- UInt64(index)) & mask
        let c = (values[index &+ 2] &- base &- UInt64(index &+ 1)) & mask
        let d = (values[index &+ 3] &- base &- UInt64(index &+ 2)) & mask
        stream.write(a | b &<< width | c &<< (width &* 2) | d &<< (width &* 3), width: l &* 4)
        index &+= 4
      }
    } else if l <= 21 {
      while index &+ 2 < n {
        let a = (values[index] &- base &- UInt64(index &- 1)) & mask
        let b = (values[index &+ 1] &- base &- UInt64(index)) & mask
        let c = (values[index &+ 2] &- base &- UInt64(index &+ 1)) & mask
        stream.write(a | b &<< width | c &<< (width &* 2), width: l &* 3)
        index &+= 3
      }
    } else if l <= 31 {
      while index &+ 1 < n {
        let a = (values[index] &- base &- UInt64(index &- 1)) & mask
        let b = (values[index &+ 1] &- base &- UInt64(index)) & mask
        stream.write(a | b &<< width, width: l &* 2)
        index &+= 2
      }
    }
    while index < n {
      stream.write((values[index] &- base &- UInt64(index &- 1)) & mask, width: l)
      index &+= 1
    }
  }

  /// The high half of an Elias–Fano block: for the i-th field x a one at
  /// (x >> l) + i - 1, up to the last field's, which ends the region. Ones
  /// are gathered into a word, which goes out when a one falls past it.
  /// (A function of its own, so that its few values stay in registers;
  /// `width` is at most 62, as ``bestLowWidth(count:upper:)`` chooses.)
  @inline(never)
  private static func _writeHighHalf(
    _ values: UnsafePointer<UInt64>, count n: Int, base: UInt64, width: UInt64, to stream: inout _BitStream
  ) {
    var word: UInt64 = 0
    var wordStart: UInt64 = 0
    var position: UInt64 = 0
    // The i-th field's one lies i - 1 past its value's high part: `bias`
    // and `rank` step along with i.
    var bias = base
    var rank: UInt64 = 0
    for index in 1..<n {
      position = ((values[index] &- bias) &>> width) &+ rank
      bias &+= 1
      rank &+= 1
      while position &- wordStart >= 63 {
        stream.write(word, width: 63)
        word = 0
        wordStart &+= 63
      }
      word |= 1 &<< (position &- wordStart)
    }
    // The last one ends the region: the word holds bits up to it.
    stream.write(word, width: Int(position &- wordStart) &+ 1)
  }
}

/// Bit fields written least-significant-bit first straight to memory, as
/// ``_BitWriter`` writes them to an array, eight bytes at a time.
struct _BitStream {
  private let start: UnsafeMutablePointer<UInt8>
  private var cursor: UnsafeMutablePointer<UInt8>
  private var accumulator: UInt64 = 0
  private var filled = 0

  init(_ start: UnsafeMutablePointer<UInt8>) {
    self.start = start
    cursor = start
  }

  /// Writes `value`, which fits in `width` bits (`width` in 0...63).
  @inline(__always)
  mutating func write(_ value: UInt64, width: Int) {
    accumulator |= value &<< UInt64(filled)
    let total = filled &+ width
    if total >= 64 {
      UnsafeMutableRawPointer(cursor).storeBytes(of: accumulator.littleEndian, as: UInt64.self)
      cursor += 8
      accumulator = filled == 0 ? 0 : value &>> UInt64(64 &- filled)
      filled = total &- 64
    } else {
      filled = total
    }
  }

  /// Writes the last bits, padded with zeros to a byte; returns the bytes written in all.
  mutating func finish() -> Int {
    var left = filled
    while left > 0 {
      cursor.pointee = UInt8(truncatingIfNeeded: accumulator)
      cursor += 1
      accumulator >>= 8
      left &-= 8
    }
    filled = 0
    return cursor - start
  }
}
