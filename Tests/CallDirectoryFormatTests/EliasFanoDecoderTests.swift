import FormatFixtures
import Testing

@testable import CallDirectoryFormat

/// `_BlockDecoder.eliasFano`, whose loops are specialized by low width
/// (one copy per width up to 8, a general one, a wide one above 56), agrees
/// with a plain decoder written from the format specification (§4.5) on
/// valid blocks of every width and on damaged ones.
@Suite struct EliasFanoDecoderTests {
  /// A block's payload (low bits, then high bits) for `values`, coded with
  /// low width `l`, and its `U`.
  static func payload(_ values: [UInt64], l: Int) -> (bytes: [UInt8], upper: UInt64) {
    let first = values[0]
    let m = values.count - 1
    let xs = (1...max(1, m)).prefix(m).map { values[$0] - first - UInt64($0) }
    let upper = xs.last ?? 0
    var bits = [Bool]()
    for x in xs { for bit in 0..<l { bits.append((x >> UInt64(bit)) & 1 == 1) } }
    var high = [Bool](repeating: false, count: Int(upper >> UInt64(l)) + m)
    for (i, x) in xs.enumerated() { high[Int(x >> UInt64(l)) + i] = true }
    bits += high
    var bytes = [UInt8](repeating: 0, count: (bits.count + 7) / 8)
    for (index, bit) in bits.enumerated() where bit { bytes[index / 8] |= 1 << UInt8(index % 8) }
    return (bytes, upper)
  }

  /// The specification's decoding, bit by bit; `nil` for an invalid block.
  static func reference(_ bytes: [UInt8], m: Int, l: Int, upper: UInt64, first: UInt64) -> [Int64]? {
    func bit(_ index: Int) -> Bool { index / 8 < bytes.count && (bytes[index / 8] >> UInt8(index % 8)) & 1 == 1 }
    let highStart = m * l
    let highBits = Int(upper >> UInt64(l)) + m
    var positions: [Int] = []
    for position in 0..<highBits where bit(highStart + position) { positions.append(position) }
    guard positions.count == m, m == 0 || positions.last == highBits - 1 else { return nil }
    var out = [Int64(first)]
    var previous: UInt64 = 0
    for i in 0..<m {
      var low: UInt64 = 0
      for b in 0..<l where bit(i * l + b) { low |= 1 << UInt64(b) }
      let x = (UInt64(positions[i] - i) << UInt64(l)) | low
      guard x >= previous else { return nil }
      previous = x
      out.append(Int64(first + UInt64(i + 1) + x))
    }
    guard previous == upper else { return nil }
    return out
  }

  /// The decoders to hold to the specification: the Swift loops, and the
  /// AVX-512 one where this CPU has it.
  static let paths = [false] + (_VectorLoops.available ? [true] : [])

  /// The block decoded by each of ``paths``, which must agree; the answer.
  static func decode(_ bytes: [UInt8], m: Int, l: Int, upper: UInt64, first: UInt64) -> [Int64]? {
    let answers = paths.map { decode(bytes, m: m, l: l, upper: upper, first: first, vectorized: $0) }
    #expect(Set(answers.map { $0.map { $0.map(String.init).joined(separator: ",") } ?? "refused" }).count == 1,
      "the decoders disagree: l \(l), m \(m)")
    return answers[0]
  }

  static func decode(_ bytes: [UInt8], m: Int, l: Int, upper: UInt64, first: UInt64, vectorized: Bool) -> [Int64]? {
    var out = [Int64](repeating: -1, count: m + 1 + 8)
    // The 16 readable bytes after the block that callers keep, and no more.
    let padded = bytes + [UInt8](repeating: 0, count: 16)
    let ok = padded.withUnsafeBytes { raw in
      out.withUnsafeMutableBufferPointer { target in
        _BlockDecoder.eliasFano(
          raw.baseAddress!, m: m, l: l, upper: upper, first: first, into: target.baseAddress!, vectorized: vectorized)
      }
    }
    // Nothing is written past the block's m + 1 numbers.
    #expect(out[(m + 1)...].allSatisfy { $0 == -1 })
    return ok ? Array(out[0...m]) : nil
  }

  static let widths = Array(0...20) + [31, 56, 57, 60, 62]

  @Test(arguments: widths)
  func validBlocksDecodeAsTheSpecificationSays(l: Int) {
    var rng = SplitMix64(seed: UInt64(100 + l))
    for trial in 0..<60 {
      let n = [2, 3, 7, 8, 9, 15, 16, 17, 63, 64, 65, 500, 2047, 2048][trial % 14]
      let spread = l >= 56 ? UInt64(1) << 40 : UInt64(1) << UInt64(min(l + 1, 40))
      var values: [UInt64] = [UInt64(1 + rng.next(below: 1_000_000))]
      // Every fifth block of a narrow width jumps once midway, far enough
      // that its high half holds whole words without a one.
      let jumpAt = l <= 20 && trial % 5 == 4 ? n / 2 : -1
      for k in 1..<n {
        let jump = k == jumpAt ? UInt64(300 + trial) << UInt64(l) : 0
        values.append(values.last! + 1 + rng.next(below: max(1, spread)) + jump)
      }
      if l >= 56 && trial % 2 == 0 { values[n - 1] = values[n - 2] + (UInt64(1) << UInt64(l)) }
      let (bytes, upper) = Self.payload(values, l: l)
      let m = n - 1
      guard Int(upper >> UInt64(l)) + m <= 8 * BlobLimits.maxFramePayload else { continue }
      let expected = values.map { Int64($0) }
      #expect(Self.reference(bytes, m: m, l: l, upper: upper, first: values[0]) == expected)
      #expect(Self.decode(bytes, m: m, l: l, upper: upper, first: values[0]) == expected, "l \(l), n \(n)")
    }
  }

  @Test(arguments: widths)
  func damagedBlocksAreRefusedAsTheSpecificationSays(l: Int) {
    var rng = SplitMix64(seed: UInt64(900 + l))
    for trial in 0..<300 {
      let n = 2 + Int(rng.next(below: 80))
      var values: [UInt64] = [UInt64(1 + rng.next(below: 1000))]
      for _ in 1..<n { values.append(values.last! + 1 + rng.next(below: UInt64(1) << UInt64(min(l + 1, 30)))) }
      var (bytes, upper) = Self.payload(values, l: l)
      let m = n - 1
      switch trial % 3 {
      case 0: bytes[Int(rng.next(below: UInt64(bytes.count)))] ^= UInt8(1 << rng.next(below: 8))
      case 1: upper = upper &+ (rng.next(below: 2) == 0 ? 1 : UInt64(1) << UInt64(l))
      default:
        bytes[Int(rng.next(below: UInt64(bytes.count)))] ^= UInt8(1 << rng.next(below: 8))
        bytes[Int(rng.next(below: UInt64(bytes.count)))] ^= UInt8(1 << rng.next(below: 8))
      }
      guard Int(upper >> UInt64(l)) + m <= 8 * BlobLimits.maxFramePayload,
        (m * l + Int(upper >> UInt64(l)) + m + 7) / 8 <= bytes.count
      else { continue }
      let expected = Self.reference(bytes, m: m, l: l, upper: upper, first: values[0])
      #expect(Self.decode(bytes, m: m, l: l, upper: upper, first: values[0]) == expected, "l \(l), trial \(trial)")
    }
  }
}
