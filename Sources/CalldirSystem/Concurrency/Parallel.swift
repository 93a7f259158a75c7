#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Dispatch

/// Work on several cores, in the two shapes calldir needs besides the
/// ``OrderedPipeline``.
public enum Parallel {
  /// Runs `background` on another thread while `foreground` runs on this
  /// one; returns (or rethrows `foreground`'s error) only after both have
  /// finished.
  ///
  /// The caller guarantees the two closures touch disjoint state, which is
  /// why the background closure may cross threads unchecked.
  public static func run(background: () -> Void, foreground: () throws -> Void) rethrows {
    try withoutActuallyEscaping(background) { background in
      let job = _UncheckedJob(background)
      let group = DispatchGroup()
      DispatchQueue.global().async(group: group) { job.run() }
      defer { group.wait() }
      try foreground()
    }
  }

  /// Calls `body(part)` for every part in `0..<parts`, on as many threads
  /// as there are cores, and returns when all are done.
  public static func forEach(parts: Int, _ body: @Sendable (_ part: Int) -> Void) {
    if parts <= 1 {
      if parts == 1 { body(0) }
      return
    }
    DispatchQueue.concurrentPerform(iterations: parts, execute: body)
  }

  /// The online processors (at least 1); `CALLDIR_THREADS` overrides it,
  /// for benchmarks.
  public static var coreCount: Int {
    if let text = getenv("CALLDIR_THREADS"), let count = Int(String(cString: text)), count > 0 { return min(count, 64) }
    return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
  }
}

/// A closure handed to another thread; see ``Parallel/run(background:foreground:)``.
private final class _UncheckedJob: @unchecked Sendable {
  private let body: () -> Void

  init(_ body: @escaping () -> Void) {
    self.body = body
  }

  func run() {
    body()
  }
}
