import FormatFixtures
import Testing

@testable import CallDirectoryFormat

/// The bulk writing path (`appendBlocking(contentsOf:)`, which cuts blocks
/// by scanning the buffer and encodes them straight from it) writes the
/// same bytes as appending number by number, however the numbers are
/// chunked, mixed with ranges, shaped or sharded.
@Suite struct BulkWriterAgreementTests {
  /// Numbers of many shapes at once: scattered, dense (bitmaps), streaks
  /// just under and over the run threshold, large jumps (gap cuts), blocks
  /// filled to the entry limit, and numbers near the top of the range.
  static func shapedNumbers(seed: UInt64) -> [Int64] {
    var generator = SplitMix64(seed: seed)
    var numbers: [Int64] = []
    var value: Int64 = Int64(generator.next(below: 1000)) + 1
    while numbers.count < 20_000 {
      switch generator.next(below: 8) {
      case 0:  // scattered
        for _ in 0..<Int(generator.next(below: 3000)) {
          value += Int64(generator.next(below: 100_000)) + 1
          numbers.append(value)
        }
      case 1:  // dense
        for _ in 0..<Int(generator.next(below: 3000)) {
          value += Int64(generator.next(below: 3)) + 1
          numbers.append(value)
        }
      case 2:  // a streak around the run threshold
        let length = 60 + Int(generator.next(below: 8))
        for _ in 0..<length {
          value += 1
          numbers.append(value)
        }
      case 3:  // a long run
        for _ in 0..<Int(generator.next(below: 5000)) {
          value += 1
          numbers.append(value)
        }
      case 4:  // a jump far away
        value += Int64(generator.next(below: 1 << 40)) + 1
        numbers.append(value)
      case 5:  // evenly spaced, wide gaps
        let step = Int64(generator.next(below: 1 << 20)) + 1
        for _ in 0..<Int(generator.next(below: 2500)) {
          value += step
          numbers.append(value)
        }
      case 6:  // pairs
        for _ in 0..<Int(generator.next(below: 500)) {
          value += Int64(generator.next(below: 50)) + 2
          numbers.append(value)
          value += 1
          numbers.append(value)
        }
      default:  // one number
        value += Int64(generator.next(below: 10)) + 1
        numbers.append(value)
      }
    }
    return numbers
  }

  static func oneByOne(_ numbers: [Int64]) throws -> [UInt8] {
    let sink = MemoryBlobSink()
    let writer = try FullSnapshotWriter(sink: sink, version: 3)
    for number in numbers { try writer.appendBlocking(number) }
    try writer.finish()
    return sink.bytes
  }

  /// Appends `numbers` in chunks of the given sizes (cycled), every third
  /// chunk of consecutive numbers as a range instead when `ranges`.
  /// With `ascending`, the chunks go through
  /// `appendBlocking(ascending:hashingAside:)`, hashing aside or not.
  static func inChunks(_ numbers: [Int64], sizes: [Int], ranges: Bool, ascending: Bool? = nil) throws -> [UInt8] {
    let sink = MemoryBlobSink()
    let writer = try FullSnapshotWriter(sink: sink, version: 3)
    var start = 0
    var turn = 0
    while start < numbers.count {
      let end = min(numbers.count, start + sizes[turn % sizes.count])
      let chunk = numbers[start..<end]
      if ranges, turn % 3 == 2, let first = chunk.first, let last = chunk.last, last - first == Int64(chunk.count - 1) {
        try writer.appendBlocking(first...last)
      } else {
        // A copy of its own: the writer may not read past the chunk it is given.
        try Array(chunk).withUnsafeBufferPointer {
          if let aside = ascending { try writer.appendBlocking(ascending: $0, hashingAside: aside) } else { try writer.appendBlocking(contentsOf: $0) }
        }
      }
      start = end
      turn += 1
    }
    try writer.finish()
    return sink.bytes
  }

  @Test(arguments: [1, 2, 3, 4, 5])
  func bulkWritesWhatOneByOneWrites(seed: UInt64) throws {
    let numbers = Self.shapedNumbers(seed: seed)
    let expected = try Self.oneByOne(numbers)
    #expect(try Self.inChunks(numbers, sizes: [numbers.count], ranges: false) == expected)
    #expect(try Self.inChunks(numbers, sizes: [1, 7, 64, 2048, 2049, 100_000], ranges: false) == expected)
    #expect(try Self.inChunks(numbers, sizes: [63, 65, 1, 5000], ranges: true) == expected)
    #expect(try Self.inChunks(numbers, sizes: [3], ranges: true) == expected)
    for aside in [false, true] {
      #expect(try Self.inChunks(numbers, sizes: [numbers.count], ranges: false, ascending: aside) == expected)
      #expect(try Self.inChunks(numbers, sizes: [63, 70_000, 1, 5000], ranges: true, ascending: aside) == expected)
    }
  }

