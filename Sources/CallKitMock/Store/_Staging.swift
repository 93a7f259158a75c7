import CalldirSystem

/// One entry of a list, as the merge sees it (`label` is `nil` for blocking).
struct _Entry {
  var number: Int64
  var label: [UInt8]?
}

/// A scratch file of the running request, truncated on creation. It is
/// never synced: it lives in the request's staging area, which nothing
/// reads after the request and the next request sweeps.
final class _ScratchFile {
  let path: String
  private(set) var writer: _ByteWriter
  private var descriptor: FileDescriptor?

  init(path: String) throws(_DeviceStorageError) {
    self.path = path
    (writer, descriptor) = try Self.create(path)
  }

  deinit {
    try? descriptor?.close()
  }

  /// Drops everything written.
  func truncate() throws(_DeviceStorageError) {
    try close()
    (writer, descriptor) = try Self.create(path)
  }

  /// Writes out what is buffered and closes the file.
  func close() throws(_DeviceStorageError) {
    guard let open = descriptor else { return }
    descriptor = nil
    do {
      try writer.flush()
      try writer.writer.flush()
    } catch {
      try? open.close()
      throw .file(error)
    }
    try _io { () throws(FileError) in
      do throws(Errno) {
        try open.close()
      } catch {
        throw FileError(operation: "close", path: path, errno: error)
      }
    }
  }

  private static func create(_ path: String) throws(_DeviceStorageError) -> (_ByteWriter, FileDescriptor) {
    let descriptor = try _io { () throws(FileError) in
      try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate])
    }
    return (_ByteWriter(BufferedWriter(descriptor: descriptor, path: path, capacity: 1 << 16)), descriptor)
  }
}

/// The adds of one list within a request, staged on disk as they arrive:
/// varint deltas (adds are validated ascending before they get here) and,
/// for identification, a varint label length and the label bytes.
final class _AddStaging {
  let hasLabels: Bool
  private let file: _ScratchFile
  private var previous: Int64 = 0
  /// Adds staged since the start or the last ``truncate()``.
  private(set) var count: Int64 = 0

  init(path: String, hasLabels: Bool) throws(_DeviceStorageError) {
    self.hasLabels = hasLabels
    file = try _ScratchFile(path: path)
  }

  /// Stages one add; `number` is above the previous staged number.
  func append(_ number: Int64, label: [UInt8]?) throws(_DeviceStorageError) {
    try _io { () throws(FileError) in
      try file.writer.appendVarint(UInt64(number - previous))
      if hasLabels {
        let bytes = label ?? []
        try file.writer.appendVarint(UInt64(bytes.count))
        try file.writer.append(bytes)
      }
    }
    previous = number
    count += 1
  }

  /// Drops everything staged so far (a `removeAll…` call).
  func truncate() throws(_DeviceStorageError) {
    try file.truncate()
    previous = 0
    count = 0
  }

  /// Closes the file and returns a reader over the staged adds.
  func makeReader() throws(_DeviceStorageError) -> _AddReader {
    try file.close()
    return try _AddReader(path: file.path, count: count, hasLabels: hasLabels)
  }
}

/// Reads back an ``_AddStaging`` file.
final class _AddReader {
  private let reader: _ByteReader
  private let hasLabels: Bool
  private var remaining: Int64
  private var previous: Int64 = 0

  init(path: String, count: Int64, hasLabels: Bool) throws(_DeviceStorageError) {
    reader = try _ByteReader(path: path)
    remaining = count
    self.hasLabels = hasLabels
  }

  func next() throws(_DeviceStorageError) -> _Entry? {
    guard remaining > 0 else { return nil }
    remaining -= 1
    previous += Int64(truncatingIfNeeded: try reader.requireVarint())
    guard hasLabels else { return _Entry(number: previous, label: nil) }
    let length = try reader.requireVarint()
    guard length <= UInt64(_EntryStore.maximumLabelLength) else { throw reader.corrupt("label too long") }
    return _Entry(number: previous, label: try reader.readBytes(Int(length)))
  }
}

/// The removes of one list within a request, staged on disk as pairs of
/// little-endian `Int64`: the number and the count of adds staged in the
/// same list before the remove (which adds of this request it cancels).
final class _RemoveStaging {
  private let file: _ScratchFile
  private var previous = Int64.min
  /// Removes staged since the start or the last ``truncate()``.
  private(set) var count: Int64 = 0
  /// Whether the staged numbers are non-decreasing (they then stream).
  private(set) var isSorted = true

  init(path: String) throws(_DeviceStorageError) {
    file = try _ScratchFile(path: path)
  }

  /// Stages one remove.
  func append(_ number: Int64, addsBefore: Int64) throws(_DeviceStorageError) {
    try _io { () throws(FileError) in
      try file.writer.appendInt64(number)
      try file.writer.appendInt64(addsBefore)
    }
    if number < previous { isSorted = false }
    previous = number
    count += 1
  }

  /// Drops everything staged so far (a `removeAll…` call).
  func truncate() throws(_DeviceStorageError) {
    try file.truncate()
    previous = Int64.min
    count = 0
    isSorted = true
  }

  /// Closes the file and returns a lookup over the staged removes.
  ///
  /// Sorted removes stream from disk; unsorted ones are loaded and sorted in
  /// memory (16 bytes per remove), since the API does not require removes to
  /// be ordered.
  func makeLookup() throws(_DeviceStorageError) -> _RemoveLookup {
    try file.close()
    let reader = try _ByteReader(path: file.path)
    if isSorted { return _RemoveLookup(reader: reader) }
    var pairs: [(number: Int64, addsBefore: Int64)] = []
    pairs.reserveCapacity(Int(count))
    while let number = try reader.readInt64() {
      guard let addsBefore = try reader.readInt64() else { throw reader.corrupt("it is truncated") }
      pairs.append((number, addsBefore))
    }
    pairs.sort { $0.number < $1.number }
    return _RemoveLookup(sorted: pairs)
  }
}

/// Answers, for ascending numbers, whether the request removed a number and
/// the largest "adds before" among its removes.
final class _RemoveLookup {
  private let reader: _ByteReader?
  private let sorted: [(number: Int64, addsBefore: Int64)]
  private var index = 0
  private var pending: (number: Int64, addsBefore: Int64)?
  private var isPrimed = false

  init(reader: _ByteReader) {
    self.reader = reader
    self.sorted = []
  }

  init(sorted: [(number: Int64, addsBefore: Int64)]) {
    self.reader = nil
    self.sorted = sorted
  }

  /// The largest "adds before" of the removes of `number`, or `nil` when
  /// it was not removed. Successive calls must pass ascending numbers.
  func lookup(_ number: Int64) throws(_DeviceStorageError) -> Int64? {
    if !isPrimed {
      isPrimed = true
      try advance()
    }
    while let current = pending, current.number < number { try advance() }
    var result: Int64?
    while let current = pending, current.number == number {
      result = max(result ?? Int64.min, current.addsBefore)
      try advance()
    }
    return result
  }

  private func advance() throws(_DeviceStorageError) {
    if let reader {
      guard let number = try reader.readInt64() else {
        pending = nil
        return
      }
      guard let addsBefore = try reader.readInt64() else { throw reader.corrupt("it is truncated") }
      pending = (number, addsBefore)
    } else if index < sorted.count {
      pending = sorted[index]
      index += 1
    } else {
      pending = nil
    }
  }
}
