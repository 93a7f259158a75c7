import FormatFixtures
import Testing

@testable import CallDirectoryCompiler

/// The order of a source summed up piece by piece as it is parsed: the
/// pieces lose adjacent repeats only when they run one way, and a source
/// collected from them sorts to exactly what sorting the whole gives.
@Suite struct SourceOrderTests {
  /// Numbers of 9 to 15 digits (so that text order differs from numeric
  /// order), a fifth of them repeats.
  static func numbers(count: Int, seed: UInt64) -> [Int64] {
    var generator = SplitMix64(seed: seed)
    var values = (0..<(count - count / 5)).map { _ -> Int64 in
      let length = 9 + generator.next(below: 7)
      var power: Int64 = 1
      for _ in 1..<length { power *= 10 }
      return power + Int64(generator.next(below: UInt64(power) * 9))
    }
    for _ in 0..<(count / 5) { values.append(values[Int(generator.next(below: UInt64(values.count)))]) }
    return values
  }

  static func asText(_ values: [Int64]) -> [Int64] {
    values.sorted { String($0).utf8.lexicographicallyPrecedes(String($1).utf8) }
  }

  static func summarize(_ values: [Int64]) -> (order: SourceOrder, kept: [Int64]) {
    var copy = values
    let (order, kept) = copy.withUnsafeMutableBufferPointer { SourceOrder.summarize($0.baseAddress!, count: $0.count) }
    return (order, Array(copy[..<kept]))
  }

  /// What a parsing job hands the collector: the summary, the numbers kept
  /// (laid out by length when in text order only), and whether they were.
  static func summarizeAndLayOut(_ values: [Int64]) -> (order: SourceOrder, kept: [Int64], laidOut: Bool) {
    var (order, kept) = summarize(values)
    guard !kept.isEmpty else { return (order, kept, false) }
    var scratch = [Int64](repeating: 0, count: kept.count)
    let laidOut = kept.withUnsafeMutableBufferPointer { numbers in
      scratch.withUnsafeMutableBufferPointer { scratch in
        TextOrder.layOutByLength(numbers.baseAddress!, count: numbers.count, order: order, scratch: scratch.baseAddress!)
      }
    }
    return (order, kept, laidOut)
  }

  /// Numbers each a prefix of the next but for its last digit (`13`,
  /// `129`, `1289`…): sorted as text, they fall as numbers, and their
  /// lengths with them.
  static func prefixChain(count: Int, seed: UInt64) -> [Int64] {
    var generator = SplitMix64(seed: seed)
    var values: [Int64] = []
    while values.count < count {
      var value = Int64(10 + generator.next(below: 89))
      for _ in 0..<(4 + Int(generator.next(below: 10))) {
        values.append(value)
        value = (value - 1) * 10 + 9
      }
    }
    return values
  }

  @Test func aPieceLosesItsAdjacentRepeatsOnlyWhenItRunsOneWay() {
    let values = Self.numbers(count: 5000, seed: 1)
    let unique = Array(Set(values))
    for (shape, expected) in [
      (values.sorted(), unique.sorted()), (Array(values.sorted().reversed()), Array(unique.sorted().reversed())),
      (Self.asText(values), Self.asText(unique)), (Array(Self.asText(values).reversed()), Array(Self.asText(unique).reversed())),
    ] {
      let (order, kept) = Self.summarize(shape)
      #expect(kept == expected)
      #expect(order.isOrdered)
      #expect(order.count == kept.count)
      // The counts per length, which text order needs.
      if order.isTextOrdered {
        var lengths = [Int](repeating: 0, count: TextOrder.lengths)
        for value in kept { lengths[String(value).count] += 1 }
        #expect(order.lengths == lengths)
      }
    }
    let (order, kept) = Self.summarize(values)
    #expect(!order.isOrdered)
    #expect(kept == values)
    // Numerically sorted is sorted as text within one length only.
    #expect(!Self.summarize(values.sorted()).order.isTextOrdered)
    #expect(Self.summarize(Self.asText(values)).order.isTextOrdered)
    #expect(!Self.summarize(Self.asText(values)).order.isAscending)
    #expect(Self.summarize([5]).order.isAscending)
    #expect(Self.summarize([]).kept.isEmpty)
  }

  /// A text summary that leaves repeats out counts what removing the
  /// adjacent repeats keeps, the first value included; its flags are
  /// those of the summary that counts them.
  @Test func aTextSummaryCountsWhatTheRepeatsLeave() {
    let text = Self.asText(Self.numbers(count: 3000, seed: 9))
    for shape in [text, Array(text.reversed()), [42, 42, 42], [7], [5, 5, 12, 12, 12, 300], Self.numbers(count: 3000, seed: 9)] {
      let all = shape.withUnsafeBufferPointer { TextSummary($0.baseAddress!, count: $0.count) }
      let kept = shape.withUnsafeBufferPointer { TextSummary($0.baseAddress!, count: $0.count, countingRepeats: false) }
      #expect((kept.rises, kept.falls, kept.firstKey, kept.lastKey) == (all.rises, all.falls, all.firstKey, all.lastKey))
      guard !(all.rises && all.falls) else { continue }
      var lengths = [Int](repeating: 0, count: TextOrder.lengths)
      var allLengths = lengths
      for (index, value) in shape.enumerated() {
        allLengths[String(value).count] += 1
        if index == 0 || shape[index - 1] != value { lengths[String(value).count] += 1 }
      }
      #expect(kept.counts == lengths)
      #expect(all.counts == allLengths)
    }
  }

