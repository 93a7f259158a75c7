import CalldirSystem

/// When the compiler spills sorted runs to disk, and where.
struct SpillPolicy: Sendable {
  /// How many collected numbers (blocking plus allow) stay in memory before
  /// the larger list is sorted and spilled.
  var heldNumbers: Int
  /// The temporary run files.
  var files: SpillFiles

  /// Bytes of memory one held number may cost at worst: its slot, the
  /// radix sort's scratch slot, and growth slack.
  static let bytesPerNumber = 24
  /// Held numbers one range counts as: its two ends (16 bytes), growth
  /// slack, and the sort's scratch and the joined copy a walk makes, 48
  /// bytes at worst.
  static let numbersPerRange = 2
  /// Held numbers one gathered record (a complaint feed's report, 32
  /// bytes) counts as, with its share of the sort's scratch.
  static let numbersPerRecord = 2
  /// Held numbers one identification entry counts as: its candidate (40
  /// bytes), its winning entry and the copies of its number the shards
  /// make, 72 bytes at worst.
  static let numbersPerIdentification = 3
  /// Bytes a distinct label held in memory costs besides its UTF-8
  /// bytes: its string, its dictionary slot, and its copy in the blob
  /// writer's dictionary.
  static let bytesPerLabel = 160
  /// The least memory a buffer of spilled records is given.
  static let minimumBufferBytes = 4 << 20

  /// A policy that keeps the process within `memoryLimit` bytes: the
  /// limit less ``MemoryLimit/reservedBytes`` goes to held numbers.
  init(memoryLimit: Int, files: SpillFiles) {
    heldNumbers = max(1 << 12, (memoryLimit - MemoryLimit.reservedBytes) / Self.bytesPerNumber)
    self.files = files
  }
}

/// What one source gave a list (blocking or allow): sorted unique runs of
/// its single numbers and of its ranges (in memory or spilled), and its
/// counts.
struct SourceNumbers {
  /// The source's index in the config.
  let source: Int
  /// Ascending unique runs; several when the source spilled midway.
  var runs: [SortedRun] = []
  /// Its ranges, sorted and joined, in runs; several when the source
  /// spilled midway (runs may overlap one another).
  var rangeRuns: [RangeRun] = []
  /// Single numbers added.
  var added = 0
  /// Numbers inside the ranges as read, overlaps counted again (saturating).
  var rangeNumbers = 0
}

/// The numbers of one list (blocking or allow) as they are read, kept per
/// source: the current source's numbers unsorted in memory, every earlier
/// source's as sorted runs in memory or spilled to disk.
struct NumberCollector {
  /// Every source that fed the list, in config order.
  private(set) var sources: [SourceNumbers] = []
  /// The current source's single numbers since its last run, unsorted.
  private(set) var numbers: [Int64] = []
  /// The current source's ranges since its last range run, as read.
  private(set) var ranges: [ClosedRange<Int64>] = []
  /// Numbers dropped as repeats within a source while sorting its runs.
  private(set) var repeatsInRuns = 0
  /// Runs written to disk (merged ones included).
  private(set) var runsWritten = 0
  /// Numbers held in memory: sorted runs plus unsorted numbers, and each
  /// range held as ``SpillPolicy/numbersPerRange`` numbers.
  private(set) var held = 0
  /// How `numbers` run, as far as the summaries of their pieces tell; nil
  /// once numbers came without one.
  private var order: SourceOrder? = SourceOrder()
  /// Where each summed-up piece of `numbers` ends, with its numbers per
  /// decimal length and how they lie (what sorting text order needs).
  private var pieces: [TextOrder.Piece] = []
  /// The last number added, in file order (`numbers` may hold pieces laid
  /// out by length); nil when `numbers` is empty.
  private var lastAdded: Int64?

  /// Whether any run went to disk.
  var hasSpilled: Bool { runsWritten > 0 }
  /// Every single number added.
  var added: Int { sources.reduce(0) { $0 + $1.added } }

  /// Starts collecting the numbers of the source at `index` in the config.
  mutating func begin(source index: Int) {
    sources.append(SourceNumbers(source: index))
    order = SourceOrder()
    pieces = []
  }

  /// Adds numbers of the current source, growing the buffer no further
  /// than `limit` numbers when given.
  mutating func add(_ incoming: some Collection<Int64>, limit: Int?) {
    guard !sources.isEmpty else { return }
    order = nil
    pieces = []
    append(incoming, limit: limit)
    if !incoming.isEmpty { lastAdded = numbers.last }
  }

