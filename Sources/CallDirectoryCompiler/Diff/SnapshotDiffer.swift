import CallDirectoryFormat
import Dispatch

/// Computes the delta between two full snapshot blobs as a streaming merge
/// over their sorted lists, and writes it as a delta blob.
///
/// A changed label is a remove plus an add. Memory holds the two label
/// dictionaries and the changes themselves, never the unchanged entries.
public enum SnapshotDiffer {
  /// What a delta holds.
  public struct Summary: Sendable, Hashable {
    public var blockingAdded = 0
    public var blockingRemoved = 0
    /// Identification adds, relabels included.
    public var identificationAdded = 0
    /// Identification removes, relabels included.
    public var identificationRemoved = 0
    /// Numbers whose label changed.
    public var relabeled = 0
    /// The delta blob's size.
    public var bytes: Int64 = 0
    /// The delta's header.
    public var header: BlobHeader? = nil

    public var isEmpty: Bool {
      blockingAdded == 0 && blockingRemoved == 0 && identificationAdded == 0 && identificationRemoved == 0
    }
  }

  /// Writes the delta from `old` to `new` (both full snapshots) to `path`, atomically.
  /// - Throws: `BlobError` when a blob is corrupt or not a full snapshot, or writing fails.
  public static func writeDelta(from old: BlobReader, to new: BlobReader, path: String) throws -> Summary {
    guard old.header.kind == .full else { throw BlobError.wrongKind(expected: .full, actual: old.header.kind) }
    guard new.header.kind == .full else { throw BlobError.wrongKind(expected: .full, actual: new.header.kind) }
    var summary = Summary()

    // Identification first: its adds decide the delta's label dictionary,
    // which the writer needs before anything else.
    let newLabels = try labels(of: new)
    let oldToNew = try labelMapping(from: old, to: newLabels)
    var identificationRemoves: [Int64] = []
    var identificationAdds: [(number: Int64, label: UInt32)] = []
    try mergeIdentification(old: old, new: new, oldToNew: oldToNew) { change in
      switch change {
      case .removed(let number): identificationRemoves.append(number)
      case .added(let number, let label): identificationAdds.append((number, label))
      case .relabeled(let number, let label):
        identificationRemoves.append(number)
        identificationAdds.append((number, label))
        summary.relabeled += 1
      }
    }
    var used = [Bool](repeating: false, count: newLabels.count)
    for add in identificationAdds { used[Int(add.label)] = true }
    var deltaID = [UInt32](repeating: 0, count: newLabels.count)
    var deltaLabels: [String] = []
    for (id, label) in newLabels.enumerated() where used[id] {
      deltaID[id] = UInt32(deltaLabels.count)
      deltaLabels.append(label)
    }

    let writer = try DeltaWriter(
      path: path, baseVersion: old.header.version, baseDigest: old.header.contentDigest,
      targetVersion: new.header.version, targetDigest: new.header.contentDigest, labels: deltaLabels)
    var blockingAdds: [Int64] = []
    try mergeNumbers(try old.blocking(), try new.blocking(),
      onlyInFirst: { try writer.appendBlockingRemove($0); summary.blockingRemoved += 1 },
      onlyInSecond: { blockingAdds.append($0) })
    for number in blockingAdds { try writer.appendBlockingAdd(number) }
    summary.blockingAdded = blockingAdds.count
    for number in identificationRemoves { try writer.appendIdentificationRemove(number) }
    for add in identificationAdds { try writer.appendIdentificationAdd(add.number, labelID: deltaID[Int(add.label)]) }
    summary.identificationRemoved = identificationRemoves.count
    summary.identificationAdded = identificationAdds.count
    let header = try writer.finish()
    summary.header = header
    summary.bytes = Int64(header.fileSize)
    return summary
  }

  // MARK: - Merging

  /// Calls the closures with the numbers only one of two ascending streams holds.
  ///
  /// The second stream is decoded on another thread, a few chunks ahead,
  /// while this thread decodes the first and merges, so two large blobs
  /// decode in about the time of one.
  static func mergeNumbers(
    _ first: NumberIterator, _ second: NumberIterator,
    onlyInFirst: (Int64) throws -> Void, onlyInSecond: (Int64) throws -> Void
  ) throws {
    let prefetcher = PrefetchingNumbers(second)
    defer { prefetcher.stop() }
    var left = BufferedNumbers(first)
    var right = BufferedNumbers(prefetcher)
    try left.refill()
    try right.refill()
    while true {
      if left.isAtEnd {
        while !right.isAtEnd {
          try onlyInSecond(right.current)
          try right.advance()
        }
        return
      }
      if right.isAtEnd {
        while !left.isAtEnd {
          try onlyInFirst(left.current)
          try left.advance()
        }
        return
      }
      // Skip the common run of equal numbers quickly within the buffers.
      let skipped = left.skipEqualPrefix(with: &right)
      if skipped { continue }
      let a = left.current
      let b = right.current
      if a < b {
        try onlyInFirst(a)
        try left.advance()
      } else if b < a {
        try onlyInSecond(b)
        try right.advance()
      } else {
        try left.advance()
        try right.advance()
      }
    }
  }

