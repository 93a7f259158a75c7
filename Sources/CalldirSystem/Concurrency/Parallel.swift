#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Work on several cores. This module (which an app extension embeds) has
/// only ``run(background:foreground:)``, one thread of its own beside the
/// caller's; the thread pools, the shared one and the own-thread ones,
/// are the host's (`CalldirHost`).
public enum Parallel {
  /// Runs `background` on a thread of its own while `foreground` runs on
  /// this one; returns (or rethrows `foreground`'s error) only after both
  /// have finished. (Not on the shared pool: callers nest, and a pool whose
  /// threads wait for each other's background work would run it late.)
  ///
  /// The caller guarantees the two closures touch disjoint state, which is
  /// why the background closure may cross threads unchecked.
  public static func run(background: () -> Void, foreground: () throws -> Void) rethrows {
    try withoutActuallyEscaping(background) { background in
      let job = _UncheckedJob(background)
      guard let thread = _startThread(running: job) else {
        job.run()
        try foreground()
        return
      }
      defer { pthread_join(thread, nil) }
      try foreground()
    }
  }
}

/// Starts a thread that runs `job`; nil when none could start. The caller
/// joins it.
package func _startThread(running job: _UncheckedJob) -> pthread_t? {
  let context = Unmanaged.passRetained(job).toOpaque()
  #if canImport(Darwin)
    var thread: pthread_t?
    let status = pthread_create(&thread, nil, { raw in
      Unmanaged<_UncheckedJob>.fromOpaque(raw).takeRetainedValue().run()
      return nil
    }, context)
  #else
    var thread = pthread_t()
    let status = pthread_create(&thread, nil, { raw in
      if let raw { Unmanaged<_UncheckedJob>.fromOpaque(raw).takeRetainedValue().run() }
      return nil
    }, context)
  #endif
  guard status == 0 else {
    Unmanaged<_UncheckedJob>.fromOpaque(context).release()
    return nil
  }
  return thread
}

/// A closure handed to another thread; see ``Parallel/run(background:foreground:)``
/// (and `CalldirHost`'s own-thread pools).
package final class _UncheckedJob: @unchecked Sendable {
  private let body: () -> Void

  package init(_ body: @escaping () -> Void) {
    self.body = body
  }

  package func run() {
    body()
  }
}