  /// Adds a piece of the current source summed up by
  /// ``SourceOrder/summarize(_:count:)``, which removed `repeats` adjacent
  /// repeats from it, and then, when `laidOutByLength`, laid out by
  /// ``TextOrder/layOutByLength(_:count:order:scratch:)``; a first number
  /// that repeats the last one added is dropped too. When every piece runs
  /// one way, the source is sorted without a search for its order or its
  /// repeats.
  mutating func add(
    piece: UnsafeBufferPointer<Int64>, order pieceOrder: SourceOrder, laidOutByLength: Bool, repeats: Int,
    limit: Int?
  ) {
    // An empty piece had nothing to repeat either.
    guard !sources.isEmpty, !piece.isEmpty else { return }
    var pieceOrder = pieceOrder
    var repeats = repeats
    if lastAdded == pieceOrder.first {
      // The piece's first number, which lies first among its length.
      let dropped = laidOutByLength
        ? TextOrder.start(of: PowersOfTen().digitCount(pieceOrder.first), in: pieceOrder.lengths, falling: false) : 0
      pieceOrder = pieceOrder.droppingFirst()
      append(UnsafeBufferPointer(rebasing: piece[..<dropped]), limit: limit)
      append(UnsafeBufferPointer(rebasing: piece[(dropped + 1)...]), limit: limit)
      repeats += 1
    } else {
      append(piece, limit: limit)
    }
    lastAdded = pieceOrder.last
    sources[sources.count - 1].added += repeats
    repeatsInRuns += repeats
    order?.append(pieceOrder)
    if order != nil {
      pieces.append(TextOrder.Piece(
        end: numbers.count, lengths: pieceOrder.lengths, lengthsFall: !laidOutByLength && !pieceOrder.isAscending))
    }
  }

  private mutating func append(_ incoming: some Collection<Int64>, limit: Int?) {
    let needed = numbers.count + incoming.count
    if let limit, needed > numbers.capacity {
      numbers.reserveCapacity(min(max(numbers.capacity * 2, needed), max(needed, limit + incoming.count)))
    }
    numbers.append(contentsOf: incoming)
    sources[sources.count - 1].added += incoming.count
    held += incoming.count
  }

  /// Makes room for about `count` more numbers of the current source at
  /// once (no more than `limit`), so that a large source is not copied
  /// into ever larger buffers, each faulted in afresh, as it is read.
  mutating func reserve(_ count: Int, limit: Int?) {
    let wanted = numbers.count + min(count, limit ?? NumberCollector.reservationCeiling)
    if wanted > numbers.capacity { numbers.reserveCapacity(wanted) }
  }

  /// The most numbers reserved ahead without a spill limit (512 MiB).
  static let reservationCeiling = 1 << 26

  /// Adds ranges of the current source.
  mutating func add(ranges incoming: some Collection<ClosedRange<Int64>>) {
    guard !sources.isEmpty, !incoming.isEmpty else { return }
    ranges.append(contentsOf: incoming)
    held += SpillPolicy.numbersPerRange * incoming.count
    for range in incoming {
      let (sum, overflow) = sources[sources.count - 1].rangeNumbers.addingReportingOverflow(Int(range.upperBound - range.lowerBound) + 1)
      sources[sources.count - 1].rangeNumbers = overflow ? Int.max : sum
    }
  }

  /// Ends the current source: its unsorted numbers become a sorted run in
  /// memory, and its ranges a range run.
  mutating func endSource() {
    guard !sources.isEmpty else { return }
    if !numbers.isEmpty {
      let (run, removed) = takeSortedNumbers()
      repeatsInRuns += removed
      held -= removed
      sources[sources.count - 1].runs.append(.memory(run))
    }
    if !ranges.isEmpty {
      let joined = takeJoinedRanges()
      held -= SpillPolicy.numbersPerRange * (joined.removed)
      sources[sources.count - 1].rangeRuns.append(.memory(joined.ranges))
    }
  }

  /// Takes the ranges read since the last range run, sorted and joined,
  /// and how many the joining saved.
  private mutating func takeJoinedRanges() -> (ranges: [ClosedRange<Int64>], removed: Int) {
    var taken: [ClosedRange<Int64>] = []
    swap(&taken, &ranges)
    let count = taken.count
    RangeRun.sortAndJoin(&taken)
    return (taken, count - taken.count)
  }

  /// Takes the numbers collected since the last run, sorted and
  /// deduplicated the cheapest way their order (`order`, in `pieces`)
  /// allows, and how many repeats went; the next numbers start a new run.
  private mutating func takeSortedNumbers() -> (SortedSlices, removed: Int) {
    var run = numbers
    numbers = []
    lastAdded = nil
    defer {
      order = SourceOrder()
      pieces = []
    }
    guard let order, order.count == run.count else {
      let removed = RadixSort.sortAndDeduplicate(&run)
      return (SortedSlices(run), removed)
    }
    // Every piece ran one way, and lost its repeats.
    if order.isAscending { return (SortedSlices(run), 0) }
    if order.isDescending {
      RadixSort.reverse(&run)
      return (SortedSlices(run), 0)
    }
    if order.isTextOrdered, let slices = TextOrder.sortedSlices(run, falling: order.textFalls, pieces: pieces) {
      return (slices, 0)
    }
    let removed = RadixSort.sortAndDeduplicate(&run)
    return (SortedSlices(run), removed)
  }