  /// The bulk path passes over quiet numbers eight at a time: a jump that
  /// just cuts a block or just does not, a streak that just reaches the run
  /// threshold, and a block that just fills, at every position of those
  /// eight and at every size of a young block, write what one by one writes.
  @Test func quietStretchesEndWhereOneByOneSeesThem() throws {
    for position in 0..<24 {
      for gap in [Int64(1_000), 37] {
        var numbers: [Int64] = []
        var value: Int64 = 10_000_000_000
        func steps(_ count: Int, _ step: Int64) {
          for _ in 0..<count {
            value += step
            numbers.append(value)
          }
        }
        for young in [1, 8, 9, 31, 33, 200, 1500, 2030] {
          steps(young + position, gap)
          steps(1, 64 * (gap + 1))  // cuts a block of evenly spaced numbers
          steps(young + position, gap)
          steps(1, 64 * (gap + 1) - 1)  // does not
          steps(position, gap)
          steps(64, 1)  // a run, from a streak that just reaches the threshold
          steps(position + 3, gap)
          steps(63, 1)  // a streak that does not
          steps(BlobLimits.maxBlockEntries + position, gap)  // a block that fills
        }
        let expected = try Self.oneByOne(numbers)
        #expect(try Self.inChunks(numbers, sizes: [numbers.count], ranges: false, ascending: false) == expected)
        #expect(try Self.inChunks(numbers, sizes: [5 + position, 1000], ranges: false) == expected)
      }
    }
  }

  /// The bulk digest (gap varints from a table by leading zeros) hashes
  /// what adding the numbers one by one hashes, for gaps at every varint
  /// length's edges and runs of ones before them.
  @Test func bulkDigestMatchesOneByOneAtEveryVarintLength() throws {
    var gaps: [Int64] = []
    for bits in stride(from: 7, through: 42, by: 7) {
      for gap in [(Int64(1) << bits) - 1, Int64(1) << bits, (Int64(1) << bits) + 1] {
        gaps += [1, gap, 1, 1, 1, gap, 2]
      }
    }
    var numbers: [Int64] = []
    var value: Int64 = 0
    for gap in gaps {
      value += gap
      numbers.append(value)
    }
    try Self.expectBulkDigestsMatch(numbers)
    // The same edges without runs of ones between them, in every order
    // (groups of eight plain gaps, which the vector writer takes whole).
    var generator = SplitMix64(seed: 5)
    var plainGaps = gaps.filter { $0 > 1 }
    for _ in 0..<8 {
      plainGaps.shuffle(using: &generator)
      value = 0
      try Self.expectBulkDigestsMatch(plainGaps.map { gap in
        value += gap
        return value
      })
    }
  }

  /// The bulk digest of `numbers`, in chunks of several sizes, with the
  /// AVX-512 writer (where the CPU has it) and without, is the digest of
  /// adding them one by one, and finds them ascending.
  static func expectBulkDigestsMatch(_ numbers: [Int64], sourceLocation: SourceLocation = #_sourceLocation) throws {
    var single = ContentDigestBuilder()
    for number in numbers { try single.addBlocking(number) }
    let expected = single.finalize()
    for vectorized in Set([false, _VectorLoops.available]) {
      for chunk in [1, 2, 5, 8, 9, 1000, numbers.count] {
        var bulk = ContentDigestBuilder()
        var start = 0
        var ascending = true
        while start < numbers.count {
          let end = min(numbers.count, start + chunk)
          ascending = numbers[start..<end].withUnsafeBufferPointer {
            bulk._appendBlocking(checkingAscent: $0, vectorized: vectorized)
          } && ascending
          start = end
        }
        #expect(ascending, "chunks of \(chunk), vectorized: \(vectorized)", sourceLocation: sourceLocation)
        #expect(bulk.finalize() == expected, "chunks of \(chunk), vectorized: \(vectorized)", sourceLocation: sourceLocation)
      }
    }
  }

  /// Lists of every shape (runs, streaks, scattered and dense stretches,
  /// far jumps) hash alike in bulk and one by one.
  @Test(arguments: [31, 32, 33])
  func bulkDigestMatchesOneByOneOnShapedLists(seed: UInt64) throws {
    try Self.expectBulkDigestsMatch(Self.shapedNumbers(seed: seed))
  }

