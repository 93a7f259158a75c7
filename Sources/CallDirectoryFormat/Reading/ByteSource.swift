import CalldirSystem

/// The random-access bytes of a blob: an open regular file read with
/// `pread` (``FileDescriptor/read(fromAbsoluteOffset:into:)``; never mapped,
/// never read whole), or an array held in memory.
final class _ByteSource {
  private enum Storage {
    /// An open regular file; `closes` when the source owns the descriptor.
    case file(FileDescriptor, closes: Bool)
    case memory([UInt8])
  }

  /// The total size in bytes.
  let size: UInt64
  /// The file's path (or `<memory>`), for errors.
  let path: String
  private let storage: Storage
  /// The source whose descriptor a view reads (kept open by this reference).
  private let owner: _ByteSource?
  /// Every read's offset and size, when set to an array (tests count reads).
  var readLog: [(offset: UInt64, count: Int)]?

  /// Reads the regular file open as `descriptor`; closes it on deinit when
  /// `closes` is set.
  /// - Throws: `BlobError.io` when its status cannot be read or it is not a
  ///   regular file (then a descriptor it `closes` is closed at once).
  init(descriptor: FileDescriptor, path: String, closes: Bool) throws(BlobError) {
    let status: FileStatus
    do {
      status = try descriptor.status()
    } catch {
      if closes { try? descriptor.close() }
      throw .io(FileError(operation: "read the status of", path: path, errno: error))
    }
    do {
      try _ByteSource.requireRegularFile(status, path: path)
    } catch {
      if closes { try? descriptor.close() }
      throw error
    }
    self.size = UInt64(max(0, status.size))
    self.path = path
    self.storage = .file(descriptor, closes: closes)
    self.owner = nil
  }

  /// A view of `source` for another thread: it reads the same file (with
  /// `pread`, which keeps no shared offset) or the same bytes, keeps
  /// `source` open for as long as it lives, and logs no reads.
  init(viewing source: _ByteSource) {
    self.size = source.size
    self.path = source.path
    switch source.storage {
    case .file(let descriptor, _): self.storage = .file(descriptor, closes: false)
    case .memory(let bytes): self.storage = .memory(bytes)
    }
    self.owner = source
  }

  /// Opens the regular file at `path`. It is opened without blocking, so a
  /// FIFO without a writer is refused at once instead of hanging.
  /// - Throws: `BlobError.io`: the path cannot be opened (missing, a
  ///   symbolic link loop, unreadable) or is not a regular file (a
  ///   directory: `EISDIR`; a FIFO, device or socket: `ESPIPE`).
  convenience init(path: String) throws(BlobError) {
    let descriptor: FileDescriptor
    do {
      descriptor = try FileDescriptor.open(path, .readOnly, options: .nonBlocking)
    } catch {
      throw .io(error)
    }
    try self.init(descriptor: descriptor, path: path, closes: true)
  }

  /// Holds `bytes` in memory (tests, small data, a spooled pipe).
  init(bytes: [UInt8]) {
    self.size = UInt64(bytes.count)
    self.path = "<memory>"
    self.storage = .memory(bytes)
    self.owner = nil
  }

  deinit {
    if case .file(let descriptor, true) = storage { try? descriptor.close() }
  }

  /// Reads up to `buffer.count` bytes at `offset`; fewer only at the end.
  /// - Throws: `BlobError.io` when `pread` fails.
  func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws(BlobError) -> Int {
    readLog?.append((offset, buffer.count))
    switch storage {
    case .file(let descriptor, _):
      guard offset <= UInt64(Int64.max) else { return 0 }
      do {
        return try descriptor.read(fromAbsoluteOffset: Int64(offset), into: buffer)
      } catch {
        throw .io(FileError(operation: "read", path: path, errno: error))
      }
    case .memory(let bytes):
      guard offset < UInt64(bytes.count), let target = buffer.baseAddress else { return 0 }
      let start = Int(offset)
      let count = min(buffer.count, bytes.count - start)
      bytes.withUnsafeBufferPointer { source in
        if let base = source.baseAddress { target.copyMemory(from: base + start, byteCount: count) }
      }
      return count
    }
  }

  /// Reads exactly `count` bytes at `offset`.
  /// - Throws: `BlobError.truncated(section:)` if the data ends first.
  func readExactly(at offset: UInt64, count: Int, section: BlobSection) throws(BlobError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    let got = try bytes.withUnsafeMutableBufferPointer { (buffer) throws(BlobError) in
      try read(at: offset, into: UnsafeMutableRawBufferPointer(buffer))
    }
    guard got == count else { throw BlobError.truncated(section: section) }
    return bytes
  }

  /// Throws unless `status` is a regular file's: a blob is read at random
  /// offsets, which a directory, FIFO, pipe, device or socket cannot give.
  static func requireRegularFile(_ status: FileStatus, path: String) throws(BlobError) {
    switch status.kind {
    case .regular:
      return
    case .directory:
      throw .io(FileError(operation: "read", path: path, errno: .isDirectory))
    default:
      throw .io(FileError(
        operation: "read", path: path, errno: .illegalSeek,
        detail: "it is not a regular file (\(status.kind)); a blob is read at random offsets"))
    }
  }
}

@available(*, unavailable)
extension _ByteSource: Sendable {}
