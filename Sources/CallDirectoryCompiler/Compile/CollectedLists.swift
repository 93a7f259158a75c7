import CallDirectorySources
import CalldirSystem

/// The identification list of a compile, resolved in memory or from spilled runs.
enum ResolvedIdentification {
  case memory(IdentificationResolver.Resolution)
  case spilled(IdentificationSpill.Resolution)

  /// Entries (winners).
  var count: Int {
    switch self {
    case .memory(let resolution): resolution.entries.count
    case .spilled(let resolution): resolution.entries.count
    }
  }

  /// Distinct labels the entries carry.
  var labelCount: Int {
    switch self {
    case .memory(let resolution): resolution.labels.count
    case .spilled(let resolution): resolution.entries.labelCount
    }
  }

  /// Numbers that had more than one distinct label.
  var conflicts: Int {
    switch self {
    case .memory(let resolution): resolution.conflicts
    case .spilled(let resolution): resolution.conflicts
    }
  }

  /// Entries dropped because the same number came again.
  var duplicates: Int {
    switch self {
    case .memory(let resolution): resolution.duplicates
    case .spilled(let resolution): resolution.duplicates
    }
  }

  /// What each identification source contributed, by config index.
  var contributions: [Int: SourceContribution] {
    switch self {
    case .memory(let resolution): resolution.contributions
    case .spilled(let resolution): resolution.contributions
    }
  }
}

/// The numbers gathered from every source, before sorting, kept per source
/// so that each source's contribution can be counted.
struct CollectedLists {
  var block = NumberCollector()
  var allow = NumberCollector()
  var identification = IdentificationResolver()
  /// When set, the larger list is spilled whenever the lists hold more than the policy allows.
  var spill: SpillPolicy?
  /// Runs spilled by other than the lists (complaint feeds' reports).
  private var otherRunsWritten = 0

  /// Counts `runs` spilled for the lists by another part of the build.
  mutating func countSpilledRuns(_ runs: Int) { otherRunsWritten += runs }
  private var current: (source: Int, list: SourceList)?

  /// Starts collecting the source at `index` in the config, which feeds `list`.
  mutating func begin(source index: Int, list: SourceList) {
    current = (index, list)
    switch list {
    case .block: block.begin(source: index)
    case .allow: allow.begin(source: index)
    case .identify: break
    }
  }

  /// Ends the current source (its numbers are sorted into a run).
  mutating func endSource() {
    guard let current else { return }
    switch current.list {
    case .block: block.endSource()
    case .allow: allow.endSource()
    case .identify: break
    }
    self.current = nil
  }

  /// Adds numbers of the current blocking or allow source.
  mutating func add(_ numbers: some Collection<Int64>) throws(CompileError) {
    let limit = spill?.heldNumbers
    switch current?.list {
    case .allow?: allow.add(numbers, limit: limit)
    case .block?: block.add(numbers, limit: limit)
    default: return
    }
    try spillIfNeeded()
  }

  /// Adds a summed-up piece of the current blocking or allow source
  /// (``NumberCollector/add(piece:order:laidOutByLength:repeats:limit:)``).
  mutating func add(
    piece: UnsafeBufferPointer<Int64>, order: SourceOrder, laidOutByLength: Bool, repeats: Int
  ) throws(CompileError) {
    let limit = spill?.heldNumbers
    switch current?.list {
    case .allow?:
      allow.add(piece: piece, order: order, laidOutByLength: laidOutByLength, repeats: repeats, limit: limit)
    case .block?:
      block.add(piece: piece, order: order, laidOutByLength: laidOutByLength, repeats: repeats, limit: limit)
    default: return
    }
    try spillIfNeeded()
  }

  /// Makes room for about `count` numbers of the current blocking or allow
  /// source (an estimate from its size), within the spill policy.
  mutating func reserve(_ count: Int) {
    let limit = spill?.heldNumbers
    switch current?.list {
    case .allow?: allow.reserve(count, limit: limit)
    case .block?: block.reserve(count, limit: limit)
    default: return
    }
  }

  /// Adds ranges of the current blocking or allow source; they count
  /// against the spill policy as numbers do.
  mutating func add(ranges: some Collection<ClosedRange<Int64>>) throws(CompileError) {
    switch current?.list {
    case .allow?: allow.add(ranges: ranges)
    case .block?: block.add(ranges: ranges)
    default: return
    }
    try spillIfNeeded()
  }

  /// Adds an entry of the current identification source. Entries and
  /// labels count against the spill policy
  /// (``IdentificationResolver/heldNumbers``); past it, they spill as the
  /// lists do when they are the largest part.
  mutating func addIdentification(number: Int64, label: String, priority: Int, line: Int) throws(CompileError) {
    guard let current else { return }
    identification.add(
      number: number, label: label, priority: priority, source: current.source, line: line,
      limit: spill.map { $0.heldNumbers / SpillPolicy.numbersPerIdentification + 1 })
    // Checked every 64 entries: the policy's sums cost more than an entry.
    if spill != nil, identification.added & 63 == 0 { try spillIfNeeded() }
  }

