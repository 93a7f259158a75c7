/// Collects identification entries from every source and resolves numbers
/// that carry different labels by the declared policy: the higher source
/// `priority` wins, then the source listed first, then the first line.
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

  /// Adds an entry of the source at `source` in the config, read at `line`;
  /// call in source order, and in line order within a source.
  mutating func add(number: Int64, label: String, priority: Int, source: Int, line: Int) {
    let id: Int32
    if let existing = labelIDs[label] {
      id = existing
    } else {
      id = Int32(labels.count)
      labelIDs[label] = id
      labels.append(label)
    }
    candidates.append(Candidate(
      number: number, sequence: candidates.count, line: line, priority: Int32(clamping: priority),
      source: Int32(clamping: source), label: id))
  }

  /// Entries added so far.
  var count: Int { candidates.count }

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
    let kept = labels.indices.filter { used[$0] }.sorted { labels[$0].utf8.lexicographicallyPrecedes(labels[$1].utf8) }
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