  /// Pieces of every order a list comes in, cut at random (repeats across
  /// cuts included), collected and sorted: the sorted unique numbers, with
  /// every number counted as added.
  @Test(arguments: [2, 3, 4])
  func collectedPiecesSortLikeTheWhole(seed: UInt64) {
    var generator = SplitMix64(seed: seed)
    let values = Self.numbers(count: 20_000, seed: seed)
    let sorted = values.sorted()
    let text = Self.asText(values)
    let tooLong = text + [1_000_000_000_000_000_000, 1_000_000_000_000_000_000]
    let chain = Self.asText(Self.prefixChain(count: 5000, seed: seed) + values[..<5000])
    let shapes: [[Int64]] = [
      sorted, sorted.reversed(), text, text.reversed(), values, tooLong, chain, chain.reversed(),
      Array(sorted[..<10_000]) + sorted[..<10_000],  // a list given twice
      Array(text[..<10_000]) + sorted[10_000...],
      Array(repeating: 42, count: 3000),
    ]
    for shape in shapes {
      let expected = Array(Set(shape)).sorted()
      for plainEvery in [0, 3] {
        var collector = NumberCollector()
        collector.begin(source: 0)
        var start = 0
        var turn = 0
        while start < shape.count {
          let end = min(shape.count, start + 1 + Int(generator.next(below: 3000)))
          turn += 1
          if plainEvery > 0 && turn % plainEvery == 0 {
            collector.add(shape[start..<end], limit: nil)
          } else {
            let (order, kept, laidOut) = Self.summarizeAndLayOut(Array(shape[start..<end]))
            kept.withUnsafeBufferPointer {
              collector.add(piece: $0, order: order, laidOutByLength: laidOut, repeats: end - start - kept.count, limit: nil)
            }
          }
          start = end
        }
        collector.endSource()
        #expect(collector.added == shape.count)
        let (union, _) = collector.takeUnion()
        #expect(union.contiguous() == expected, "shape of \(shape.count), plain every \(plainEvery)")
      }
    }
  }

  /// A piece in text order but not in numeric order is laid out by
  /// length, each length's numbers in the order they came; any other
  /// piece stays as it is.
  @Test func aPieceInTextOrderOnlyIsLaidOutByLength() {
    let text = Self.asText(Array(Set(Self.numbers(count: 4000, seed: 11))))
    for shape in [text, Array(text.reversed())] {
      let (_, kept, laidOut) = Self.summarizeAndLayOut(shape)
      #expect(laidOut)
      let byLength = (0..<TextOrder.lengths).flatMap { length in shape.filter { String($0).count == length } }
      #expect(kept == byLength)
    }
    for shape in [text.sorted(), Array(text.sorted().reversed()), Self.numbers(count: 4000, seed: 11), [7], []] {
      let (_, kept, laidOut) = Self.summarizeAndLayOut(shape)
      #expect(!laidOut)
      #expect(kept == Self.summarize(shape).kept)
    }
    // Falling as numbers: left as it is (its lengths fall).
    let chain: [Int64] = [12889, 1289, 129, 13]
    #expect(Self.asText(chain) == chain)
    let (order, kept, laidOut) = Self.summarizeAndLayOut(chain)
    #expect(!laidOut && order.isDescending && order.isTextOrdered)
    #expect(kept == chain)
  }

  /// A source in text order comes out of the collector as slices of the
  /// numbers as they were collected (no sorted copy): one per length of
  /// each piece at most, fewer where they lie end to end.
  @Test(arguments: [0, 1, 2, 3])
  func textOrderSortsIntoSlicesOfItsPieces(mix: Int) {
    var generator = SplitMix64(seed: 5 + UInt64(mix))
    let values: [Int64]
    switch mix {
    case 0: values = Array(Set(Self.numbers(count: 30_000, seed: 5)))
    // Mostly 11 digits, then 12 and 13.
    case 1:
      values = Array(Set((0..<30_000).map { _ -> Int64 in
        let roll = generator.next(below: 10)
        let power: Int64 = roll < 6 ? 10_000_000_000 : roll < 9 ? 100_000_000_000 : 1_000_000_000_000
        return power + Int64(generator.next(below: UInt64(power) * 9))
      }))
    // Chains of prefixes among them.
    case 2: values = Array(Set(Self.prefixChain(count: 10_000, seed: 3) + Self.numbers(count: 20_000, seed: 6)))
    // One length only.
    default: values = Array(Set((0..<30_000).map { _ in 4_930_000_000 + Int64(generator.next(below: 9_000_000)) }))
    }
    let lengthCount = Set(values.map { String($0).count }).count
    for shape in [Self.asText(values), Self.asText(values).reversed()] {
      for pieceSize in [1, 700, 29_000] {
        var collector = NumberCollector()
        collector.begin(source: 0)
        var start = 0
        var pieces = 0
        while start < shape.count {
          let end = min(shape.count, start + pieceSize)
          let (order, kept, laidOut) = Self.summarizeAndLayOut(Array(shape[start..<end]))
          kept.withUnsafeBufferPointer {
            collector.add(piece: $0, order: order, laidOutByLength: laidOut, repeats: 0, limit: nil)
          }
          pieces += 1
          start = end
        }
        collector.endSource()
        let (union, repeats) = collector.takeUnion()
        #expect(repeats == 0)
        #expect(union.contiguous() == values.sorted(), "pieces of \(pieceSize)")
        #expect(union.numbers.count == values.count)
        #expect(union.slices.count <= pieces * lengthCount)
        if lengthCount == 1 { #expect(union.slices.count == 1) }
      }
    }
  }
}
