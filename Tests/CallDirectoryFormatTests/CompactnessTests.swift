import Testing
@testable import CallDirectoryFormat
import FormatFixtures

/// The compactness floors, at reduced size with the same density and shape
/// (the universe shrinks with the count). Full-size figures come from
/// `formatbench sizes`.
@Suite struct CompactnessTests {
  private func bitsPerEntry(_ numbers: [Int64]) throws -> Double {
    let bytes = try encodeFull(blocking: numbers, useRanges: true)
    let reader = try BlobReader(bytes: bytes)
    #expect(reader.header.entryCount(.blocking) == UInt64(numbers.count))
    #expect(try drain(reader.blocking()) == numbers)
    return Double(bytes.count * 8) / Double(numbers.count)
  }

  /// Shape 1 at 1/10: 1M numbers over 30 area codes + 1 FR block + 1 DE prefix.
  @Test func scatteredAreaCodes() throws {
    let numbers = DatasetShapes.scattered(scale: 0.1)
    #expect(numbers.count == 1_000_000)
    let bits = try bitsPerEntry(numbers)
    #expect(bits <= 11.0, "scattered: \(bits) bits/entry")
  }

  /// Shape 2 at 1/10: 2 expanded 33PPP###### prefixes + 100k scattered.
  @Test func expandedPrefixes() throws {
    let numbers = DatasetShapes.prefixBlocks(scale: 0.1)
    #expect(numbers.count == 2_100_000)
    let bits = try bitsPerEntry(numbers)
    #expect(bits <= 0.85, "prefix blocks: \(bits) bits/entry")
  }

  /// Shape 3 at full size: 200k scattered.
  @Test func sparse() throws {
    let numbers = DatasetShapes.sparse()
    #expect(numbers.count == 200_000)
    let bits = try bitsPerEntry(numbers)
    #expect(bits <= 17.0, "sparse: \(bits) bits/entry")
  }

  /// Identification label ids add at most their bit width (4 bits for 9
  /// labels) plus a few bytes per block.
  @Test func labelOverhead() throws {
    let numbers = DatasetShapes.sparse(count: 100_000, seed: 12)
    let entries = DatasetShapes.labelled(numbers, labelCount: 9, seed: 2)
    let plain = try encodeFull(blocking: numbers).count
    let labelled = try encodeFull(blocking: [], identification: entries, labels: (0..<9).map { "l\($0)" }).count
    let extra = Double((labelled - plain) * 8) / Double(numbers.count)
    #expect(extra <= 4.5, "label overhead \(extra) bits/entry")
  }
}
