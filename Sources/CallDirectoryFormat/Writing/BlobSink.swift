#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a writer puts the blob's bytes.
///
/// Writers append the bytes front to back, then patch the header at offset 0
/// with ``overwrite(at:with:)``, then call ``commit()``. On failure, or if the
/// writer is dropped before finishing, they call ``abandon()``.
public protocol BlobSink: AnyObject {
  /// Appends bytes.
  func write(_ bytes: UnsafeRawBufferPointer) throws
  /// Replaces bytes already written at `offset`.
  func overwrite(at offset: UInt64, with bytes: UnsafeRawBufferPointer) throws
  /// Makes the complete blob durable and visible.
  func commit() throws
  /// Discards everything written.
  func abandon()
}

/// Writes a blob atomically: to a temporary file in the destination's
/// directory, then `fsync`, `rename` over the destination and `fsync` of
/// the directory. Readers see either the old file or the complete new one.
public final class FileBlobSink: BlobSink {
  /// The final path.
  public let path: String
  private let temporaryPath: String
  private var fd: Int32
  private var pending = [UInt8]()
  private var done = false
  private static let bufferSize = 1 << 18

  /// Creates the temporary file next to `path`.
  /// - Throws: `BlobError.io` if it cannot be created.
  public init(path: String) throws {
    self.path = path
    var template = Array("\(path).tmp-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let base = buffer.baseAddress else { return -1 }
      return mkstemp(base)
    }
    guard fd >= 0 else {
      throw BlobError.io(operation: "create temporary file", path: path, errno: errno)
    }
    self.fd = fd
    self.temporaryPath = template.withUnsafeBufferPointer { buffer in
      buffer.baseAddress.map { String(cString: $0) } ?? path
    }
    _ = fchmod(fd, 0o644)
    pending.reserveCapacity(FileBlobSink.bufferSize)
  }

  deinit {
    if !done { abandon() }
  }

  /// Appends bytes (buffered; large writes go straight to the file).
  public func write(_ bytes: UnsafeRawBufferPointer) throws {
    try _checkOpen()
    if pending.count + bytes.count > FileBlobSink.bufferSize { try _flush() }
    if bytes.count >= FileBlobSink.bufferSize {
      try _Sys.writeAll(fd, bytes, path: temporaryPath)
    } else {
      pending.append(contentsOf: bytes)
    }
  }

  /// Flushes the buffer, then writes `bytes` at `offset` with `pwrite`.
  public func overwrite(at offset: UInt64, with bytes: UnsafeRawBufferPointer) throws {
    try _checkOpen()
    try _flush()
    try _Sys.pwriteAll(fd, bytes, at: offset, path: temporaryPath)
  }

  /// Flushes, `fsync`s, renames the temporary file over ``path`` and
  /// `fsync`s the directory.
  public func commit() throws {
    try _checkOpen()
    try _flush()
    try _Sys.fsync(fd, path: temporaryPath)
    _Sys.close(fd)
    fd = -1
    guard rename(temporaryPath, path) == 0 else {
      let code = errno
      _ = unlink(temporaryPath)
      done = true
      throw BlobError.io(operation: "rename", path: path, errno: code)
    }
    done = true
    let directory = _directory(of: path)
    if let dirFD = try? _Sys.openRead(directory) {
      try? _Sys.fsync(dirFD, path: directory)
      _Sys.close(dirFD)
    }
  }

  /// Closes and removes the temporary file; the destination is untouched.
  public func abandon() {
    guard !done else { return }
    done = true
    if fd >= 0 {
      _Sys.close(fd)
      fd = -1
    }
    _ = unlink(temporaryPath)
  }

  private func _checkOpen() throws {
    guard !done, fd >= 0 else { throw BlobError.misuse("the sink for '\(path)' is already closed") }
  }

  private func _flush() throws {
    guard !pending.isEmpty else { return }
    try pending.withUnsafeBytes { try _Sys.writeAll(fd, $0, path: temporaryPath) }
    pending.removeAll(keepingCapacity: true)
  }
}

private func _directory(of path: String) -> String {
  guard let slash = path.lastIndex(of: "/") else { return "." }
  let directory = String(path[..<slash])
  return directory.isEmpty ? "/" : directory
}

/// Collects a blob in memory.
public final class MemoryBlobSink: BlobSink {
  /// The bytes written so far (the complete blob after the writer finishes).
  public private(set) var bytes = [UInt8]()
  /// Whether the writer committed the blob.
  public private(set) var isCommitted = false

  /// Creates an empty sink.
  public init() {}

  /// Appends bytes.
  public func write(_ bytes: UnsafeRawBufferPointer) throws {
    self.bytes.append(contentsOf: bytes)
  }

  /// Replaces bytes already written.
  public func overwrite(at offset: UInt64, with bytes: UnsafeRawBufferPointer) throws {
    guard offset <= UInt64(self.bytes.count), UInt64(self.bytes.count) - offset >= UInt64(bytes.count)
    else { throw BlobError.misuse("overwrite past the end of the written bytes") }
    let start = Int(offset)
    self.bytes.replaceSubrange(start..<(start + bytes.count), with: bytes)
  }

  /// Marks the blob complete.
  public func commit() throws {
    isCommitted = true
  }

  /// Drops the bytes.
  public func abandon() {
    bytes = []
  }
}

@available(*, unavailable)
extension FileBlobSink: Sendable {}

@available(*, unavailable)
extension MemoryBlobSink: Sendable {}
