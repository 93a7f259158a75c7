#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import CalldirSystem
import Dispatch

/// The thread pools of the host tools, beside ``Parallel/run(background:foreground:)``
/// (in `CalldirSystem`) and the ``OrderedPipeline``: never in an app
/// extension, which embeds `CalldirSystem` only.
extension Parallel {
  /// Calls `body(part)` for every part in `0..<parts`, on as many threads
  /// as there are cores, and returns when all are done.
  public static func forEach(parts: Int, _ body: @Sendable (_ part: Int) -> Void) {
    if parts <= 1 {
      if parts == 1 { body(0) }
      return
    }
    DispatchQueue.concurrentPerform(iterations: parts, execute: body)
  }

  /// ``forEach(parts:_:)`` on this thread and threads of its own, not the
  /// shared pool's: for work that threads of the pool wait on. (A
  /// `forEach` nested in another runs on one thread, and a pool whose
  /// threads are blocked adds none in time.) Each thread takes the next
  /// part until none is left.
  public static func forEachOnOwnThreads(parts: Int, _ body: @Sendable (_ part: Int) -> Void) {
    let threads = min(parts, coreCount)
    guard threads > 1 else {
      for part in 0..<max(0, parts) { body(part) }
      return
    }
    withoutActuallyEscaping(body) { body in
      let queue = _PartQueue(parts: parts, body: body)
      let job = _UncheckedJob { queue.drain() }
      var started: [pthread_t] = []
      for _ in 1..<threads {
        if let thread = _startThread(running: job) { started.append(thread) }
      }
      queue.drain()
      for thread in started { pthread_join(thread, nil) }
    }
  }

  /// `(0..<count).map(transform)`, computed by
  /// ``forEachOnOwnThreads(parts:_:)``.
  public static func mapOnOwnThreads<T>(_ count: Int, _ transform: @Sendable (_ index: Int) -> T) -> [T] {
    let results = UnsafeMutableBufferPointer<T?>.allocate(capacity: max(0, count))
    results.initialize(repeating: nil)
    defer {
      results.deinitialize()
      results.deallocate()
    }
    nonisolated(unsafe) let slots = results
    forEachOnOwnThreads(parts: count) { index in slots[index] = transform(index) }
    // Every part ran (forEachOnOwnThreads returns after all of them).
    return results.map { $0! }
  }

  /// The online processors (at least 1); `CALLDIR_THREADS` overrides it,
  /// for benchmarks.
  public static var coreCount: Int {
    if let text = getenv("CALLDIR_THREADS"), let count = Int(String(cString: text)), count > 0 { return min(count, 64) }
    return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
  }
}

/// Parts handed out one at a time to the threads of
/// ``Parallel/forEachOnOwnThreads(parts:_:)``.
private final class _PartQueue: @unchecked Sendable {
  private var mutex = pthread_mutex_t()
  private var next = 0
  private let parts: Int
  private let body: @Sendable (Int) -> Void

  init(parts: Int, body: @escaping @Sendable (Int) -> Void) {
    self.parts = parts
    self.body = body
    pthread_mutex_init(&mutex, nil)
  }

  deinit { pthread_mutex_destroy(&mutex) }

  /// Runs parts until none is left.
  func drain() {
    while true {
      pthread_mutex_lock(&mutex)
      let part = next
      next += 1
      pthread_mutex_unlock(&mutex)
      guard part < parts else { return }
      body(part)
    }
  }
}

