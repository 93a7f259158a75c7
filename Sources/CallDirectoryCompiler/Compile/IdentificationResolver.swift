/// Collects identification entries from every source and resolves numbers
/// that carry different labels by the declared policy: the higher source
/// `priority` wins, then the source listed first, then the first line.
struct IdentificationResolver {
  /// One candidate entry; `sequence` is its arrival order, which is source
  /// order then line order, because sources are read one after another.
  private struct Candidate {
    var number: Int64
    var priority: Int
    var sequence: Int
    var label: Int32
  }

  private var candidates: [Candidate] = []
  private var labelIDs: [String: Int32] = [:]
  private var labels: [String] = []

  /// Adds an entry; call in source order, and in line order within a source.
  mutating func add(number: Int64, label: String, priority: Int) {
    let id: Int32
    if let existing = labelIDs[label] {
      id = existing
    } else {
      id = Int32(labels.count)
      labelIDs[label] = id
      labels.append(label)
    }
    candidates.append(Candidate(number: number, priority: priority, sequence: candidates.count, label: id))
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
  }

  /// Sorts (in place, to hold the candidates once), picks a winner per
  /// number and builds the label dictionary.
  mutating func resolve() -> Resolution {
    candidates.sort { left, right in
      if left.number != right.number { return left.number < right.number }
      if left.priority != right.priority { return left.priority > right.priority }
      return left.sequence < right.sequence
    }
    let ordered = candidates
    var winners: [LabeledNumber] = []
    winners.reserveCapacity(ordered.count)
    var conflicts = 0
    var index = 0
    while index < ordered.count {
      let winner = ordered[index]
      var hasConflict = false
      var next = index + 1
      while next < ordered.count && ordered[next].number == winner.number {
        if ordered[next].label != winner.label { hasConflict = true }
        next += 1
      }
      if hasConflict { conflicts += 1 }
      winners.append(LabeledNumber(number: winner.number, labelID: UInt32(winner.label)))
      index = next
    }

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
      duplicates: ordered.count - winners.count
    )
  }
}
