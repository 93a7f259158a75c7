#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One entry of a list, as the merge sees it (`label` is `nil` for blocking).
struct _Entry {
  var number: Int64
  var label: [UInt8]?
}

/// The adds of one list within a request, staged on disk as they arrive:
/// varint deltas (adds are validated ascending before they get here) and,
/// for identification, a varint label length and the label bytes.
final class _AddStaging {
  let path: String
  let hasLabels: Bool
  private var writer: _FileWriter
  private var previous: Int64 = 0
  /// Adds staged since the start or the last ``truncate()``.
  private(set) var count: Int64 = 0

  init(path: String, hasLabels: Bool) throws(_SystemError) {
    self.path = path
    self.hasLabels = hasLabels
    writer = try _FileWriter(creating: path)
  }

  /// Stages one add; `number` is above the previous staged number.
  func append(_ number: Int64, label: [UInt8]?) throws(_SystemError) {
    try writer.writeVarint(UInt64(number - previous))
    if hasLabels {
      let bytes = label ?? []
      try writer.writeVarint(UInt64(bytes.count))
      try writer.writeBytes(bytes)
    }
    previous = number
    count += 1
  }

  /// Drops everything staged so far (a `removeAll…` call).
  func truncate() throws(_SystemError) {
    try writer.close()
    writer = try _FileWriter(creating: path)
    previous = 0
    count = 0
  }

  /// Closes the file and returns a reader over the staged adds.
  func makeReader() throws(_SystemError) -> _AddReader {
    try writer.close()
    return try _AddReader(path: path, count: count, hasLabels: hasLabels)
  }
}

/// Reads back an ``_AddStaging`` file.
final class _AddReader {
  private let reader: _FileReader
  private let hasLabels: Bool
  private var remaining: Int64
  private var previous: Int64 = 0

  init(path: String, count: Int64, hasLabels: Bool) throws(_SystemError) {
    reader = try _FileReader(path: path)
    remaining = count
    self.hasLabels = hasLabels
  }

  func next() throws(_SystemError) -> _Entry? {
    guard remaining > 0 else { return nil }
    remaining -= 1
    previous += Int64(truncatingIfNeeded: try reader.requireVarint())
    guard hasLabels else { return _Entry(number: previous, label: nil) }
    let length = Int(truncatingIfNeeded: try reader.requireVarint())
    return _Entry(number: previous, label: try reader.readBytes(length))
  }
}

/// The removes of one list within a request, staged on disk as pairs of
/// little-endian `Int64`: the number and the count of adds staged in the
/// same list before the remove (which adds of this request it cancels).
final class _RemoveStaging {
  let path: String
  private var writer: _FileWriter
  private var previous = Int64.min
  /// Removes staged since the start or the last ``truncate()``.
  private(set) var count: Int64 = 0
  /// Whether the staged numbers are non-decreasing (they then stream).
  private(set) var isSorted = true

  init(path: String) throws(_SystemError) {
    self.path = path
    writer = try _FileWriter(creating: path)
  }

  /// Stages one remove.
  func append(_ number: Int64, addsBefore: Int64) throws(_SystemError) {
    try writer.writeInt64(number)
    try writer.writeInt64(addsBefore)
    if number < previous { isSorted = false }
    previous = number
    count += 1
  }

  /// Drops everything staged so far (a `removeAll…` call).
  func truncate() throws(_SystemError) {
    try writer.close()
    writer = try _FileWriter(creating: path)
    previous = Int64.min
    count = 0
    isSorted = true
  }

  /// Closes the file and returns a lookup over the staged removes.
  ///
  /// Sorted removes stream from disk; unsorted ones are loaded and sorted in
  /// memory (16 bytes per remove), since the API does not require removes to
  /// be ordered.
  func makeLookup() throws(_SystemError) -> _RemoveLookup {
    try writer.close()
    let reader = try _FileReader(path: path)
    if isSorted { return _RemoveLookup(reader: reader) }
    var pairs: [(number: Int64, addsBefore: Int64)] = []
    pairs.reserveCapacity(Int(count))
    while let number = try reader.readInt64() {
      guard let addsBefore = try reader.readInt64() else { throw _SystemError("\(path) is truncated") }
      pairs.append((number, addsBefore))
    }
    pairs.sort { $0.number < $1.number }
    return _RemoveLookup(sorted: pairs)
  }
}

/// Answers, for ascending numbers, whether the request removed a number and
/// the largest "adds before" among its removes.
final class _RemoveLookup {
  private let reader: _FileReader?
  private let sorted: [(number: Int64, addsBefore: Int64)]
  private var index = 0
  private var pending: (number: Int64, addsBefore: Int64)?
  private var isPrimed = false

  init(reader: _FileReader) {
    self.reader = reader
    self.sorted = []
  }

  init(sorted: [(number: Int64, addsBefore: Int64)]) {
    self.reader = nil
    self.sorted = sorted
  }

  /// The largest "adds before" of the removes of `number`, or `nil` when
  /// it was not removed. Successive calls must pass ascending numbers.
  func lookup(_ number: Int64) throws(_SystemError) -> Int64? {
    if !isPrimed {
      isPrimed = true
      try advance()
    }
    while let current = pending, current.number < number { try advance() }
    var result: Int64?
    while let current = pending, current.number == number {
      result = max(result ?? Int64.min, current.addsBefore)
      try advance()
    }
    return result
  }

  private func advance() throws(_SystemError) {
    if let reader {
      guard let number = try reader.readInt64() else {
        pending = nil
        return
      }
      guard let addsBefore = try reader.readInt64() else { throw _SystemError("\(reader.path) is truncated") }
      pending = (number, addsBefore)
    } else if index < sorted.count {
      pending = sorted[index]
      index += 1
    } else {
      pending = nil
    }
  }
}
