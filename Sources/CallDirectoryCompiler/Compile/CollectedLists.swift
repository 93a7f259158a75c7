/// The numbers gathered from every source, before sorting.
struct CollectedLists {
  var block = NumberCollector()
  var blockRanges: [ClosedRange<Int64>] = []
  var allow = NumberCollector()
  var allowRanges: [ClosedRange<Int64>] = []
  var identification = IdentificationResolver()
  /// When set, the larger list is spilled whenever the lists hold more than the policy allows.
  var spill: SpillPolicy?

  /// Adds numbers of a blocking or allow source.
  mutating func add(_ numbers: some Collection<Int64>, to list: SourceList) throws(CompileError) {
    let limit = spill?.heldNumbers
    if list == .allow { allow.add(numbers, limit: limit) } else { block.add(numbers, limit: limit) }
    try spillIfNeeded()
  }

  /// Adds an identification entry. Identification stays in memory (an
  /// entry costs about two held numbers), so it leaves less room for the
  /// blocking and allow lists before they spill.
  mutating func addIdentification(number: Int64, label: String, priority: Int) throws(CompileError) {
    identification.add(number: number, label: label, priority: priority)
    try spillIfNeeded()
  }

  /// Spills the larger of the blocking and allow lists when everything held
  /// passes the policy; never in runs smaller than an eighth of it.
  private mutating func spillIfNeeded() throws(CompileError) {
    guard let spill else { return }
    let held = block.numbers.count + allow.numbers.count + 2 * identification.count
    let larger = max(block.numbers.count, allow.numbers.count)
    guard held > spill.heldNumbers, larger >= max(1 << 12, spill.heldNumbers / 8) else { return }
    if block.numbers.count >= allow.numbers.count {
      try block.spill(to: spill.files)
    } else {
      try allow.spill(to: spill.files)
    }
  }

  /// Adds ranges of a blocking or allow source.
  mutating func add(_ ranges: some Collection<ClosedRange<Int64>>, to list: SourceList) {
    if list == .allow { allowRanges.append(contentsOf: ranges) } else { blockRanges.append(contentsOf: ranges) }
  }

  /// The blocking entries: sorted, deduplicated and cut by the allowlists,
  /// in memory or (when anything was spilled) as runs merged on each walk.
  /// Fills in the blocking, allowed and duplicate counts.
  mutating func blockingEntries(statistics: inout CompileStatistics) throws(CompileError) -> BlockingEntries {
    guard let files = spill?.files, block.hasSpilled || allow.hasSpilled else {
      let candidates = block.added
      let listed = NumberSet(singles: block.takeNumbers(), ranges: blockRanges)
      let (blocking, allowed) = listed.subtracting(NumberSet(singles: allow.takeNumbers(), ranges: allowRanges))
      statistics.blocking = blocking.count
      statistics.allowed = allowed
      // Repeated blocking numbers, and single numbers a listed range already covers.
      statistics.duplicates = candidates - listed.singles.count
      return BlockingEntries(storage: .memory(blocking))
    }
    let spilled = SpilledBlocking(
      runs: block.takeRuns(), ranges: NumberSet.merged(blockRanges), allowRuns: allow.takeRuns(),
      allowRanges: NumberSet.merged(allowRanges), files: files)
    // One counting walk; the writer walks again.
    let counts: SpilledBlocking.Counts
    do {
      counts = try spilled.walk(singles: { _ in }, range: { _ in })
    } catch let error as CompileError {
      throw error
    } catch {
      throw .spill(path: files.directory, reason: "\(error)")
    }
    statistics.blocking = counts.entries
    statistics.allowed = counts.allowed
    statistics.duplicates = block.repeatsInRuns + counts.repeats + counts.covered
    statistics.spilledRuns = block.runsWritten + allow.runsWritten
    return BlockingEntries(storage: .spilled(spilled))
  }
}
