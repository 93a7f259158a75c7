import CalldirHost
import CalldirSystem
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The shapes of parallel work: every part runs exactly once, on more
/// than one thread where there are cores, nested or not.
@Suite struct ParallelTests {
  /// Counts per part and the threads that ran them, behind a lock.
  final class Record: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private(set) var counts: [Int]
    private(set) var threads: Set<UInt> = []

    init(parts: Int) {
      counts = Array(repeating: 0, count: parts)
      pthread_mutex_init(&mutex, nil)
    }

    deinit { pthread_mutex_destroy(&mutex) }

    func ran(_ part: Int) {
      pthread_mutex_lock(&mutex)
      counts[part] += 1
      #if canImport(Darwin)
        threads.insert(UInt(bitPattern: pthread_self()))
      #else
        threads.insert(UInt(pthread_self()))
      #endif
      pthread_mutex_unlock(&mutex)
    }
  }

  @Test(arguments: [0, 1, 2, 25, 300])
  func ownThreadsRunEveryPartOnce(parts: Int) {
    let record = Record(parts: parts)
    Parallel.forEachOnOwnThreads(parts: parts) { part in
      // Long enough that a second thread has time to take parts.
      usleep(part < 4 ? 2_000 : 0)
      record.ran(part)
    }
    #expect(record.counts == Array(repeating: 1, count: parts))
    if parts >= 4 && Parallel.coreCount > 1 { #expect(record.threads.count > 1) }
  }

  /// Nested in the shared pool's work, where a nested `forEach` would run
  /// on one thread, parts still spread over threads of their own.
  @Test func ownThreadsSpreadWhenNestedInThePool() {
    let outer = Parallel.coreCount
    let records = (0..<outer).map { _ in Record(parts: 8) }
    Parallel.forEach(parts: outer) { index in
      Parallel.forEachOnOwnThreads(parts: 8) { part in
        usleep(1_000)
        records[index].ran(part)
      }
    }
    for record in records {
      #expect(record.counts == Array(repeating: 1, count: 8))
      if outer > 1 { #expect(record.threads.count > 1) }
    }
  }

  @Test(arguments: [0, 1, 7, 200])
  func mapOnOwnThreadsKeepsTheOrder(count: Int) {
    let squares = Parallel.mapOnOwnThreads(count) { index in
      usleep(index < 4 ? 1_000 : 0)
      return index * index
    }
    #expect(squares == (0..<count).map { $0 * $0 })
  }
}
