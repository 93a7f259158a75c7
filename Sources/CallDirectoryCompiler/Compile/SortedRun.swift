#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// An ascending run of unique numbers, kept in memory or spilled to a
/// temporary file as LEB128 gaps (the first gap is from 0).
enum SortedRun: Sendable {
  case memory([Int64])
  case file(path: String, count: Int)

  /// The most runs merged at once: each needs an open file and a buffer.
  static let maximumFanIn = 64

  var count: Int {
    switch self {
    case .memory(let numbers): numbers.count
    case .file(_, let count): count
    }
  }

  /// Writes ascending unique positive `numbers` to a new file at `path`.
  static func spill(_ numbers: UnsafeBufferPointer<Int64>, to path: String) throws(CompileError) -> SortedRun {
    let writer = try SortedRunWriter(path: path)
    for number in numbers { try writer.append(number) }
    return try writer.finish()
  }

  /// Merges `runs` into one run file at `path` and removes their files;
  /// returns it and how many repeats the merge dropped.
  static func merge(_ runs: [SortedRun], to path: String) throws(CompileError) -> (SortedRun, repeats: Int) {
    let merged = try MergedRuns(runs)
    let writer = try SortedRunWriter(path: path)
    while let number = try merged.next() { try writer.append(number) }
    let run = try writer.finish()
    for input in runs { input.remove() }
    return (run, merged.repeats)
  }

  /// Removes the run's file, if it has one.
  func remove() {
    if case .file(let path, _) = self { _ = path.withCString { unlink($0) } }
  }
}

/// Writes an ascending run to a new file, one number at a time.
final class SortedRunWriter {
  private let path: String
  private let descriptor: Int32
  private let capacity = 1 << 20
  private let buffer: UnsafeMutablePointer<UInt8>
  private var used = 0
  private var previous: Int64 = 0
  private var count = 0

  init(path: String) throws(CompileError) {
    self.path = path
    descriptor = path.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
    guard descriptor >= 0 else { throw .spill(path: path, reason: _errnoDescription(errno)) }
    buffer = .allocate(capacity: capacity + 10)
  }

  deinit {
    close(descriptor)
    buffer.deallocate()
  }

  /// Appends a number above the previous one.
  func append(_ number: Int64) throws(CompileError) {
    var gap = UInt64(bitPattern: number &- previous)
    previous = number
    while gap >= 0x80 {
      buffer[used] = UInt8(truncatingIfNeeded: gap) | 0x80
      used &+= 1
      gap >>= 7
    }
    buffer[used] = UInt8(truncatingIfNeeded: gap)
    used &+= 1
    count &+= 1
    if used >= capacity { try flush() }
  }

  /// Writes what is buffered; the file is complete.
  func finish() throws(CompileError) -> SortedRun {
    try flush()
    return .file(path: path, count: count)
  }

  private func flush() throws(CompileError) {
    var written = 0
    while written < used {
      let result = write(descriptor, buffer + written, used - written)
      if result < 0 {
        if errno == EINTR { continue }
        throw .spill(path: path, reason: _errnoDescription(errno))
      }
      written += result
    }
    used = 0
  }
}

/// Reads a ``SortedRun`` front to back with a bounded buffer.
final class SortedRunCursor {
  /// The number at the front, nil when the run is exhausted.
  private(set) var current: Int64?
  private let numbers: [Int64]
  private var index = 0
  private let descriptor: Int32
  private let path: String
  private let buffer: UnsafeMutablePointer<UInt8>
  private let capacity: Int
  private var position = 0
  private var end = 0
  private var remaining: Int

  /// Opens `run`, reading a file `bufferBytes` at a time.
  init(_ run: SortedRun, bufferBytes: Int) throws(CompileError) {
    capacity = max(16, bufferBytes)
    buffer = .allocate(capacity: capacity)
    switch run {
    case .memory(let values):
      numbers = values
      descriptor = -1
      path = ""
      remaining = 0
    case .file(let path, let count):
      numbers = []
      self.path = path
      remaining = count
      descriptor = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
      guard descriptor >= 0 else {
        buffer.deallocate()
        throw .spill(path: path, reason: _errnoDescription(errno))
      }
    }
    try advance()
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
    buffer.deallocate()
  }

  /// Moves to the next number.
  func advance() throws(CompileError) {
    guard descriptor >= 0 else {
      current = index < numbers.count ? numbers[index] : nil
      index += 1
      return
    }
    guard remaining > 0 else {
      current = nil
      return
    }
    var gap: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      if position == end { try refill() }
      let byte = buffer[position]
      position &+= 1
      gap |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { break }
      shift += 7
      guard shift < 64 else { throw .spill(path: path, reason: "damaged temporary run") }
    }
    remaining -= 1
    current = (current ?? 0) &+ Int64(bitPattern: gap)
  }

  private func refill() throws(CompileError) {
    while true {
      let got = read(descriptor, buffer, capacity)
      if got > 0 {
        position = 0
        end = got
        return
      }
      if got < 0 && errno == EINTR { continue }
      throw .spill(path: path, reason: got == 0 ? "temporary run ends early" : _errnoDescription(errno))
    }
  }
}

/// The ascending union of several runs, each number once.
final class MergedRuns {
  private var cursors: [SortedRunCursor]
  /// Numbers that appeared in more than one run.
  private(set) var repeats = 0

  /// Opens every run with an equal share of `bufferBytes`.
  init(_ runs: [SortedRun], bufferBytes: Int = 4 << 20) throws(CompileError) {
    let share = max(64 << 10, bufferBytes / max(1, runs.count))
    cursors = []
    for run in runs {
      let cursor = try SortedRunCursor(run, bufferBytes: share)
      if cursor.current != nil { cursors.append(cursor) }
    }
  }

  /// The next number in ascending order, nil at the end.
  func next() throws(CompileError) -> Int64? {
    guard var smallest = cursors.first?.current else { return nil }
    for cursor in cursors.dropFirst() {
      if let value = cursor.current, value < smallest { smallest = value }
    }
    var seen = 0
    var index = 0
    while index < cursors.count {
      let cursor = cursors[index]
      if cursor.current == smallest {
        seen += 1
        try cursor.advance()
        if cursor.current == nil {
          cursors.remove(at: index)
          continue
        }
      }
      index += 1
    }
    repeats += seen - 1
    return smallest
  }
}
