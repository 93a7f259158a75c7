import CalldirSystem

/// The coding of one block of a number section.
///
/// A block stores `n` strictly ascending numbers as one of:
/// - ``run``: `first, first+1, ..., first+n-1`, no payload;
/// - ``bitmap``: one bit per number in `first...last`;
/// - ``eliasFano``: Elias–Fano over `x_i = v_i - first - i`.
enum _BlockKind: UInt8 {
  case run = 0
  case bitmap = 1
  case eliasFano = 2
}

/// Chooses and writes the smallest coding for a block (see `blob-format.md`).
enum _BlockEncoder {
  /// Appends one block holding `values` (strictly ascending, all greater
  /// than `previous`) and, for identification sections, their `labels`.
  ///
  /// - Precondition: `values` is non-empty, at most
  ///   ``BlobLimits/maxBlockEntries`` long unless it is a run, and checked
  ///   by the section writer.
  static func encode(
    values: UnsafeBufferPointer<UInt64>, labels: UnsafeBufferPointer<UInt32>?,
    previous: UInt64, into out: inout [UInt8]
  ) {
    let n = values.count
    let first = values[0]
    let last = values[n - 1]
    let gap = first - previous - 1
    let span = last - first + 1
    let count = UInt64(n)
    if span == count && allSame(labels) {
      out.append(_BlockKind.run.rawValue << 6)
      Varint.append(gap, to: &out)
      Varint.append(count - 1, to: &out)
      if let labels { Varint.append(UInt64(labels[0]), to: &out) }
      return
    }

    let head = 1 + Varint.size(gap) + Varint.size(count - 1)
    let m = n - 1
    let upper = span - 1 - UInt64(m)
    let l = bestLowWidth(count: m, upper: upper)
    let efBits = UInt64(m * l) + (upper >> UInt64(l)) + UInt64(m)
    let efCost = UInt64(head + Varint.size(upper)) + (efBits + 7) / 8
    var bitmapCost = UInt64.max
    if span <= UInt64(BlobLimits.maxBitmapSpan) {
      bitmapCost = UInt64(head + Varint.size(span - count)) + (span + 7) / 8
    }

    if bitmapCost <= efCost {
      out.append(_BlockKind.bitmap.rawValue << 6)
      Varint.append(gap, to: &out)
      Varint.append(count - 1, to: &out)
      Varint.append(span - count, to: &out)
      appendBitmap(values, span: span, to: &out)
    } else {
      out.append(_BlockKind.eliasFano.rawValue << 6 | UInt8(l))
      Varint.append(gap, to: &out)
      Varint.append(count - 1, to: &out)
      Varint.append(upper, to: &out)
      appendEliasFano(values, upper: upper, lowWidth: l, to: &out)
    }
    if let labels { appendLabels(labels, to: &out) }
  }

  /// Whether every one of `labels` is the same (true without labels).
  @inline(__always)
  static func allSame(_ labels: UnsafeBufferPointer<UInt32>?) -> Bool {
    guard let labels, let label0 = labels.first else { return true }
    for label in labels where label != label0 { return false }
    return true
  }

  /// A bitmap block's payload: one bit per number of `first...first + span - 1`.
  @inline(__always)
  static func appendBitmap(_ values: UnsafeBufferPointer<UInt64>, span: UInt64, to out: inout [UInt8]) {
    let first = values[0]
    let start = out.count
    out.append(contentsOf: repeatElement(0, count: Int((span + 7) / 8)))
    out.withUnsafeMutableBufferPointer { buffer in
      for value in values {
        let bit = Int(value - first)
        buffer[start + (bit >> 3)] |= UInt8(1) << UInt8(bit & 7)
      }
    }
  }

  /// An Elias–Fano block's payload over `x_i = v_i - first - i` (i ≥ 1):
  /// the low `lowWidth` bits of each, then the high parts in unary.
  @inline(__always)
  static func appendEliasFano(
    _ values: UnsafeBufferPointer<UInt64>, upper: UInt64, lowWidth l: Int, to out: inout [UInt8]
  ) {
    let n = values.count
    let m = n - 1
    let first = values[0]
    var writer = _BitWriter(into: out)
    for i in 1..<n {
      writer.write(values[i] - first - UInt64(i), width: l)
    }
    let highBits = Int(upper >> UInt64(l)) + m
    var words = [UInt64](repeating: 0, count: (highBits + 63) / 64)
    for i in 1..<n {
      let position = Int((values[i] - first - UInt64(i)) >> UInt64(l)) + (i - 1)
      words[position >> 6] |= 1 << UInt64(position & 63)
    }
    var left = highBits
    for word in words {
      writer.write(word, width: min(64, left))
      left -= 64
    }
    out = writer.finish()
  }

  /// A block's labels: their minimum, then each one's offset from it in
  /// the fewest bits that hold them all.
  @inline(__always)
  static func appendLabels(_ labels: UnsafeBufferPointer<UInt32>, to out: inout [UInt8]) {
    var low = UInt32.max
    var high = UInt32.min
    for label in labels {
      low = min(low, label)
      high = max(high, label)
    }
    let width = _bitWidth(UInt64(high - low))
    Varint.append(UInt64(low), to: &out)
    out.append(UInt8(width))
    if width > 0 {
      var writer = _BitWriter(into: out)
      for label in labels { writer.write(UInt64(label - low), width: width) }
      out = writer.finish()
    }
  }

  /// The low-bit width `l` minimizing `count * l + (upper >> l)`.
  static func bestLowWidth(count: Int, upper: UInt64) -> Int {
    var best = 0
    var bestCost = UInt64.max
    for l in 0...62 {
      let cost = UInt64(count * l) + (upper >> UInt64(l))
      if cost < bestCost {
        best = l
        bestCost = cost
      }
      if upper >> UInt64(l) == 0 { break }
    }
    return best
  }
}
