/// Collects identification entries from every source and resolves numbers
/// that carry different labels by the declared policy: the higher source
/// `priority` wins, then the source listed first, then the first line.
///
/// Entries and their labels are held in memory; past a build's memory
/// limit they are spilled (``spill(to:)``) as runs in label order, and
/// resolved from the runs (``IdentificationSpill``) with the same result.
struct IdentificationResolver {
  /// One candidate entry; `sequence` is its arrival order, which is source
  /// order then line order, because sources are read one after another.
  private struct Candidate {
    var number: Int64
    var sequence: Int
    var line: Int
    var priority: Int32
    var source: Int32
    var label: Int32
  }

  private var candidates: [Candidate] = []
  private var labelIDs: [String: Int32] = [:]
  private var labels: [String] = []
  /// The UTF-8 bytes of `labels`.
  private var labelBytes = 0
  /// Entries added, held or spilled: the next one's arrival order.
  private(set) var added = 0
  /// The label runs spilled so far (``spill(to:)``).
  private(set) var runs: [String] = []

  /// Adds an entry of the source at `source` in the config, read at `line`;
  /// call in source order, and in line order within a source. With
  /// `limit`, the entries held grow no further than `limit` (they spill
  /// before).
  mutating func add(number: Int64, label: String, priority: Int, source: Int, line: Int, limit: Int? = nil) {
    if let limit, candidates.count == candidates.capacity, candidates.count < limit {
      candidates.reserveCapacity(min(max(16, 2 * candidates.capacity), limit))
    }
    let id: Int32
    if let existing = labelIDs[label] {
      id = existing
    } else {
      id = Int32(labels.count)
      labelIDs[label] = id
      labels.append(label)
      labelBytes += label.utf8.count
    }
    candidates.append(Candidate(
      number: number, sequence: added, line: line, priority: Int32(clamping: priority),
      source: Int32(clamping: source), label: id))
    added += 1
  }

  /// Entries held in memory.
  var count: Int { candidates.count }

  /// What the entries and labels held cost, in held numbers
  /// (``SpillPolicy``): ``SpillPolicy/numbersPerIdentification`` per entry
  /// (its candidate, then its winning entry and the copies the shards
  /// make), and each distinct label its bytes and
  /// ``SpillPolicy/bytesPerLabel``.
  var heldNumbers: Int {
    SpillPolicy.numbersPerIdentification * candidates.count
      + (labels.count * SpillPolicy.bytesPerLabel + labelBytes) / SpillPolicy.bytesPerNumber
  }

  /// Whether any run was spilled.
  var hasSpilled: Bool { !runs.isEmpty }

  /// Writes the entries held, with their labels, to a new *label run* and
  /// lets go of them and of the labels (keeping the entries' memory for
  /// the next ones). A label run holds groups in label byte order: a
  /// label's bytes, how many entries it has, then each entry's key
  /// (``IdentificationSpill/Key``) in arrival order.
  mutating func spill(to files: SpillFiles) throws(CompileError) {
    guard !candidates.isEmpty else { return }
    // The entries of each label, in arrival order (the order they are
    // held in): a counting sort of their positions by label id.
    var starts = [Int32](repeating: 0, count: labels.count + 1)
    for candidate in candidates { starts[Int(candidate.label) + 1] += 1 }
    for id in labels.indices { starts[id + 1] += starts[id] }
    var next = starts
    var positions = [Int32](repeating: 0, count: candidates.count)
    for (position, candidate) in candidates.enumerated() {
      positions[Int(next[Int(candidate.label)])] = Int32(position)
      next[Int(candidate.label)] += 1
    }
    let writer = try SpillByteWriter(path: files.newPath())
    for id in Self.byteOrder(of: labels, labels.indices) {
      let group = Int(starts[id])..<Int(starts[id + 1])
      try writer.lengthPrefixed(labels[id].utf8)
      try writer.varint(UInt64(group.count))
      for position in positions[group] {
        let candidate = candidates[Int(position)]
        try IdentificationSpill.Key(
          number: candidate.number, sequence: candidate.sequence, line: candidate.line,
          priority: candidate.priority, source: candidate.source
        ).write(to: writer)
      }
    }
    try writer.finish()
    runs.append(writer.path)
    // The next entries and labels go to the same memory.
    candidates.removeAll(keepingCapacity: true)
    labelIDs.removeAll(keepingCapacity: true)
    labels.removeAll(keepingCapacity: true)
    labelBytes = 0
  }

  /// The indices `ids` of `labels`, ordered by their labels' UTF-8 bytes
  /// (distinct labels): sorted by the first 16 bytes (zero-padded, read as
  /// two big-endian integers, whose order is the bytes' wherever they
  /// differ), and by all of them where those tie.
  static func byteOrder(of labels: [String], _ ids: some Collection<Int>) -> [Int] {
    var keys: [(high: UInt64, low: UInt64, id: Int)] = []
    keys.reserveCapacity(ids.count)
    for id in ids {
      var high: UInt64 = 0
      var low: UInt64 = 0
      var index = 0
      for byte in labels[id].utf8 {
        if index < 8 {
          high |= UInt64(byte) << (56 - 8 * index)
        } else if index < 16 {
          low |= UInt64(byte) << (56 - 8 * (index - 8))
        } else {
          break
        }
        index += 1
      }
      keys.append((high, low, id))
    }
    keys.sort { left, right in
      if left.high != right.high { return left.high < right.high }
      if left.low != right.low { return left.low < right.low }
      return bytesPrecede(labels[left.id], labels[right.id])
    }
    return keys.map(\.id)
  }