  /// A number that does not rise, or is below 0, anywhere in a chunk
  /// (either writer, at either end of a group of eight) is found.
  @Test func bulkDigestFindsADescent() {
    let sorted = (0..<100).map { Int64(1_000_000 + $0 * 300) }
    for vectorized in Set([false, _VectorLoops.available]) {
      for position in [0, 1, 7, 8, 9, 15, 16, 50, 99] {
        for replacement: (Int64) -> Int64 in [{ $0 - 300 }, { $0 - 301 }, { _ in -1 }, { _ in .min }, { $0 - 1_000_000 }] {
          var numbers = sorted
          numbers[position] = replacement(numbers[position])
          var bulk = ContentDigestBuilder()
          let ascending = numbers.withUnsafeBufferPointer { bulk._appendBlocking(checkingAscent: $0, vectorized: vectorized) }
          // Each above the one before, the first above 0 (nothing added yet).
          let expected = zip(numbers, [0] + numbers).allSatisfy { $0 > $1 }
          #expect(ascending == expected, "position \(position), \(numbers[position]), vectorized: \(vectorized)")
        }
      }
    }
  }

  /// Blocks of every low width the AVX-512 encoder takes (gaps around
  /// 2^k), of every length modulo eight, some with jumps that carry the
  /// high region past the next word: its bytes are the Swift encoder's
  /// and the array encoder's.
  @Test func vectorEncoderMatchesAtEveryLowWidth() {
    var generator = SplitMix64(seed: 21)
    let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: _BlockEncoder.maxBlockBytes)
    defer { scratch.deallocate() }
    var widths = Set<Int>()
    for bits in 0...18 {
      for count in [2, 16, 17, 23, 24, 25, 100, 1000, BlobLimits.maxBlockEntries] {
        let jumps = generator.next(below: 3) == 0
        var values: [UInt64] = []
        var value = generator.next(below: 1 << 40) + 1
        for _ in 0..<count {
          value += generator.next(below: 2 << UInt64(bits)) + 1
          if jumps && generator.next(below: 16) == 0 { value += generator.next(below: 1 << UInt64(bits + 9)) }
          values.append(value)
        }
        let previous = values[0] - generator.next(below: 1000) - 1
        var expected: [UInt8] = []
        values.withUnsafeBufferPointer { block in
          _BlockEncoder.encode(values: block, labels: nil, previous: previous, into: &expected)
          for vectorized in Set([false, _VectorLoops.available]) {
            let length = _BlockEncoder.encodeUnlabeled(
              block.baseAddress!, count: count, previous: previous, into: scratch, vectorized: vectorized)
            #expect(
              Array(UnsafeBufferPointer(start: scratch, count: length)) == expected,
              "\(count) values, gaps below \(2 << bits), vectorized: \(vectorized)")
          }
        }
        if expected[0] >> 6 == _BlockKind.eliasFano.rawValue { widths.insert(Int(expected[0] & 63)) }
      }
    }
    #expect(widths.isSuperset(of: 1...16))
  }

  /// The scan for numbers that may change a pending block stops where the
  /// Swift loop stops, with AVX-512 (where the CPU has it): in stretches
  /// of every shape, from every kind of block start.
  @Test(arguments: [41, 42])
  func quietScanStopsWhereTheSwiftLoopStops(seed: UInt64) {
    var generator = SplitMix64(seed: seed)
    let numbers = Self.shapedNumbers(seed: seed).map { UInt64($0) }
    numbers.withUnsafeBufferPointer { buffer in
      let values = buffer.baseAddress!
      for _ in 0..<3000 {
        let blockStart = Int(generator.next(below: UInt64(numbers.count - 2)))
        let from = blockStart + 1 + Int(generator.next(below: 40))
        let total = min(numbers.count, from + Int(generator.next(below: 3000)))
        guard from < total else { continue }
        let swift = _NumberSectionWriter._skipQuiet(values, from: from, blockStart: blockStart, total: total, vectorized: false)
        let vector = _NumberSectionWriter._skipQuiet(
          values, from: from, blockStart: blockStart, total: total, vectorized: _VectorLoops.available)
        #expect(swift == vector, "block from \(blockStart), scan from \(from) to \(total)")
      }
    }
  }

  /// Block by block, the direct encoder writes what the array encoder
  /// writes, with the AVX-512 encoder (where the CPU has it) and without.
  @Test(arguments: [11, 12, 13])
  func directEncoderMatchesArrayEncoder(seed: UInt64) {
    var generator = SplitMix64(seed: seed)
    let numbers = Self.shapedNumbers(seed: seed).map { UInt64($0) }
    let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: _BlockEncoder.maxBlockBytes)
    defer { scratch.deallocate() }
    var start = 1
    while start < numbers.count {
      let count = min(numbers.count - start, Int(generator.next(below: UInt64(BlobLimits.maxBlockEntries))) + 1)
      let previous = numbers[start - 1]
      numbers.withUnsafeBufferPointer { buffer in
        let block = UnsafeBufferPointer(rebasing: buffer[start..<(start + count)])
        var expected: [UInt8] = []
        _BlockEncoder.encode(values: block, labels: nil, previous: previous, into: &expected)
        for vectorized in Set([false, _VectorLoops.available]) {
          let length = _BlockEncoder.encodeUnlabeled(
            block.baseAddress!, count: count, previous: previous, into: scratch, vectorized: vectorized)
          #expect(Array(UnsafeBufferPointer(start: scratch, count: length)) == expected, "vectorized: \(vectorized)")
        }
      }
      start += count
    }
  }
}

