/// "Did you mean" matching for mistyped option and subcommand names.
enum _Suggestions {
  /// The edit distance between `a` and `b`: insertions, deletions,
  /// substitutions and swaps of two adjacent characters each cost 1
  /// (Levenshtein distance extended with transpositions, the "optimal
  /// string alignment" variant of Damerau–Levenshtein).
  ///
  /// - Complexity: O(*m* × *n*).
  static func distance(_ a: String, _ b: String) -> Int {
    let s = Array(a), t = Array(b)
    if s.isEmpty { return t.count }
    if t.isEmpty { return s.count }
    var beforePrevious = [Int](repeating: 0, count: t.count + 1)
    var previous = Array(0...t.count)
    var current = [Int](repeating: 0, count: t.count + 1)
    for i in 1...s.count {
      current[0] = i
      for j in 1...t.count {
        let cost = s[i - 1] == t[j - 1] ? 0 : 1
        var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, s[i - 1] == t[j - 2], s[i - 2] == t[j - 1] {
          best = min(best, beforePrevious[j - 2] + 1)
        }
        current[j] = best
      }
      (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[t.count]
  }

  /// The candidate closest to `input`, if it is close enough to be a likely typo.
  ///
  /// Leading dashes are ignored and the comparison is case-insensitive. A
  /// candidate qualifies when its distance is at most a third of the typed
  /// name's length (at least 1) and smaller than the candidate's own length.
  /// Ties go to the earlier candidate.
  static func bestMatch(for input: String, among candidates: [String]) -> String? {
    let typed = stripDashes(input).lowercased()
    guard !typed.isEmpty else { return nil }
    let limit = max(1, typed.count / 3)
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
      let bare = stripDashes(candidate).lowercased()
      let d = distance(typed, bare)
      guard d <= limit, d < bare.count else { continue }
      if let current = best, current.distance <= d { continue }
      best = (candidate, d)
    }
    return best?.candidate
  }

  private static func stripDashes(_ name: String) -> String {
    String(name.drop { $0 == "-" })
  }
}
