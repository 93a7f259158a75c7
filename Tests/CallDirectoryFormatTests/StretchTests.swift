import Dispatch
import FormatFixtures
import Foundation
import Testing

@testable import CallDirectoryFormat

/// Stretches of a number section (`BlobReader.numbers(_:above:through:)`)
/// agree with the sequential read, whatever the cuts, and stretches that
/// cover the number line check every frame.
@Suite struct StretchTests {
  /// Runs, bitmaps and Elias–Fano blocks of many widths, over many frames,
  /// and an identification section (its numbers read as a stretch too).
  static let blob: [UInt8] = {
    var rng = SplitMix64(seed: 41)
    var numbers: [Int64] = []
    var next: Int64 = 1
    while numbers.count < 250_000 {
      switch rng.next(below: 5) {
      case 0:  // a run
        let length = Int64(64 + rng.next(below: 400))
        numbers += Array(next...(next + length - 1))
        next += length + 1 + Int64(rng.next(below: 3))
      case 1:  // dense: bitmaps
        for _ in 0..<300 {
          numbers.append(next)
          next += 1 + Int64(rng.next(below: 3))
        }
      default:  // scattered at one of several densities: Elias–Fano of several widths
        let spread = UInt64(1) << (rng.next(below: 2) == 0 ? rng.next(below: 12) : 12 + rng.next(below: 14))
        for _ in 0..<500 {
          numbers.append(next)
          next += 1 + Int64(rng.next(below: spread))
        }
      }
    }
    let identification = (0..<5_000).map { (number: Int64(90_000_000_000 + 7 * $0), label: UInt32($0 % 3)) }
    return (try? encodeFull(
      blocking: numbers, identification: identification, labels: ["a", "b", "c"], useRanges: true)) ?? []
  }()

  /// The section read sequentially, as joined ranges.
  static func sequential(_ reader: BlobReader, _ section: BlobSection) throws -> [ClosedRange<Int64>] {
    var ranges = Ranges()
    let iterator = try reader.numbers(section)
    while let chunk = try iterator.nextChunk() { ranges.add(chunk) }
    return ranges.list
  }

  /// The stretches between consecutive `cuts`, as joined ranges; checks
  /// that each stretch holds only numbers inside it.
  static func stretches(_ reader: BlobReader, _ section: BlobSection, cuts: [Int64]) throws -> [ClosedRange<Int64>] {
    var ranges = Ranges()
    for (low, high) in zip(cuts, cuts.dropFirst()) {
      let iterator = try reader.numbers(section, above: low, through: high)
      while let chunk = try iterator.nextChunk() {
        switch chunk {
        case .run(let range): #expect(range.lowerBound > low && range.upperBound <= high)
        case .numbers(let numbers):
          #expect(!numbers.isEmpty && numbers.allSatisfy { $0 > low && $0 <= high })
          #expect(numbers.count <= NumberStretchIterator.chunkCapacity)
        }
        ranges.add(chunk)
      }
    }
    return ranges.list
  }

  @Test(arguments: [BlobSection.blocking, .identification])
  func stretchesAgreeWithTheSequentialRead(section: BlobSection) throws {
    let reader = try BlobReader(bytes: Self.blob)
    let whole = try Self.sequential(reader, section)
    let frames = try reader.frames(of: section)
    #expect(section == .identification || frames.count >= 5, "a blob of several frames, not \(frames.count) of \(frames.map(\.byteCount))")
    #expect(frames.first?.base == 0 && zip(frames, frames.dropFirst()).allSatisfy { $0.base < $1.base })
    #expect(frames.reduce(0) { $0 + $1.byteCount } == Int(try #require(reader.header.info(section)).length))
    let last = try #require(whole.last?.upperBound)
    var rng = SplitMix64(seed: 7)
    var cutSets: [[Int64]] = [
      [0, BlobLimits.maxNumber],
      [0] + frames.dropFirst().map(\.base) + [BlobLimits.maxNumber],
      [0] + frames.dropFirst().map { $0.base + 1 } + [BlobLimits.maxNumber],
      // Starts and ends of runs and single numbers.
      [0] + stride(from: 0, to: whole.count, by: max(1, whole.count / 20)).map { whole[$0].lowerBound }
        + [BlobLimits.maxNumber],
      [0] + stride(from: 0, to: whole.count, by: max(1, whole.count / 20)).map { whole[$0].upperBound }
        + [BlobLimits.maxNumber],
      [0, last / 2, last - 1, last, BlobLimits.maxNumber],
    ]
    for _ in 0..<8 {
      let inner = (0..<Int(1 + rng.next(below: 12))).map { _ in Int64(rng.next(below: UInt64(last) + 10)) + 1 }
      cutSets.append([0] + Set(inner).sorted() + [BlobLimits.maxNumber])
    }
    for cuts in cutSets {
      #expect(try Self.stretches(reader, section, cuts: cuts) == whole, "cuts \(cuts.prefix(6))…")
    }
    // A stretch of nothing, and one past every number.
    #expect(try Self.stretches(reader, section, cuts: [5, 5]).isEmpty)
    #expect(try Self.stretches(reader, section, cuts: [last, BlobLimits.maxNumber]).isEmpty)
  }