/// The bulk check, which tests a block of numbers without a branch before
/// it searches, reports the first offending number as a plain scan does,
/// wherever it is and whatever it is.
@Suite struct BulkCheckTests {
  /// The first number's range, then each number against the one before
  /// it (a number below 1 after a valid one is out of order).
  static func plainScan(_ numbers: [Int64]) -> BlobError? {
    for index in numbers.indices {
      let number = numbers[index]
      guard index > 0 else {
        if number < 1 || number > BlobLimits.maxNumber { return .numberOutOfRange(section: .blocking, number: number) }
        continue
      }
      if number > BlobLimits.maxNumber { return .numberOutOfRange(section: .blocking, number: number) }
      if number == numbers[index - 1] { return .duplicateEntry(section: .blocking, number: number) }
      if number < numbers[index - 1] {
        return .outOfOrder(section: .blocking, previous: numbers[index - 1], number: number)
      }
    }
    return nil
  }

  @Test func reportsWhatAPlainScanReports() throws {
    let sorted = (0..<6000).map { Int64(10_000_000_000 + $0 * 7) }
    for position in [0, 1, 2, 1023, 1024, 1025, 2048, 5999] {
      for replacement: (Int64) -> Int64 in [
        { $0 - 7 }, { $0 - 8 }, { _ in 0 }, { _ in -5 }, { _ in .min }, { _ in .max }, { _ in .max - 1 }, { $0 + 3 },
      ] {
        var numbers = sorted
        numbers[position] = replacement(numbers[position])
        let expected = Self.plainScan(numbers)
        let writer = try FullSnapshotWriter(sink: MemoryBlobSink(), version: 1)
        var thrown: BlobError?
        do {
          try numbers.withUnsafeBufferPointer { try writer.appendBlocking(contentsOf: $0) }
        } catch let error as BlobError {
          thrown = error
        }
        #expect(thrown == expected, "position \(position), value \(numbers[position])")
      }
    }
  }

  /// The slice-by-slice check of `appendBlocking(ascending:)` reports what
  /// a plain scan reports, in any slice of a buffer long enough to be
  /// hashed on a second thread, and the writer then fails: the slices
  /// before the bad number went out, so nothing may be committed.
  @Test func ascendingAppendReportsAndFailsTheWriter() throws {
    let length = FullSnapshotWriter.checkedSliceLength * 3 + 5
    let sorted = (0..<length).map { Int64(10_000_000_000 + $0 * 7) }
    let slice = FullSnapshotWriter.checkedSliceLength
    for position in [0, 1, slice - 1, slice, 2 * slice + 17, length - 1] {
      for replacement: (Int64) -> Int64 in [{ $0 - 7 }, { $0 - 9 }, { $0 + 7 }, { _ in 0 }, { _ in -1 }, { _ in .min }, { _ in .max }] {
        var numbers = sorted
        numbers[position] = replacement(numbers[position])
        guard let expected = Self.plainScan(numbers) else { continue }
        for aside in [false, true] {
          let sink = MemoryBlobSink()
          let writer = try FullSnapshotWriter(sink: sink, version: 1)
          #expect(throws: expected) {
            try numbers.withUnsafeBufferPointer { try writer.appendBlocking(ascending: $0, hashingAside: aside) }
          }
          #expect(throws: BlobError.self) { try writer.finish() }
          #expect(!sink.isCommitted, "position \(position)")
        }
      }
    }
  }
}
