import CalldirSystem

/// Fixed-size records sorted in bounded memory: they are gathered in a
/// buffer, and whenever it holds `capacity` records they are sorted and
/// written, as they lie in memory, to a run file of ``SpillFiles``; the
/// runs and what the buffer still holds are merged when read back.
///
/// The order must be total (records that compare equal either way are
/// the same bytes), so that the result is the same whatever the capacity.
final class RecordSpill<Record: BitwiseCopyable> {
  private var buffer: [Record] = []
  private var runs: [(path: String, count: Int)] = []
  private let files: SpillFiles?
  private let areInIncreasingOrder: (Record, Record) -> Bool
  /// Records gathered so far.
  private(set) var count = 0

  /// Records held in memory now.
  var buffered: Int { buffer.count }
  /// Runs written so far.
  var runsWritten: Int { runs.count }

  /// Sorts with `areInIncreasingOrder`; without `files`, everything stays
  /// in memory.
  init(files: SpillFiles?, by areInIncreasingOrder: @escaping (Record, Record) -> Bool) {
    self.files = files
    self.areInIncreasingOrder = areInIncreasingOrder
  }

  /// Adds a record.
  func append(_ record: Record) {
    buffer.append(record)
    count += 1
  }

  /// Sorts the buffered records into a new run file and empties the buffer
  /// (keeping its memory); does nothing without files or records.
  func spill() throws(CompileError) {
    guard let files, !buffer.isEmpty else { return }
    buffer.sort(by: areInIncreasingOrder)
    let path = files.newPath()
    let descriptor: FileDescriptor
    do {
      descriptor = try FileDescriptor.open(path, .writeOnly, options: .exclusiveCreate, permissions: 0o600)
    } catch {
      throw .spill(error)
    }
    defer { try? descriptor.close() }
    let writer = BufferedWriter(descriptor: descriptor, path: path, capacity: 1 << 20)
    do {
      try buffer.withUnsafeBytes { bytes in Result { () throws(FileError) in try writer.write(bytes) } }.get()
      try writer.flush()
    } catch {
      throw .spill(error)
    }
    runs.append((path, buffer.count))
    buffer.removeAll(keepingCapacity: true)
    if runs.count >= SortedRun.maximumFanIn { try mergeRuns(files) }
  }

  /// Merges every run file into one, so that reading them back never
  /// needs more than ``SortedRun/maximumFanIn`` buffers.
  private func mergeRuns(_ files: SpillFiles) throws(CompileError) {
    let merged = try Cursor(runs.map { .file($0.path, count: $0.count) }, by: areInIncreasingOrder)
    let path = files.newPath()
    let descriptor: FileDescriptor
    do {
      descriptor = try FileDescriptor.open(path, .writeOnly, options: .exclusiveCreate, permissions: 0o600)
    } catch {
      throw .spill(error)
    }
    defer { try? descriptor.close() }
    let writer = BufferedWriter(descriptor: descriptor, path: path, capacity: 1 << 20)
    var total = 0
    var chunk: [Record] = []
    chunk.reserveCapacity(4096)
    func flush() throws(CompileError) {
      do {
        try chunk.withUnsafeBytes { bytes in Result { () throws(FileError) in try writer.write(bytes) } }.get()
      } catch {
        throw .spill(error)
      }
      total += chunk.count
      chunk.removeAll(keepingCapacity: true)
    }
    while let record = try merged.next() {
      chunk.append(record)
      if chunk.count == 4096 { try flush() }
    }
    try flush()
    do {
      try writer.flush()
    } catch {
      throw .spill(error)
    }
    for run in runs { try? FileSystem.removeFile(run.path) }
    runs = [(path, total)]
  }

  /// Every record in order, once; the spill is spent afterwards.
  func sorted() throws(CompileError) -> Cursor {
    buffer.sort(by: areInIncreasingOrder)
    var sources: [Cursor.Source] = runs.map { .file($0.path, count: $0.count) }
    if !buffer.isEmpty { sources.append(.memory(buffer)) }
    buffer = []
    return try Cursor(sources, by: areInIncreasingOrder)
  }

  /// The merged records, read front to back with a bounded buffer per run
  /// (4 MiB shared among the runs, at least 64 KiB each).
  final class Cursor {
    enum Source {
      case memory([Record])
      case file(String, count: Int)
    }

    private var readers: [_Reader] = []
    /// Each reader's front record, beside it.
    private var heads: [Record] = []
    private let areInIncreasingOrder: (Record, Record) -> Bool

    init(_ sources: [Source], by areInIncreasingOrder: @escaping (Record, Record) -> Bool) throws(CompileError) {
      self.areInIncreasingOrder = areInIncreasingOrder
      for source in sources {
        let reader = try _Reader(source, bufferBytes: max(64 << 10, (4 << 20) / max(1, sources.count)))
        if let head = try reader.next() {
          readers.append(reader)
          heads.append(head)
        }
      }
    }

    /// The next record in order, nil at the end.
    func next() throws(CompileError) -> Record? {
      guard !heads.isEmpty else { return nil }
      var smallest = 0
      for index in heads.indices.dropFirst() where areInIncreasingOrder(heads[index], heads[smallest]) {
        smallest = index
      }
      let record = heads[smallest]
      if let following = try readers[smallest].next() {
        heads[smallest] = following
      } else {
        readers.remove(at: smallest)
        heads.remove(at: smallest)
      }
      return record
    }
  }

  /// One sorted run: records in memory, or a file read a buffer at a time.
  fileprivate final class _Reader {
    private var records: [Record]
    private var index = 0
    private let input: ChunkedInput?
    private let path: String
    private var remaining: Int
    /// Bytes of the input's window taken by the last refill.
    private var taken = 0

    init(_ source: Cursor.Source, bufferBytes: Int) throws(CompileError) {
      switch source {
      case .memory(let values):
        records = values
        input = nil
        path = ""
        remaining = 0
      case .file(let path, let count):
        records = []
        self.path = path
        remaining = count
        do {
          input = try ChunkedInput(.path(path), chunkSize: max(bufferBytes, MemoryLayout<Record>.stride))
        } catch {
          throw .spill(error)
        }
      }
    }

    func next() throws(CompileError) -> Record? {
      if index < records.count {
        index += 1
        return records[index - 1]
      }
      guard let input, remaining > 0 else { return nil }
      // The next whole records of the file (a partial one waits for the
      // next refill).
      let stride = MemoryLayout<Record>.stride
      do {
        try input.refill(keepingFrom: taken)
        try input.ensure(stride)
      } catch {
        throw .spill(error)
      }
      let whole = min(remaining, input.end / stride)
      guard whole > 0 else {
        throw .spill(FileError(operation: "read", path: path, errno: .ioError, detail: "temporary run ends early"))
      }
      records.removeAll(keepingCapacity: true)
      UnsafeRawBufferPointer(start: input.base, count: whole * stride).withMemoryRebound(to: Record.self) {
        records.append(contentsOf: $0)
      }
      taken = whole * stride
      remaining -= whole
      index = 1
      return records[0]
    }
  }
}