  @Test func stretchesCountWhatTheyMaterialize() throws {
    let reader = try BlobReader(bytes: Self.blob)
    var materialized: UInt64 = 0
    for (low, high) in [(Int64(0), Int64(1_000_000)), (1_000_000, BlobLimits.maxNumber)] {
      let iterator = try reader.numbers(.blocking, above: low, through: high)
      while let chunk = try iterator.nextChunk() {
        if case .numbers(let numbers) = chunk { materialized += UInt64(numbers.count) }
      }
    }
    #expect(reader._statistics.materializedEntries == materialized)
  }

  /// Damage in any frame is found by the stretch that covers it, however
  /// the line is cut.
  @Test func damageIsFoundByTheStretchesCoveringIt() throws {
    let info = try #require(try BlobReader(bytes: Self.blob).header.info(.blocking))
    var rng = SplitMix64(seed: 11)
    for trial in 0..<12 {
      var damaged = Self.blob
      let offset = Int(info.offset) + Int(rng.next(below: info.length))
      damaged[offset] ^= UInt8(1 << (trial % 8))
      let reader: BlobReader
      do {
        reader = try BlobReader(bytes: damaged)
        _ = try reader.frames(of: .blocking)
      } catch {
        continue  // a damaged frame header: the index refuses it
      }
      let cuts = [0] + (0..<3).map { _ in Int64(rng.next(below: 2_000_000_000)) }.sorted() + [BlobLimits.maxNumber]
      #expect(throws: BlobError.self, "byte \(offset - Int(info.offset)) of the section") {
        _ = try Self.stretches(reader, .blocking, cuts: Array(Set(cuts)).sorted())
      }
    }
  }

  /// Iterators of one reader run on different threads at once.
  @Test func stretchesReadOnSeveralThreads() throws {
    let reader = try BlobReader(bytes: Self.blob)
    let whole = try Self.sequential(reader, .blocking)
    let cuts = [0] + (try reader.frames(of: .blocking).dropFirst().map(\.base)) + [BlobLimits.maxNumber]
    let iterators = try zip(cuts, cuts.dropFirst()).map { try reader.numbers(.blocking, above: $0, through: $1) }
    let results = ResultSlots(count: iterators.count)
    DispatchQueue.concurrentPerform(iterations: iterators.count) { part in
      var ranges = Ranges()
      while let chunk = try? iterators[part].nextChunk() { ranges.add(chunk) }
      results.set(part, ranges.list)
    }
    var joined = Ranges()
    for part in 0..<iterators.count { for range in results.get(part) { joined.add(.run(range)) } }
    #expect(joined.list == whole)
  }
}

/// Joined ascending ranges.
struct Ranges {
  private(set) var list: [ClosedRange<Int64>] = []

  mutating func add(_ chunk: NumberChunk) {
    switch chunk {
    case .run(let range): add(range)
    case .numbers(let numbers): for number in numbers { add(number...number) }
    }
  }

  mutating func add(_ range: ClosedRange<Int64>) {
    if let last = list.last, last.upperBound + 1 == range.lowerBound {
      list[list.count - 1] = last.lowerBound...range.upperBound
    } else {
      list.append(range)
    }
  }
}

/// One result per part, set from any thread.
final class ResultSlots: @unchecked Sendable {
  private let lock = NSLock()
  private var slots: [[ClosedRange<Int64>]]

  init(count: Int) {
    slots = Array(repeating: [], count: count)
  }

  func set(_ part: Int, _ value: [ClosedRange<Int64>]) { lock.withLock { slots[part] = value } }
  func get(_ part: Int) -> [ClosedRange<Int64>] { lock.withLock { slots[part] } }
}
