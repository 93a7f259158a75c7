import CallDirectoryFormat

/// The numbers only one of two ascending streams holds, as ranges.
///
/// Buffers are compared four numbers at a time while they agree, so two
/// streams that differ in 1% of their numbers cost about a comparison per
/// four numbers plus a step per difference; a run is one step whatever
/// its length (O(runs and single numbers) overall, as ``RangeMerge``).
enum _ChunkMerge {
  /// How many changes (ranges of both buffers) a merge given `whenFull`
  /// gathers before it calls it: about 1 MiB.
  static let fullCount = 1 << 16

  /// Merges `first` and `second` to their ends (or until `whenFull` says stop).
  /// - Parameters:
  ///   - onlyInFirst: Receives, ascending, the numbers only `first` holds.
  ///   - onlyInSecond: Receives, ascending, the numbers only `second` holds.
  ///   - full: How many ranges the two buffers hold before `whenFull` is
  ///     called (``fullCount``); by default they take every change.
  ///   - whenFull: Empties the buffers and returns true to go on, or
  ///     returns false to stop the merge there.
  /// - Throws: The first error of either stream or of `whenFull`.
  static func merge<First: NumberChunkSource, Second: NumberChunkSource>(
    _ first: First, _ second: Second, onlyInFirst: _RangeBuffer, onlyInSecond: _RangeBuffer,
    full: Int = .max, whenFull: () throws(BlobError) -> Bool = { true }
  ) throws(BlobError) {
    var x = try _ChunkHead(first)
    var y = try _ChunkHead(second)
    func isFull() -> Bool { onlyInFirst.count &+ onlyInSecond.count >= full }
    while !x.isAtEnd && !y.isAtEnd {
      if isFull(), try !whenFull() { return }
      if !x.isRun && !y.isRun {
        _mergeBuffers(&x, &y, onlyInFirst, onlyInSecond)
        if x.isExhausted { try x.load() }
        if y.isExhausted { try y.load() }
        continue
      }
      if x.isRun != y.isRun {
        let stepped = x.isRun ? try _runAgainstBuffer(&x, &y, onlyInFirst) : try _runAgainstBuffer(&y, &x, onlyInSecond)
        if stepped { continue }
      }
      let (xLow, xHigh) = x.head
      let (yLow, yHigh) = y.head
      if xHigh < yLow {
        onlyInFirst.append(xLow, xHigh)
        try x.drop(through: xHigh)
      } else if yHigh < xLow {
        onlyInSecond.append(yLow, yHigh)
        try y.drop(through: yHigh)
      } else {
        if xLow < yLow {
          onlyInFirst.append(xLow, (yLow - 1))
        } else if yLow < xLow {
          onlyInSecond.append(yLow, (xLow - 1))
        }
        let through = min(xHigh, yHigh)
        try x.drop(through: through)
        try y.drop(through: through)
      }
    }
    while !x.isAtEnd {
      if isFull(), try !whenFull() { return }
      let (low, high) = x.head
      onlyInFirst.append(low, high)
      try x.drop(through: high)
    }
    while !y.isAtEnd {
      if isFull(), try !whenFull() { return }
      let (low, high) = y.head
      onlyInSecond.append(low, high)
      try y.drop(through: high)
    }
  }

  /// Merges two buffers until one of them is used up.
  private static func _mergeBuffers<First, Second>(
    _ x: inout _ChunkHead<First>, _ y: inout _ChunkHead<Second>,
    _ onlyInFirst: _RangeBuffer, _ onlyInSecond: _RangeBuffer
  ) {
    guard let a = x.numbers, let b = y.numbers else { return }
    let aEnd = x.count
    let bEnd = y.count
    var i = x.position
    var j = y.position
    while i < aEnd && j < bEnd {
      // Skip what both hold, eight numbers a step, then up to the first
      // difference among the next eight.
      let room = min(aEnd &- i, bEnd &- j)
      var k = 0
      while k &+ 8 <= room && _equal8(a + (i &+ k), b + (j &+ k)) { k &+= 8 }
      let limit = min(room, k &+ 8)
      while k < limit && a[i &+ k] == b[j &+ k] { k &+= 1 }
      i &+= k
      j &+= k
      guard i < aEnd && j < bEnd else { break }
      let u = a[i]
      let v = b[j]
      if u < v {
        onlyInFirst.append(u, u)
        i &+= 1
      } else {
        onlyInSecond.append(v, v)
        j &+= 1
      }
    }
    x.position = i
    y.position = j
  }