  /// The identification list resolved: in memory, or, when its entries
  /// spilled, merged from its runs within what the policy leaves beside
  /// the blocking and allow numbers still held. With
  /// `keepingWinningSources`, entries held in memory keep their winning
  /// sources (spilled ones always do).
  mutating func resolveIdentification(
    conflicts: ConflictLog?, keepingWinningSources: Bool = false
  ) throws(CompileError) -> ResolvedIdentification {
    guard let spill, identification.hasSpilled else {
      return .memory(try identification.resolve(conflicts: conflicts, keepingWinningSources: keepingWinningSources))
    }
    let left = spill.heldNumbers - block.held - allow.held
    let resolution = try identification.resolveSpilled(
      conflicts: conflicts, files: spill.files,
      bufferBytes: max(SpillPolicy.minimumBufferBytes, left * SpillPolicy.bytesPerNumber))
    otherRunsWritten += resolution.runsWritten
    return .spilled(resolution)
  }

  /// Spills the largest of the blocking list, the allow list and the
  /// identification entries when everything held passes the policy; never
  /// in runs smaller than an eighth of it.
  private mutating func spillIfNeeded() throws(CompileError) {
    try spillIfNeeded(besides: 0, spilling: nil)
  }

  /// Spills when everything held, with `records` more of another kind
  /// (a complaint feed's reports, each costing
  /// ``SpillPolicy/numbersPerRecord`` held numbers), passes the policy:
  /// those records through `spillRecords` when they are the largest part,
  /// else the identification entries (with their labels) when they are
  /// larger than either list, else the larger of the blocking and allow
  /// lists.
  mutating func spillIfNeeded(
    besides records: Int, spilling spillRecords: (() throws(CompileError) -> Void)?
  ) throws(CompileError) {
    guard let spill else { return }
    let others = SpillPolicy.numbersPerRecord * records
    let entries = identification.heldNumbers
    let held = block.held + allow.held + entries + others
    let larger = max(block.held, allow.held)
    guard held > spill.heldNumbers else { return }
    if let spillRecords, others >= larger, others >= entries {
      try spillRecords()
      return
    }
    let smallest = max(1 << 12, spill.heldNumbers / 8)
    if entries > larger {
      if entries >= smallest { try identification.spill(to: spill.files) }
      return
    }
    guard larger >= smallest else { return }
    if block.held >= allow.held {
      try block.spill(to: spill.files)
    } else {
      try allow.spill(to: spill.files)
    }
  }

  /// The blocking entries: sorted, deduplicated and cut by the allowlists,
  /// in memory or (when anything was spilled) as runs merged on each walk.
  /// Fills in the blocking, allowed and duplicate counts, and what each
  /// blocking and allow source contributed.
  mutating func blockingEntries(
    statistics: inout CompileStatistics, contributions: inout [Int: SourceContribution]
  ) throws(CompileError) -> BlockingEntries {
    // Several sources share the lists: count who gave what before the
    // numbers are merged and handed on (the sweep lets go of the sources'
    // runs before they are).
    let isNeeded = ContributionSweep(block: block.sources, allow: allow.sources).isNeeded
    if isNeeded {
      contributions.merge(try ContributionSweep(block: block.sources, allow: allow.sources).run()) { _, new in new }
    }
    let entries = try entries(statistics: &statistics)
    if !isNeeded {
      contributions.merge(
        ContributionSweep(block: block.sources, allow: allow.sources).soleSource(entries: statistics.blocking)
      ) { _, new in new }
    }
    return entries
  }

  private mutating func entries(statistics: inout CompileStatistics) throws(CompileError) -> BlockingEntries {
    statistics.spilledRuns = otherRunsWritten
    guard let files = spill?.files, block.hasSpilled || allow.hasSpilled else {
      let candidates = block.added
      let ranges = try block.takeRangeUnion()
      let allowRanges = try allow.takeRangeUnion()
      let (singles, _) = block.takeUnion()
      let (allowSingles, _) = allow.takeUnion()
      guard !ranges.isEmpty || !allowRanges.isEmpty || !allowSingles.isEmpty else {
        // Single numbers only: handed on as they lie.
        statistics.blocking = singles.count
        statistics.allowed = 0
        statistics.duplicates = candidates - singles.count
        return BlockingEntries(storage: .slices(singles))
      }
      let listed = NumberSet(sortedUniqueSingles: singles.contiguous(), joinedRanges: ranges)
      let allowSet = NumberSet(sortedUniqueSingles: allowSingles.contiguous(), joinedRanges: allowRanges)
      let (blocking, allowed) = listed.subtracting(allowSet)
      statistics.blocking = blocking.count
      statistics.allowed = allowed
      // Repeated blocking numbers, and single numbers a listed range already covers.
      statistics.duplicates = candidates - listed.singles.count
      return BlockingEntries(storage: .memory(blocking))
    }
    let spilled = SpilledBlocking(
      runs: block.allRuns, ranges: block.allRangeRuns, allowRuns: allow.allRuns, allowRanges: allow.allRangeRuns,
      files: files)
    // One counting walk; the writer walks again.
    let counts: SpilledBlocking.Counts
    do {
      counts = try spilled.walk(singles: { _ in }, range: { _ in })
    } catch let error as CompileError {
      throw error
    } catch {
      throw .spill(FileError(operation: "merge runs in", path: files.directory, errno: .ioError, detail: "\(error)"))
    }
    statistics.blocking = counts.entries
    statistics.allowed = counts.allowed
    statistics.duplicates = block.repeatsInRuns + counts.repeats + counts.covered
    statistics.spilledRuns = block.runsWritten + allow.runsWritten + otherRunsWritten
    return BlockingEntries(storage: .spilled(spilled))
  }
}
