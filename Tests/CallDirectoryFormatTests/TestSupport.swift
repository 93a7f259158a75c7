@_exported import CalldirTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import CallDirectoryFormat
import FormatFixtures

/// Writes a full snapshot to memory; consecutive stretches of at least
/// `rangeThreshold` numbers are appended as ranges when `useRanges`.
func encodeFull(
  blocking: [Int64], identification: [(number: Int64, label: UInt32)] = [],
  labels: [String] = [], version: UInt64 = 1, useRanges: Bool = false
) throws -> [UInt8] {
  let sink = MemoryBlobSink()
  let writer = try FullSnapshotWriter(sink: sink, version: version, labels: labels)
  if useRanges {
    var index = 0
    while index < blocking.count {
      var end = index + 1
      while end < blocking.count && blocking[end] == blocking[end - 1] + 1 { end += 1 }
      if end - index >= 64 {
        try writer.appendBlocking(blocking[index]...blocking[end - 1])
      } else {
        for number in blocking[index..<end] { try writer.appendBlocking(number) }
      }
      index = end
    }
  } else {
    for number in blocking { try writer.appendBlocking(number) }
  }
  for entry in identification { try writer.appendIdentification(entry.number, labelID: entry.label) }
  try writer.finish()
  #expect(sink.isCommitted)
  return sink.bytes
}

/// Drains a number iterator with bulk reads of `chunk` entries.
func drain(_ iterator: NumberIterator, chunk: Int = 4096) throws -> [Int64] {
  var out = [Int64]()
  var buffer = [Int64](repeating: 0, count: chunk)
  while true {
    let got = try buffer.withUnsafeMutableBufferPointer { try iterator.next(into: $0) }
    if got == 0 { return out }
    out.append(contentsOf: buffer[0..<got])
  }
}

/// Drains an identification iterator with bulk reads of `chunk` entries.
func drain(_ iterator: IdentificationIterator, chunk: Int = 4096) throws -> [(number: Int64, label: UInt32)] {
  var out = [(number: Int64, label: UInt32)]()
  var numbers = [Int64](repeating: 0, count: chunk)
  var labels = [UInt32](repeating: 0, count: chunk)
  while true {
    let got = try numbers.withUnsafeMutableBufferPointer { n in
      try labels.withUnsafeMutableBufferPointer { l in try iterator.next(numbers: n, labelIDs: l) }
    }
    if got == 0 { return out }
    for index in 0..<got { out.append((numbers[index], labels[index])) }
  }
}

/// Looks up, in every number section of a blob, each frame's base and the
/// number after it and the extremes; then reads every section and label
/// of the blob. Returns normally or throws, which is all the corruption
/// tests require (they run under a trap check by virtue of not crashing the
/// test process).
func exercise(_ bytes: [UInt8]) throws {
  let lookup = BlobLookup(reader: try BlobReader(bytes: bytes))
  for info in lookup.reader.header.sections where info.section.isNumberSection {
    let bases = try lookup._index(info.section).frames.map { Int64($0.base) }
    let probes = bases + bases.map { $0 + 1 } + [1, BlobLimits.maxNumber]
    if info.section.carriesLabels {
      for id in try lookup.labelIDs(for: probes, in: info.section) {
        if let id { _ = try lookup.reader.label(id) }
      }
    } else {
      _ = try lookup.contains(probes, in: info.section)
    }
  }
  let reader = try BlobReader(bytes: bytes)
  for info in reader.header.sections where info.section.isNumberSection {
    if info.section.carriesLabels {
      let iterator = try reader.entries(info.section)
      var seen = 0
      while let record = try iterator.next() {
        _ = try reader.label(record.labelID)
        seen += 1
        if seen > 100_000 { break }
      }
    } else {
      _ = try drain(reader.numbers(info.section), chunk: 333)
    }
  }
  try reader.verify()
}

/// Lists a directory's entries (names only).
func listDirectory(_ path: String) -> [String] {
  guard let dir = opendir(path) else { return [] }
  defer { closedir(dir) }
  var names = [String]()
  while let entry = readdir(dir) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    if name != "." && name != ".." { names.append(name) }
  }
  return names.sorted()
}

/// Removes a flat directory and its files.
func removeTree(_ path: String) {
  for name in listDirectory(path) { unlink("\(path)/\(name)") }
  rmdir(path)
}

/// Seeded random numbers in `1...maxNumber`, sorted and unique.
func randomNumbers(count: Int, below bound: UInt64, seed: UInt64) -> [Int64] {
  var rng = SplitMix64(seed: seed)
  var values = (0..<count).map { _ in Int64(rng.next(below: bound)) + 1 }
  values.sort()
  var unique = [Int64]()
  for value in values where unique.last != value { unique.append(value) }
  return unique
}

extension UInt32 {
  static func crcCheck(_ string: String) -> UInt32 { CRC32C.checksum(Array(string.utf8)) }
}
