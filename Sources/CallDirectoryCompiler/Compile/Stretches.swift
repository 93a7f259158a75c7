import CalldirHost
import CalldirSystem

/// A pointer handed to the parts of one pass; each part touches its own slots.
struct SharedPointer<Element>: @unchecked Sendable {
  let base: UnsafeMutablePointer<Element>

  init(_ base: UnsafeMutablePointer<Element>) { self.base = base }

  init(count: Int) { base = .allocate(capacity: count) }

  func deallocate() { base.deallocate() }
}

/// `count` indices cut into `parts` consecutive stretches.
struct Stretches: Sendable {
  let count: Int
  let parts: Int

  /// The indices of stretch `part`.
  func range(_ part: Int) -> Range<Int> {
    let length = (count + parts - 1) / parts
    return min(count, part * length)..<min(count, (part + 1) * length)
  }

  /// Runs `body` for every stretch, on as many threads as there are parts.
  func forEachConcurrently(_ body: @Sendable (_ part: Int, _ range: Range<Int>) -> Void) {
    let stretches = self
    Parallel.forEach(parts: parts) { part in body(part, stretches.range(part)) }
  }
}