  /// Writes every run held in memory, and the current source's numbers
  /// sorted and its ranges joined, to new run files; a source whose runs
  /// (or range runs) reach `SortedRun.maximumFanIn` has them merged into
  /// one first.
  mutating func spill(to files: SpillFiles) throws(CompileError) {
    if !numbers.isEmpty {
      var (sorted, removed) = takeSortedNumbers()
      repeatsInRuns += removed
      sources[sources.count - 1].runs.append(try SortedRun.spill(sorted, to: files.newPath()))
      runsWritten += 1
      // The source's next numbers go to the same memory.
      numbers = sorted.takeBuffer()
    }
    if !ranges.isEmpty {
      var (joined, _) = takeJoinedRanges()
      sources[sources.count - 1].rangeRuns.append(try RangeRun.spill(joined, to: files.newPath()))
      runsWritten += 1
      // The source's next ranges go to the same memory.
      joined.removeAll(keepingCapacity: true)
      ranges = joined
    }
    for index in sources.indices {
      for (position, run) in sources[index].runs.enumerated() {
        guard case .memory(let values) = run else { continue }
        sources[index].runs[position] = try SortedRun.spill(values, to: files.newPath())
        runsWritten += 1
      }
      if sources[index].runs.count >= SortedRun.maximumFanIn {
        let (merged, repeats) = try SortedRun.merge(sources[index].runs, to: files.newPath())
        sources[index].runs = [merged]
        repeatsInRuns += repeats
        runsWritten += 1
      }
      for (position, run) in sources[index].rangeRuns.enumerated() {
        guard case .memory(let values) = run else { continue }
        sources[index].rangeRuns[position] = try RangeRun.spill(values, to: files.newPath())
        runsWritten += 1
      }
      if sources[index].rangeRuns.count >= SortedRun.maximumFanIn {
        sources[index].rangeRuns = [try RangeRun.merge(sources[index].rangeRuns, to: files.newPath())]
        runsWritten += 1
      }
    }
    held = 0
  }

  /// Every run of every source (the collector must have ended its last source).
  var allRuns: [SortedRun] { sources.flatMap(\.runs) }

  /// Every range run of every source (the collector must have ended its last source).
  var allRangeRuns: [RangeRun] { sources.flatMap(\.rangeRuns) }

  /// Whether any source listed a range.
  var hasRanges: Bool { sources.contains { !$0.rangeRuns.isEmpty } }

  /// The union of every source's ranges held in memory, sorted and joined;
  /// the sources' range runs are let go (the collector must not have
  /// spilled, and must have ended its last source).
  mutating func takeRangeUnion() throws(CompileError) -> [ClosedRange<Int64>] {
    let runs = allRangeRuns
    for index in sources.indices { sources[index].rangeRuns = [] }
    guard runs.count > 1 else {
      if case .memory(let ranges)? = runs.first { return ranges }
      return []
    }
    var union: [ClosedRange<Int64>] = []
    union.reserveCapacity(runs.reduce(0) { $0 + $1.count })
    let merged = try MergedRangeRuns(runs)
    while let range = try merged.next() { union.append(range) }
    return union
  }

  /// The union of every source's numbers held in memory, sorted and unique,
  /// and how many numbers more than one source gave (the collector must
  /// not have spilled, and must have ended its last source). A sole run is
  /// handed on as it lies.
  mutating func takeUnion() -> (numbers: SortedSlices, repeats: Int) {
    var runs: [SortedSlices] = []
    for index in sources.indices {
      for run in sources[index].runs {
        if case .memory(let values) = run, !values.isEmpty { runs.append(values) }
      }
      sources[index].runs = []
    }
    held = 0
    guard runs.count > 1 else { return (runs.first ?? SortedSlices(), 0) }
    let (merged, repeats) = SortedUnion.merge(runs.map { $0.contiguous() })
    return (SortedSlices(merged), repeats)
  }
}

/// Temporary run files, removed when the last user lets go.
final class SpillFiles: @unchecked Sendable {
  let directory: String
  private var paths: [String] = []
  private var counter = 0

  init(directory: String) { self.directory = directory }

  /// A fresh path in the directory, removed with the others; a name
  /// already there (another compile's in this process, or one a crashed
  /// process of the same id left) is passed over.
  func newPath() -> String {
    var path: String
    repeat {
      counter += 1
      path = "\(directory)/.spill-\(CurrentProcess.id)-\(counter).run"
    } while FileSystem.exists(path)
    paths.append(path)
    return path
  }

  deinit {
    for path in paths { try? FileSystem.removeFile(path) }
  }
}
