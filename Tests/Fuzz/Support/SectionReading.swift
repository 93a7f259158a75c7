import CallDirectoryFormat

/// Reads one number section the three ways and checks that they agree, and
/// that every number delivered, even before an error, lies in
/// `1...BlobLimits.maxNumber` above the one before (what the writers allow).
enum SectionReading {
  /// Returns a few numbers the section holds, for lookups.
  static func check(_ reader: BlobReader, _ section: BlobSection, expandingRuns: Bool) -> [Int64] {
    let chunked = chunks(reader, section)
    guard expandingRuns else { return chunked.numbers }
    let single = oneByOne(reader, section)
    let batched = batches(reader, section)
    if let single, let batched, let whole = chunked.whole {
      fuzzCheck(single == batched, "\(section): next() and next(into:) disagree")
      fuzzCheck(single == whole, "\(section): next() and nextChunk() disagree")
    }
    return chunked.numbers
  }

  /// An entry: its number and label id (0 in unlabelled sections).
  struct Entry: Equatable {
    var number: Int64
    var label: UInt32
  }

  /// Every entry read with `nextChunk()` (`nil` on an error or when it holds
  /// too many), and the first and last number of each chunk.
  private static func chunks(_ reader: BlobReader, _ section: BlobSection) -> (whole: [Entry]?, numbers: [Int64]) {
    var entries: [Entry]? = []
    var numbers: [Int64] = []
    func add(_ range: ClosedRange<Int64>, _ label: UInt32) {
      numbers += [range.lowerBound, range.upperBound]
      if UInt64(bitPattern: range.upperBound &- range.lowerBound) >= BlobReadingLimits.entryLimit { entries = nil }
      entries? += range.map { Entry(number: $0, label: label) }
    }
    do {
      if section.carriesLabels {
        let iterator = try reader.entries(section)
        for _ in 0..<BlobReadingLimits.chunkLimit {
          guard let chunk = try iterator.nextChunk() else { return (entries, numbers) }
          switch chunk {
          case .run(let range, let label):
            _ = try? reader.label(label)
            add(range, label)
          case .entries(let found, let labels):
            for index in 0..<found.count { add(found[index]...found[index], labels[index]) }
            if let last = labels.last { _ = try? reader.label(last) }
          }
        }
      } else {
        let iterator = try reader.numbers(section)
        for _ in 0..<BlobReadingLimits.chunkLimit {
          guard let chunk = try iterator.nextChunk() else { return (entries, numbers) }
          switch chunk {
          case .run(let range): add(range, 0)
          case .numbers(let found): for number in found { add(number...number, 0) }
          }
        }
      }
    } catch {}
    return (nil, numbers)
  }

  /// Every entry read with `next()`, `nil` on an error.
  private static func oneByOne(_ reader: BlobReader, _ section: BlobSection) -> [Entry]? {
    var entries: [Entry] = []
    func add(_ number: Int64, _ label: UInt32) {
      fuzzCheck(number >= 1 && number <= BlobLimits.maxNumber, "\(section): number \(number) out of range")
      if let last = entries.last { fuzzCheck(number > last.number, "\(section): \(number) after \(last.number)") }
      entries.append(Entry(number: number, label: label))
    }
    do {
      if section.carriesLabels {
        let iterator = try reader.entries(section)
        while let record = try iterator.next() { add(record.number, record.labelID) }
      } else {
        let iterator = try reader.numbers(section)
        while let number = try iterator.next() { add(number, 0) }
      }
    } catch {
      return nil
    }
    return entries
  }

  /// Every entry read with `next(into:)` in batches of 7, `nil` on an error.
  private static func batches(_ reader: BlobReader, _ section: BlobSection) -> [Entry]? {
    var entries: [Entry] = []
    let numbers = UnsafeMutableBufferPointer<Int64>.allocate(capacity: 7)
    let labels = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: 7)
    defer {
      numbers.deallocate()
      labels.deallocate()
    }
    do {
      if section.carriesLabels {
        let iterator = try reader.entries(section)
        while case let count = try iterator.next(numbers: numbers, labelIDs: labels), count > 0 {
          for index in 0..<count { entries.append(Entry(number: numbers[index], label: labels[index])) }
        }
      } else {
        let iterator = try reader.numbers(section)
        while case let count = try iterator.next(into: numbers), count > 0 {
          for index in 0..<count { entries.append(Entry(number: numbers[index], label: 0)) }
        }
      }
    } catch {
      return nil
    }
    return entries
  }
}