  enum IdentificationChange {
    case removed(Int64)
    case added(Int64, label: UInt32)
    case relabeled(Int64, label: UInt32)
  }

  /// Merges the identification lists; labels are the new blob's ids.
  private static func mergeIdentification(
    old: BlobReader, new: BlobReader, oldToNew: [Int64], report: (IdentificationChange) throws -> Void
  ) throws {
    let left = try old.identification()
    let right = try new.identification()
    var a = try left.next()
    var b = try right.next()
    while let oldEntry = a, let newEntry = b {
      if oldEntry.number < newEntry.number {
        try report(.removed(oldEntry.number))
        a = try left.next()
      } else if newEntry.number < oldEntry.number {
        try report(.added(newEntry.number, label: newEntry.labelID))
        b = try right.next()
      } else {
        if oldToNew[Int(oldEntry.labelID)] != Int64(newEntry.labelID) {
          try report(.relabeled(newEntry.number, label: newEntry.labelID))
        }
        a = try left.next()
        b = try right.next()
      }
    }
    while let oldEntry = a {
      try report(.removed(oldEntry.number))
      a = try left.next()
    }
    while let newEntry = b {
      try report(.added(newEntry.number, label: newEntry.labelID))
      b = try right.next()
    }
  }

  private static func labels(of reader: BlobReader) throws -> [String] {
    try (0..<reader.labelCount).map { try reader.label(UInt32($0)) }
  }

  /// For each label id of `old`, the id of the byte-identical label in
  /// `newLabels`, or -1.
  private static func labelMapping(from old: BlobReader, to newLabels: [String]) throws -> [Int64] {
    var index: [[UInt8]: Int64] = [:]
    for (id, label) in newLabels.enumerated() { index[Array(label.utf8)] = Int64(id) }
    return try (0..<old.labelCount).map { index[Array(try old.label(UInt32($0)).utf8)] ?? -1 }
  }
}

/// An ascending number stream read in bulk, either decoded here into an
/// owned buffer or taken chunk by chunk from a ``PrefetchingNumbers``.
struct BufferedNumbers {
  private let iterator: NumberIterator?
  private let prefetcher: PrefetchingNumbers?
  private let owned: NumberChunk?
  private var base: UnsafePointer<Int64>?
  private var position = 0
  private var count = 0
  private var exhausted = false

  init(_ iterator: NumberIterator, capacity: Int = 8192) {
    self.iterator = iterator
    self.prefetcher = nil
    self.owned = NumberChunk(capacity: capacity)
  }

  init(_ prefetcher: PrefetchingNumbers) {
    self.iterator = nil
    self.prefetcher = prefetcher
    self.owned = nil
  }

  var isAtEnd: Bool { position >= count && exhausted }
  var current: Int64 { base.map { $0[position] } ?? 0 }

  mutating func refill() throws {
    guard position >= count, !exhausted else { return }
    if let prefetcher {
      let chunk = try prefetcher.next()
      base = chunk.baseAddress
      count = chunk.count
    } else if let iterator, let owned {
      count = try iterator.next(into: owned.buffer)
      base = UnsafePointer(owned.buffer.baseAddress)
    } else {
      count = 0
    }
    position = 0
    if count == 0 { exhausted = true }
  }

  mutating func advance() throws {
    position += 1
    if position >= count { try refill() }
  }

  /// Skips numbers equal at the same offsets in both buffers; returns
  /// whether it skipped any.
  mutating func skipEqualPrefix(with other: inout BufferedNumbers) -> Bool {
    let available = min(count - position, other.count - other.position)
    guard available > 1, let mine = base, let theirs = other.base else { return false }
    let a = mine + position
    let b = theirs + other.position
    var skipped = 0
    // Four at a time while they agree, then one by one.
    while skipped + 4 <= available {
      let left = UnsafeRawPointer(a + skipped).loadUnaligned(as: SIMD4<Int64>.self)
      let right = UnsafeRawPointer(b + skipped).loadUnaligned(as: SIMD4<Int64>.self)
      guard all(left .== right) else { break }
      skipped += 4
    }
    while skipped < available && a[skipped] == b[skipped] { skipped += 1 }
    guard skipped > 0 else { return false }
    // Leave the last equal pair for the regular step, which refills buffers.
    position += skipped - 1
    other.position += skipped - 1
    return skipped > 1
  }
}

/// A fixed buffer of numbers, freed with its owner.
final class NumberChunk {
  let buffer: UnsafeMutableBufferPointer<Int64>

  init(capacity: Int) {
    buffer = .allocate(capacity: capacity)
    buffer.initialize(repeating: 0)
  }

  deinit {
    buffer.deallocate()
  }
}
