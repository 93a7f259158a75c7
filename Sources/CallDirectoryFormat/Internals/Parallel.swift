import Dispatch

/// Runs `background` on another thread while `foreground` runs on this one;
/// returns (or rethrows `foreground`'s error) only after both have finished.
///
/// The caller guarantees the two closures touch disjoint state, which is
/// why the background closure may cross threads unchecked.
func _inParallel(background: () -> Void, foreground: () throws -> Void) rethrows {
  try withoutActuallyEscaping(background) { background in
    let job = _UncheckedJob(background)
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) { job.run() }
    defer { group.wait() }
    try foreground()
  }
}

/// A closure handed to another thread; see ``_inParallel(background:foreground:)``.
private final class _UncheckedJob: @unchecked Sendable {
  private let body: () -> Void

  init(_ body: @escaping () -> Void) {
    self.body = body
  }

  func run() {
    body()
  }
}