  /// With `run`'s head a run and `buffer`'s a buffer whose next number is
  /// in or above the run: passes over the buffer's numbers inside the run
  /// (both hold them), giving `onlyInRun` the gaps between them, until the
  /// run or the buffer ends. Returns `false`, doing nothing, when the
  /// buffer's next number is outside the run.
  private static func _runAgainstBuffer<Run, Buffer>(
    _ run: inout _ChunkHead<Run>, _ buffer: inout _ChunkHead<Buffer>, _ onlyInRun: _RangeBuffer
  ) throws(BlobError) -> Bool {
    guard let numbers = buffer.numbers else { return false }
    let (low, high) = run.head
    var j = buffer.position
    let end = buffer.count
    guard numbers[j] >= low && numbers[j] <= high else { return false }
    var next = low
    while j < end {
      let number = numbers[j]
      if number > high { break }
      if number > next { onlyInRun.append(next, number &- 1) }
      next = number &+ 1
      j &+= 1
    }
    buffer.position = j
    if buffer.isExhausted { try buffer.load() }
    // `next - 1` is the last number passed over (or `low - 1`).
    if next > low { try run.drop(through: next &- 1) }
    return true
  }

  /// Whether the eight numbers at `a` equal the eight at `b`.
  @inline(__always)
  private static func _equal8(_ a: UnsafePointer<Int64>, _ b: UnsafePointer<Int64>) -> Bool {
    a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[3] == b[3]
      && a[4] == b[4] && a[5] == b[5] && a[6] == b[6] && a[7] == b[7]
  }
}

/// The head of one stream of a ``_ChunkMerge``: the rest of the current
/// run, or the current buffer and a position in it.
struct _ChunkHead<Source: NumberChunkSource> {
  private let source: Source
  private(set) var isAtEnd = false
  private(set) var isRun = false
  private var runLow: Int64 = 0
  private var runHigh: Int64 = 0
  private(set) var numbers: UnsafePointer<Int64>?
  private(set) var count = 0
  var position = 0

  /// Reads the first chunk of `source`.
  init(_ source: Source) throws(BlobError) {
    self.source = source
    try load()
  }

  /// Whether the current buffer is used up (never for a run).
  var isExhausted: Bool { !isRun && position == count }

  /// The smallest number left and the largest that follows it without a
  /// gap in the same chunk (the run's end, or the number itself); only
  /// when not ``isAtEnd``.
  var head: (Int64, Int64) {
    guard !isRun, let numbers else { return (runLow, runHigh) }
    let number = numbers[position]
    return (number, number)
  }

  /// Drops every number up to `number`, reading the next chunk when the
  /// current one is used up.
  mutating func drop(through number: Int64) throws(BlobError) {
    if isRun {
      if number < runHigh {
        runLow = max(runLow, number + 1)
        return
      }
    } else if let numbers {
      while position < count && numbers[position] <= number { position += 1 }
      if position < count { return }
    }
    try load()
  }

  /// Reads the next non-empty chunk, or notes the end.
  mutating func load() throws(BlobError) {
    while let chunk = try source.nextChunk() {
      switch chunk {
      case .run(let range):
        isRun = true
        runLow = range.lowerBound
        runHigh = range.upperBound
        return
      case .numbers(let buffer):
        guard let base = buffer.baseAddress, buffer.count > 0 else { continue }
        isRun = false
        numbers = base
        count = buffer.count
        position = 0
        return
      }
    }
    isAtEnd = true
    isRun = false
    count = 0
    position = 0
  }
}
