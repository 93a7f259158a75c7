#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value behind a `pthread` mutex, for the few pieces of state that
/// threads share (every system calldir and an app extension run on has
/// it, unlike `Synchronization.Mutex`, which needs iOS 18 and macOS 15).
///
///     let seen = Locked<Set<String>>([])
///     seen.withLock { $0.insert(name) }
public final class Locked<Value> {
  private var value: Value
  private var mutex = pthread_mutex_t()

  /// A lock holding `value`.
  public init(_ value: Value) {
    self.value = value
    pthread_mutex_init(&mutex, nil)
  }

  deinit { pthread_mutex_destroy(&mutex) }

  /// Runs `body` on the value with the lock held.
  public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    return try body(&value)
  }
}

/// The mutex makes every access exclusive, so a lock of a sendable value
/// can be shared between threads.
extension Locked: @unchecked Sendable where Value: Sendable {}
