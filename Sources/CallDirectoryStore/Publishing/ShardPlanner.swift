import CallDirectoryCompiler

/// Splits a snapshot across Call Directory extensions with stable numeric
/// boundaries: shard k holds the numbers from its lower bound up to the next
/// shard's lower bound, minus one.
///
/// The previous version's boundaries are kept while every shard fits the
/// limit; a shard that outgrows it is split at value boundaries that leave
/// each part about 80% full, so the other shards, and most numbers of the
/// split one, stay where they are. Shards are never merged.
///
/// The planner streams the entries (at most two ascending walks), so it
/// works the same for blocking numbers in memory and spilled to disk.
struct ShardPlanner {
  /// The most entries (blocking plus identification) one extension holds.
  let limit: Int
  /// A new part's target fill, leaving room to grow before the next split.
  var fill: Double = 0.8

  /// The lower bounds of the shards (the first is always 1), ascending.
  func boundaries(
    blocking: BlockingEntries, identification: [LabeledNumber], previous: [Int64]
  ) throws -> [Int64] {
    try boundaries(blocking: blocking, identification: .memory(identification), previous: previous)
  }

  /// The lower bounds of the shards (the first is always 1), ascending,
  /// with the identification entries in memory or spilled.
  func boundaries(
    blocking: BlockingEntries, identification: ShardIdentification, previous: [Int64]
  ) throws -> [Int64] {
    let lowers = previous.first == 1 ? previous : [1]
    let walk: EntryWalk
    switch identification {
    case .memory(let entries): walk = EntryWalk(blocking: blocking, identification: entries.map(\.number))
    case .spilled(let spilled): walk = EntryWalk(blocking: blocking, spilled: spilled)
    }
    var counts = [Int](repeating: 0, count: lowers.count)
    try walk.forEachPiece(
      splitAt: lowers, singles: { shard, numbers in counts[shard] += numbers.count },
      { shard, piece, weight in counts[shard] += (Int(piece.upperBound - piece.lowerBound) + 1) * weight })
    guard counts.contains(where: { $0 > limit }) else { return lowers }

    // Cut each overflowing shard into parts of about `target` entries: the
    // next cut follows the smallest value v with `target` entries in start...v.
    let target = max(1, min(limit, Int(Double(limit) * fill)))
    let bounds = shardBounds(lowers)
    var cuts: [Int: [Int64]] = [:]
    var shard = -1
    var remaining = 0
    var taken = 0
    func enter(_ index: Int) {
      guard index != shard else { return }
      shard = index
      remaining = counts[index]
      taken = 0
    }
    try walk.forEachPiece(
      splitAt: lowers,
      singles: { index, numbers in
        // What the per-piece rule below does one number at a time: a cut
        // after every `target`-th number while the shard overflows.
        enter(index)
        let upper = bounds[index].upperBound
        var position = 0
        while remaining > limit && position < numbers.count {
          let needed = target - taken
          let available = numbers.count - position
          guard available >= needed else {
            taken += available
            return
          }
          let value = numbers[position + needed - 1]
          guard value < upper else {
            remaining = 0
            return
          }
          remaining -= taken + needed
          taken = 0
          cuts[index, default: []].append(value + 1)
          position += needed
        }
      },
      { index, piece, weight in
        enter(index)
        let upper = bounds[index].upperBound
        var lower = piece.lowerBound
        while remaining > limit && lower <= piece.upperBound {
          let available = (Int(piece.upperBound - lower) + 1) * weight
          let needed = target - taken
          guard available >= needed else {
            taken += available
            return
          }
          let value = lower + Int64((needed + weight - 1) / weight) - 1
          guard value < upper else {
            remaining = 0
            return
          }
          remaining -= taken + (Int(value - lower) + 1) * weight
          taken = 0
          cuts[index, default: []].append(value + 1)
          lower = value + 1
        }
      })
    return lowers.indices.flatMap { [lowers[$0]] + (cuts[$0] ?? []) }
  }
}

/// Each shard's inclusive bounds, from the shards' lower bounds.
func shardBounds(_ lowers: [Int64]) -> [ClosedRange<Int64>] {
  lowers.indices.map { index in
    lowers[index]...(index + 1 < lowers.count ? lowers[index + 1] - 1 : Int64.max - 1)
  }
}

