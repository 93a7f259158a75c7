import CalldirSystem
import FormatFixtures
import Testing

@testable import CallDirectoryFormat

/// Run-aware iteration: a run block comes back as one range, so walking a
/// blob costs O(runs), not O(numbers).
@Suite struct RunChunkTests {
  static let billion: ClosedRange<Int64> = 10_000_000_000...10_999_999_999

  /// A full snapshot with a 10^9-number blocking run between single
  /// numbers, and a 10^9-entry identification run.
  static func billionBlob() throws -> [UInt8] {
    let sink = MemoryBlobSink()
    let writer = try FullSnapshotWriter(sink: sink, version: 7, labels: ["Range"])
    try writer.appendBlocking(5)
    try writer.appendBlocking(billion)
    try writer.appendBlocking(20_000_000_000)
    try writer.appendIdentification(30_000_000_000...30_000_999_999, labelID: 0)
    try writer.finish()
    return sink.bytes
  }

  /// Every chunk of `iterator`, runs as ranges.
  func chunks(_ iterator: NumberIterator) throws -> [ClosedRange<Int64>] {
    var out: [ClosedRange<Int64>] = []
    while let chunk = try iterator.nextChunk() {
      switch chunk {
      case .run(let range): out.append(range)
      case .numbers(let numbers): out += numbers.map { $0...$0 }
      }
    }
    return out
  }

  @Test func aBillionNumberRunIsOneChunk() throws {
    let reader = try BlobReader(bytes: try Self.billionBlob())
    let blocking = try reader.blocking()
    #expect(try chunks(blocking) == [5...5, Self.billion, 20_000_000_000...20_000_000_000])
    #expect(blocking.delivered == 1_000_000_002)
    let identification = try reader.identification()
    var pieces = 0
    while let chunk = try identification.nextChunk() {
      pieces += 1
      guard case .run(let range, let label) = chunk else {
        Issue.record("expected a run, got \(chunk.count) entries")
        continue
      }
      #expect(range == 30_000_000_000...30_000_999_999)
      #expect(try reader.label(label) == "Range")
    }
    #expect(pieces == 1)
    #expect(reader._statistics.materializedEntries == 0)  // single numbers are runs of one
  }

  /// Verification (without the identification digest, which hashes every
  /// entry by definition) walks the runs without expanding them.
  @Test func verifyingABillionNumberRunDoesNotExpandIt() throws {
    let sink = MemoryBlobSink()
    let writer = try FullSnapshotWriter(sink: sink, version: 7)
    try writer.appendBlocking(Self.billion)
    try writer.appendBlocking(30_000_000_000...30_999_999_999)
    try writer.finish()
    let reader = try BlobReader(bytes: sink.bytes)
    let verification = try reader.verify(recomputingDigest: true)
    #expect(verification.digestVerified)
    #expect(reader.header.entryCount(.blocking) == 2_000_000_000)
    #expect(reader._statistics.materializedEntries == 0)
    let lookup = BlobLookup(reader: reader)
    #expect(try lookup.containsBlocking([10_500_000_000, 10_999_999_999, 11_000_000_000]) == [true, true, false])
  }

  /// Chunks, buffers and single reads give the same entries, whatever
  /// mix of runs and scattered numbers, and may be mixed on one iterator.
  @Test(arguments: [1 as UInt64, 2, 3]) func chunksAgreeWithBufferedReads(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    var blocking: [Int64] = []
    var next: Int64 = 1
    for _ in 0..<300 {
      next += Int64(rng.next(below: 50_000)) + 1
      let length = Int64(rng.next(below: 4) == 0 ? rng.next(below: 5_000) + 64 : rng.next(below: 3) + 1)
      blocking += Array(next..<(next + length))
      next += length
    }
    let bytes = try encodeFull(blocking: blocking, useRanges: true)
    let reader = try BlobReader(bytes: bytes)
    let expanded = try chunks(reader.blocking()).flatMap { Array($0) }
    #expect(expanded == blocking)

    let mixed = try reader.blocking()
    var seen: [Int64] = []
    var step = 0
    while true {
      step += 1
      if step % 3 == 0, let number = try mixed.next() {
        seen.append(number)
      } else if step % 3 == 1, let chunk = try mixed.nextChunk() {
        switch chunk {
        case .run(let range): seen += Array(range)
        case .numbers(let numbers): seen += Array(numbers)
        }
      } else {
        var buffer = [Int64](repeating: 0, count: 777)
        let got = try buffer.withUnsafeMutableBufferPointer { (buffer) throws(BlobError) in try mixed.next(into: buffer) }
        if got == 0 && mixed.delivered == mixed.count { break }
        seen += buffer[0..<got]
      }
    }
    #expect(seen == blocking)
  }

  /// A corrupt frame inside a run-heavy section is found by the chunked walk too.
  @Test func chunksCheckFrameChecksums() throws {
    var bytes = try Self.billionBlob()
    let info = try #require(try BlobReader(bytes: bytes).header.info(.blocking))
    bytes[Int(info.offset) + 30] ^= 0x40
    let reader = try BlobReader(bytes: bytes)
    #expect(throws: BlobError.self) { _ = try chunks(reader.blocking()) }
  }
}
