import CallDirectoryFormat

/// Looks numbers up in every section of a blob.
enum LookupProbing {
  static func probe(_ lookup: BlobLookup, sections: [BlobSection], near found: [Int64], input: [UInt8]) {
    var numbers: [Int64] = []
    for number in found.prefix(64) { numbers += [number &- 1, number, number &+ 1] }
    var word = 0
    while numbers.count < 256, word + 8 <= input.count {
      numbers.append(input[word..<(word + 8)].reduce(Int64(0)) { $0 << 8 | Int64($1) })
      word += 8
    }
    numbers += [0, 1, -1, Int64.min, Int64.max, BlobLimits.maxNumber]
    _ = try? lookup.containsBlocking(numbers)
    _ = try? lookup.identificationLabels(for: numbers)
    for section in sections where section.isNumberSection {
      _ = try? lookup.frameCount(in: section)
      _ = try? lookup.contains(numbers, in: section)
      if section.carriesLabels { _ = try? lookup.labelIDs(for: numbers, in: section) }
    }
    if let number = numbers.first {
      _ = try? lookup.containsBlocking(number)
      _ = try? lookup.identificationLabel(for: number)
    }
  }
}