/// A snapshot's identification entries as the shard planner reads them.
enum ShardIdentification {
  case memory([LabeledNumber])
  case spilled(SpilledIdentification)
}

/// The entries of a snapshot as one ascending walk of weighted pieces:
/// blocking and identification numbers merged, a number in both lists
/// counting twice.
struct EntryWalk {
  let blocking: BlockingEntries
  /// Ascending, unique (empty when `spilled` gives them).
  let identification: [Int64]
  /// Identification entries read from spilled files instead.
  var spilled: SpilledIdentification? = nil

  init(blocking: BlockingEntries, identification: [Int64]) {
    self.blocking = blocking
    self.identification = identification
  }

  init(blocking: BlockingEntries, spilled: SpilledIdentification) {
    self.blocking = blocking
    self.identification = []
    self.spilled = spilled
  }

  /// Calls `body` with disjoint ascending pieces, each inside one shard of
  /// `lowers` (given by index), with how many entries each number holds;
  /// without identification numbers to merge in, single blocking numbers
  /// go to `singles` instead, a shard's stretch of a chunk at a time (each
  /// of them a piece of weight 1).
  func forEachPiece(
    splitAt lowers: [Int64],
    singles: (_ shard: Int, _ numbers: UnsafeBufferPointer<Int64>) throws -> Void,
    _ body: (_ shard: Int, _ piece: ClosedRange<Int64>, _ weight: Int) throws -> Void
  ) throws {
    var shard = 0
    func deliver(_ piece: ClosedRange<Int64>, _ weight: Int) throws {
      var lower = piece.lowerBound
      while true {
        while shard + 1 < lowers.count && lowers[shard + 1] <= lower { shard += 1 }
        let end = shard + 1 < lowers.count ? min(piece.upperBound, lowers[shard + 1] - 1) : piece.upperBound
        try body(shard, lower...end, weight)
        if end == piece.upperBound { return }
        lower = end + 1
      }
    }
    var feed = try _NumberFeed(memory: identification, spilled: spilled)
    func identificationBelow(_ bound: Int64) throws {
      while let number = feed.current, number < bound {
        try deliver(number...number, 1)
        try feed.advance()
      }
    }
    let noIdentification = feed.current == nil
    try blocking.forEachChunk(
      singles: { buffer in
        if noIdentification {
          var start = 0
          while start < buffer.count {
            while shard + 1 < lowers.count && lowers[shard + 1] <= buffer[start] { shard += 1 }
            var end = buffer.count
            if shard + 1 < lowers.count {
              // The first number at or past the next shard, by bisection.
              let bound = lowers[shard + 1]
              var low = start
              var high = buffer.count
              while low < high {
                let middle = (low + high) / 2
                if buffer[middle] < bound { low = middle + 1 } else { high = middle }
              }
              end = low
            }
            try singles(shard, UnsafeBufferPointer(rebasing: buffer[start..<end]))
            start = end
          }
          return
        }
        for number in buffer {
          try identificationBelow(number)
          if feed.current == number {
            try feed.advance()
            try deliver(number...number, 2)
          } else {
            try deliver(number...number, 1)
          }
        }
      },
      range: { range in
        try identificationBelow(range.lowerBound)
        var lower = range.lowerBound
        while let number = feed.current, number <= range.upperBound {
          try feed.advance()
          if number > lower { try deliver(lower...(number - 1), 1) }
          try deliver(number...number, 2)
          lower = number + 1
        }
        if lower <= range.upperBound { try deliver(lower...range.upperBound, 1) }
      })
    try identificationBelow(Int64.max)
  }
}

/// Ascending identification numbers, from an array or a spilled file.
private struct _NumberFeed {
  private let numbers: [Int64]
  private var index = 0
  private let cursor: SpilledEntryCursor?
  /// The number at the front, nil past the end.
  private(set) var current: Int64?

  init(memory numbers: [Int64], spilled: SpilledIdentification?) throws {
    self.numbers = numbers
    let cursor = try spilled?.cursor()
    self.cursor = cursor
    if let cursor { current = cursor.number } else { current = numbers.first }
  }

  @inline(__always)
  mutating func advance() throws {
    if let cursor {
      try cursor.advance()
      current = cursor.number
      return
    }
    index += 1
    current = index < numbers.count ? numbers[index] : nil
  }
}
