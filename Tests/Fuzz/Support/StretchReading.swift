import CallDirectoryFormat

/// Reads a number section as stretches (`BlobReader.numbers(_:above:through:)`,
/// what `calldir diff` reads on several cores) cut at some of the numbers
/// it holds, and checks them against the sequential read: the same
/// numbers when that succeeds, a failure when it fails (stretches that
/// cover the number line check every frame).
enum StretchReading {
  /// What a read of a section gave.
  enum Outcome: Equatable {
    case ranges([ClosedRange<Int64>])
    case failed
    /// More chunks than the harness reads.
    case tooLong
  }

  static func check(_ reader: BlobReader, _ section: BlobSection, cutsNear numbers: [Int64]) {
    guard let iterator = try? reader.numbers(section) else { return }
    let sequential = read { try iterator.nextChunk() }
    let picked = stride(from: 0, to: numbers.count, by: max(1, numbers.count / 3)).map { numbers[$0] }
    let cuts = [0] + Set(picked.map { min(max($0, 0), BlobLimits.maxNumber) }).sorted() + [BlobLimits.maxNumber]
    var joined: [ClosedRange<Int64>] = []
    var stretched = Outcome.ranges([])
    for (low, high) in zip(cuts, cuts.dropFirst()) where low < high {
      guard let iterator = try? reader.numbers(section, above: low, through: high) else {
        stretched = .failed
        break
      }
      let part = read { try iterator.nextChunk() }
      guard case .ranges(let ranges) = part else {
        stretched = part
        break
      }
      for range in ranges {
        fuzzCheck(range.lowerBound > low && range.upperBound <= high, "\(section): \(range) outside (\(low), \(high)]")
        join(range, into: &joined)
      }
    }
    if case .ranges = stretched { stretched = .ranges(joined) }
    switch (sequential, stretched) {
    case (.tooLong, _), (_, .tooLong): return
    case (.failed, let other): fuzzCheck(other == .failed, "\(section): stretches read a section the sequential read refuses")
    case (.ranges, let other): fuzzCheck(other == sequential, "\(section): stretches and the sequential read disagree")
    }
  }

  /// Every chunk `next` gives, as joined ranges.
  private static func read(_ next: () throws -> NumberChunk?) -> Outcome {
    var ranges: [ClosedRange<Int64>] = []
    do {
      for _ in 0..<BlobReadingLimits.chunkLimit {
        guard let chunk = try next() else { return .ranges(ranges) }
        switch chunk {
        case .run(let range): join(range, into: &ranges)
        case .numbers(let numbers): for number in numbers { join(number...number, into: &ranges) }
        }
      }
      return .tooLong
    } catch {
      return .failed
    }
  }

  private static func join(_ range: ClosedRange<Int64>, into ranges: inout [ClosedRange<Int64>]) {
    if let last = ranges.last, last.upperBound < Int64.max, last.upperBound + 1 == range.lowerBound {
      ranges[ranges.count - 1] = last.lowerBound...range.upperBound
    } else {
      ranges.append(range)
    }
  }
}