  /// Whether `left`'s UTF-8 bytes come before `right`'s: the order of the
  /// label dictionary (and of the label runs), compared in place.
  static func bytesPrecede(_ left: String, _ right: String) -> Bool {
    let compared = left.utf8.withContiguousStorageIfAvailable { left in
      right.utf8.withContiguousStorageIfAvailable { right in
        for index in 0..<min(left.count, right.count) where left[index] != right[index] {
          return left[index] < right[index]
        }
        return left.count < right.count
      }
    }
    return (compared ?? nil) ?? left.utf8.lexicographicallyPrecedes(right.utf8)
  }

  /// Resolves spilled entries (``hasSpilled``): spills what is held, then
  /// merges the runs with at most `bufferBytes` of records in memory.
  mutating func resolveSpilled(
    conflicts log: ConflictLog?, files: SpillFiles, bufferBytes: Int
  ) throws(CompileError) -> IdentificationSpill.Resolution {
    try spill(to: files)
    candidates = []
    labelIDs = [:]
    labels = []
    let runs = self.runs
    self.runs = []
    return try IdentificationSpill.resolve(labelRuns: runs, conflicts: log, files: files, bufferBytes: bufferBytes)
  }

  /// The resolved list.
  struct Resolution {
    /// Ascending unique numbers with an index into `labels`.
    var entries: [LabeledNumber]
    /// Labels in use, sorted by their UTF-8 bytes (deterministic), each once.
    var labels: [String]
    /// Numbers that had more than one distinct label.
    var conflicts: Int
    /// Entries dropped because the same number came again (with any label).
    var duplicates: Int
    /// What each identification source contributed, by config index.
    var contributions: [Int: SourceContribution]
    /// For each entry, the config index of the source whose label won
    /// (empty unless asked for): its `category` and `icon` are the entry's.
    var winningSources: [Int32] = []
  }

  /// Sorts (in place, to hold the candidates once), picks a winner per
  /// number, builds the label dictionary, and reports each losing label to
  /// `conflicts` when given.
  mutating func resolve(
    conflicts log: ConflictLog? = nil, keepingWinningSources: Bool = false
  ) throws(CompileError) -> Resolution {
    candidates.sort { left, right in
      if left.number != right.number { return left.number < right.number }
      if left.priority != right.priority { return left.priority > right.priority }
      return left.sequence < right.sequence
    }
    var winners: [LabeledNumber] = []
    winners.reserveCapacity(candidates.count)
    var winningSources: [Int32] = []
    var contributions: [Int: SourceContribution] = [:]
    var conflicts = 0
    var index = 0
    var sourcesOfNumber: [Int32] = []
    while index < candidates.count {
      let winner = candidates[index]
      var hasConflict = false
      var next = index + 1
      sourcesOfNumber.removeAll(keepingCapacity: true)
      sourcesOfNumber.append(winner.source)
      while next < candidates.count && candidates[next].number == winner.number {
        let other = candidates[next]
        if other.label != winner.label {
          hasConflict = true
          try log?.add(
            number: winner.number, winner: (labels[Int(winner.label)], Int(winner.source), winner.line),
            loser: (labels[Int(other.label)], Int(other.source), other.line))
        }
        if sourcesOfNumber.contains(other.source) {
          contributions[Int(other.source), default: SourceContribution()].duplicates += 1
        } else {
          sourcesOfNumber.append(other.source)
        }
        next += 1
      }
      for source in sourcesOfNumber {
        contributions[Int(source), default: SourceContribution()].numbers += 1
      }
      if sourcesOfNumber.count == 1 {
        contributions[Int(winner.source), default: SourceContribution()].unique += 1
      }
      if hasConflict { conflicts += 1 }
      winners.append(LabeledNumber(number: winner.number, labelID: UInt32(winner.label)))
      if keepingWinningSources { winningSources.append(winner.source) }
      index = next
    }
    let duplicates = candidates.count - winners.count
    candidates = []

    // Renumber the labels that won, in byte order, so ids do not depend on
    // which source happened to mention a label first.
    var used = [Bool](repeating: false, count: labels.count)
    for winner in winners { used[Int(winner.labelID)] = true }
    let kept = Self.byteOrder(of: labels, labels.indices.filter { used[$0] })
    var newID = [UInt32](repeating: 0, count: labels.count)
    for (position, old) in kept.enumerated() { newID[old] = UInt32(position) }
    for index in winners.indices { winners[index].labelID = newID[Int(winners[index].labelID)] }

    return Resolution(
      entries: winners,
      labels: kept.map { labels[$0] },
      conflicts: conflicts,
      duplicates: duplicates,
      contributions: contributions,
      winningSources: winningSources
    )
  }
}
