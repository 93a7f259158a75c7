/// Deterministic phone-number datasets in the three shapes the format's
/// compactness floors are specified for.
///
/// The *scatter universe* at scale `s` is:
/// - `round(300 s)` random NANP area codes, each the 8,000,000 numbers
///   `1 NPA 200 0000 ... 1 NPA 999 9999` (11 digits);
/// - `round(10 s)` random French mobile blocks `33 6XX ######` (10^6 each);
/// - `round(5 s)` random German mobile prefixes `49 15X/16X/17X #######`
///   (10^7 each, 12 digits).
/// Scattered numbers are uniform over the whole universe (each range gets a
/// share proportional to its size), so scaling the count and the universe
/// together keeps the density, and hence bits per entry, the same.
public enum DatasetShapes {
  /// A range `start ..< start + size` of the universe.
  struct Segment {
    var start: Int64
    var size: Int64
  }

  /// Shape 1: `10_000_000 × scale` numbers scattered over the universe at
  /// `scale` (full size: 10M numbers over 300 area codes + EU ranges).
  public static func scattered(scale: Double = 1, seed: UInt64 = 1) -> [Int64] {
    scattered(count: Int((10_000_000 * scale).rounded()), universeScale: scale, seed: seed)
  }

  /// `count` numbers uniform over the universe at `universeScale`.
  public static func scattered(count: Int, universeScale: Double, seed: UInt64) -> [Int64] {
    var rng = SplitMix64(seed: seed)
    let segments = universe(scale: universeScale, rng: &rng)
    return sample(count: count, over: segments, rng: &rng)
  }

  /// Shape 2: `round(20 × scale)` fully expanded prefixes `33PPP######`
  /// (1M consecutive numbers each, P in 100...599) plus `1M × scale`
  /// numbers scattered over the universe at `scale`.
  public static func prefixBlocks(scale: Double = 1, seed: UInt64 = 2) -> [Int64] {
    var rng = SplitMix64(seed: seed)
    let segments = universe(scale: scale, rng: &rng)
    let scatteredNumbers = sample(count: Int((1_000_000 * scale).rounded()), over: segments, rng: &rng)
    let prefixes = distinct(max(1, Int((20 * scale).rounded())), below: 500, rng: &rng).map { $0 + 100 }
    var out = scatteredNumbers
    out.reserveCapacity(out.count + prefixes.count * 1_000_000)
    for prefix in prefixes {
      let start = 33_000_000_000 + Int64(prefix) * 1_000_000
      out.append(contentsOf: start..<(start + 1_000_000))
    }
    out.sort()
    return out
  }

  /// Shape 3: 200k numbers scattered over the full-size universe.
  public static func sparse(count: Int = 200_000, seed: UInt64 = 3) -> [Int64] {
    scattered(count: count, universeScale: 1, seed: seed)
  }

  /// Identification entries: numbers of `numbers` with labels from a
  /// vocabulary of `labelCount`, in runs of equal labels of random length.
  public static func labelled(
    _ numbers: [Int64], labelCount: Int, seed: UInt64
  ) -> [(number: Int64, label: UInt32)] {
    var rng = SplitMix64(seed: seed)
    var out = [(number: Int64, label: UInt32)]()
    out.reserveCapacity(numbers.count)
    var label: UInt32 = 0
    var left = 0
    for number in numbers {
      if left == 0 {
        label = UInt32(rng.next(below: UInt64(labelCount)))
        left = Int(rng.next(below: 40)) + 1
      }
      out.append((number, label))
      left -= 1
    }
    return out
  }

  static func universe(scale: Double, rng: inout SplitMix64) -> [Segment] {
    var segments = [Segment]()
    let areaCodes = max(1, Int((300 * scale).rounded()))
    var npas = [Int]()
    for npa in 200...999 where npa % 100 != 11 { npas.append(npa) }
    for index in distinct(areaCodes, below: npas.count, rng: &rng) {
      segments.append(Segment(start: 10_000_000_000 + Int64(npas[index]) * 10_000_000 + 2_000_000, size: 8_000_000))
    }
    for block in distinct(max(1, Int((10 * scale).rounded())), below: 100, rng: &rng) {
      segments.append(Segment(start: 33_600_000_000 + Int64(block) * 1_000_000, size: 1_000_000))
    }
    for prefix in distinct(max(1, Int((5 * scale).rounded())), below: 30, rng: &rng) {
      segments.append(Segment(start: (49_150 + Int64(prefix)) * 10_000_000, size: 10_000_000))
    }
    segments.sort { $0.start < $1.start }
    return segments
  }

  static func sample(count: Int, over segments: [Segment], rng: inout SplitMix64) -> [Int64] {
    let total = segments.reduce(Int64(0)) { $0 + $1.size }
    var shares = segments.map { Int(Int64(count) * $0.size / total) }
    var missing = count - shares.reduce(0, +)
    var index = 0
    while missing > 0 {
      shares[index % shares.count] += 1
      missing -= 1
      index += 1
    }
    var out = [Int64]()
    out.reserveCapacity(count)
    for (segment, share) in zip(segments, shares) {
      for offset in distinct(share, below: Int(segment.size), rng: &rng) {
        out.append(segment.start + Int64(offset))
      }
    }
    return out
  }

  /// `k` distinct values in `0..<n`, ascending.
  static func distinct(_ k: Int, below n: Int, rng: inout SplitMix64) -> [Int] {
    precondition(k <= n)
    var values = [Int]()
    values.reserveCapacity(k)
    while values.count < k {
      for _ in 0..<(k - values.count) { values.append(Int(rng.next(below: UInt64(n)))) }
      values.sort()
      var unique = [Int]()
      unique.reserveCapacity(k)
      for value in values where unique.last != value { unique.append(value) }
      values = unique
    }
    return values
  }
}
