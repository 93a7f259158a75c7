import CalldirSystem

/// An ascending run of unique numbers, kept in memory or spilled to a
/// temporary file as LEB128 gaps (the first gap is from 0).
enum SortedRun: Sendable {
  case memory(SortedSlices)
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
  static func spill(_ numbers: SortedSlices, to path: String) throws(CompileError) -> SortedRun {
    let writer = try SortedRunWriter(path: path)
    for slice in numbers.slices {
      for number in numbers.numbers[slice] { try writer.append(number) }
    }
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
    if case .file(let path, _) = self { try? FileSystem.removeFile(path) }
  }
}

/// Writes an ascending run to a new file, one number at a time, as LEB128
/// gaps.
final class SortedRunWriter {
  private let output: SpillByteWriter
  private var previous: Int64 = 0
  private var count = 0

  init(path: String) throws(CompileError) {
    output = try SpillByteWriter(path: path)
  }

  /// Appends a number above the previous one.
  @inline(__always)
  func append(_ number: Int64) throws(CompileError) {
    try output.varint(UInt64(bitPattern: number &- previous))
    previous = number
    count &+= 1
  }

  /// Writes what is buffered; the file is complete.
  func finish() throws(CompileError) -> SortedRun {
    try output.finish()
    return .file(path: output.path, count: count)
  }
}

/// Reads a ``SortedRun`` front to back with a bounded buffer.
final class SortedRunCursor {
  /// The number at the front, nil when the run is exhausted.
  private(set) var current: Int64?
  private let numbers: [Int64]
  private var index = 0
  private let input: ChunkedInput?
  private let path: String
  private var position = 0
  private var remaining: Int

  /// Opens `run`, reading a file `bufferBytes` at a time.
  init(_ run: SortedRun, bufferBytes: Int) throws(CompileError) {
    switch run {
    case .memory(let values):
      numbers = values.contiguous()
      input = nil
      path = ""
      remaining = 0
    case .file(let path, let count):
      numbers = []
      self.path = path
      remaining = count
      do {
        input = try ChunkedInput(.path(path), chunkSize: max(16, bufferBytes))
      } catch {
        throw .spill(error)
      }
    }
    try advance()
  }

  /// Moves to the next number.
  func advance() throws(CompileError) {
    guard let input else {
      current = index < numbers.count ? numbers[index] : nil
      index += 1
      return
    }
    try advance(input)
  }

  /// Moves to the next number of the file read through `input`.
  @inline(__always)
  private func advance(_ input: ChunkedInput) throws(CompileError) {
    guard remaining > 0 else {
      current = nil
      return
    }
    var gap: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      if position == input.end { try refill(input) }
      let byte = input.base[position]
      position &+= 1
      gap |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { break }
      shift += 7
      guard shift < 64 else { throw damaged("damaged temporary run") }
    }
    remaining -= 1
    current = (current ?? 0) &+ Int64(bitPattern: gap)
  }

  /// Appends the current number and the ones after it to `output`, up to
  /// `limit` numbers, moving past them (a batch read with no call per
  /// number).
  func take(_ limit: Int, into output: inout [Int64]) throws(CompileError) {
    var taken = 0
    guard let input else {
      while taken < limit, let value = current {
        output.append(value)
        taken += 1
        try advance()
      }
      return
    }
    while taken < limit, let value = current {
      output.append(value)
      taken += 1
      try advance(input)
    }
  }

  private func refill(_ input: ChunkedInput) throws(CompileError) {
    do {
      try input.refill(keepingFrom: position)
    } catch {
      throw .spill(error)
    }
    position = 0
    if input.end == 0 { throw damaged("temporary run ends early") }
  }

  private func damaged(_ detail: String) -> CompileError {
    .spill(FileError(operation: "read", path: path, errno: .ioError, detail: detail))
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
