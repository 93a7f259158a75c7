/// The candidate closest to `word`, for "did you mean" hints.
///
/// A candidate qualifies when it equals `word` ignoring case, `_`, `-` and
/// spaces, or is within an edit distance of about a third of its length
/// (at most 3).
package func _suggestion(for word: String, among candidates: [String]) -> String? {
  func folded(_ text: String) -> [Character] {
    Array(text.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " })
  }
  let target = folded(word)
  if let exact = candidates.first(where: { folded($0) == target }) {
    return exact
  }
  var best: (candidate: String, distance: Int)?
  for candidate in candidates {
    let distance = _editDistance(target, folded(candidate))
    let limit = min(3, max(1, candidate.count / 3))
    if distance <= limit, distance < (best?.distance ?? .max) {
      best = (candidate, distance)
    }
  }
  return best?.candidate
}

/// Edit distance counting insertions, deletions, substitutions and
/// transpositions of neighbours (`lable` → `label` is 1).
func _editDistance(_ a: [Character], _ b: [Character]) -> Int {
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var table = [[Int]](
    repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
  for i in 0...a.count { table[i][0] = i }
  for j in 0...b.count { table[0][j] = j }
  for i in 1...a.count {
    for j in 1...b.count {
      let cost = a[i - 1] == b[j - 1] ? 0 : 1
      var best = min(
        table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
      if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
        best = min(best, table[i - 2][j - 2] + 1)
      }
      table[i][j] = best
    }
  }
  return table[a.count][b.count]
}
