#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// When the compiler spills sorted runs to disk, and where.
struct SpillPolicy: Sendable {
  /// How many collected numbers (blocking plus allow) stay in memory before
  /// the larger list is sorted and spilled.
  var heldNumbers: Int
  /// The temporary run files.
  var files: SpillFiles

  /// Bytes of memory one held number may cost at worst: its slot, the
  /// radix sort's scratch slot, and growth slack.
  static let bytesPerNumber = 24

  /// A policy that keeps the process within `memoryLimit` bytes: the
  /// limit less ``MemoryLimit/reservedBytes`` goes to held numbers.
  init(memoryLimit: Int, files: SpillFiles) {
    heldNumbers = max(1 << 12, (memoryLimit - MemoryLimit.reservedBytes) / Self.bytesPerNumber)
    self.files = files
  }
}

/// The numbers of one list (blocking or allow) as they are read: unsorted
/// in memory, plus the sorted runs already spilled.
struct NumberCollector {
  private(set) var numbers: [Int64] = []
  private(set) var runs: [SortedRun] = []
  /// Numbers dropped as repeats while sorting runs.
  private(set) var repeatsInRuns = 0
  /// Every number added.
  private(set) var added = 0
  /// Runs written to disk (merged ones included).
  private(set) var runsWritten = 0

  var hasSpilled: Bool { !runs.isEmpty }

  /// Adds numbers, growing the buffer no further than `limit` when given.
  mutating func add(_ incoming: some Collection<Int64>, limit: Int?) {
    let needed = numbers.count + incoming.count
    if let limit, needed > numbers.capacity {
      numbers.reserveCapacity(min(max(numbers.capacity * 2, needed), max(needed, limit + incoming.count)))
    }
    numbers.append(contentsOf: incoming)
    added += incoming.count
  }

  /// Sorts the numbers in memory and writes them to a new run file; when
  /// the runs reach `SortedRun.maximumFanIn`, merges them into one first.
  mutating func spill(to files: SpillFiles) throws(CompileError) {
    repeatsInRuns += RadixSort.sortAndDeduplicate(&numbers)
    let run = try numbers.withUnsafeBufferPointer { buffer throws(CompileError) in try SortedRun.spill(buffer, to: files.newPath()) }
    numbers.removeAll(keepingCapacity: true)
    runsWritten += 1
    if runs.count + 1 >= SortedRun.maximumFanIn {
      let (merged, repeats) = try SortedRun.merge(runs, to: files.newPath())
      runs = [merged]
      repeatsInRuns += repeats
    }
    runs.append(run)
  }

  /// Takes the unsorted numbers out (the collector must not have spilled).
  mutating func takeNumbers() -> [Int64] {
    var taken: [Int64] = []
    swap(&taken, &numbers)
    return taken
  }

  /// Every number as sorted runs: the spilled ones plus the rest, sorted in memory.
  mutating func takeRuns() -> [SortedRun] {
    var rest = takeNumbers()
    repeatsInRuns += RadixSort.sortAndDeduplicate(&rest)
    return runs + [.memory(rest)]
  }
}

/// Temporary run files, removed when the last user lets go.
final class SpillFiles: @unchecked Sendable {
  let directory: String
  private var paths: [String] = []
  private var counter = 0

  init(directory: String) { self.directory = directory }

  /// A fresh path in the directory, removed with the others.
  func newPath() -> String {
    counter += 1
    let path = "\(directory)/.spill-\(getpid())-\(counter).run"
    paths.append(path)
    return path
  }

  deinit {
    for path in paths { _ = path.withCString { unlink($0) } }
  }
}
