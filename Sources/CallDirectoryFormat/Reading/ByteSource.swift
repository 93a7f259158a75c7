/// Random-access bytes: a file read with `pread`, or an in-memory array.
protocol _ByteSource: AnyObject {
  /// The total size in bytes.
  var size: UInt64 { get }
  /// Reads up to `buffer.count` bytes at `offset`; fewer only at the end.
  func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

extension _ByteSource {
  /// Reads exactly `count` bytes at `offset`.
  /// - Throws: `BlobError.truncated(section:)` if the data ends first.
  func readExactly(at offset: UInt64, count: Int, section: BlobSection) throws -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    let got = try bytes.withUnsafeMutableBytes { try read(at: offset, into: $0) }
    guard got == count else { throw BlobError.truncated(section: section) }
    return bytes
  }
}

/// A file descriptor read with `pread`; never mapped, never read whole.
final class _FileSource: _ByteSource {
  let path: String
  let size: UInt64
  private let fd: Int32

  init(path: String) throws {
    let fd = try _Sys.openRead(path)
    do {
      self.size = try _Sys.fileSize(fd, path: path)
    } catch {
      _Sys.close(fd)
      throw error
    }
    self.fd = fd
    self.path = path
  }

  deinit {
    _Sys.close(fd)
  }

  func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    try _Sys.pread(fd, buffer, at: offset, path: path)
  }
}

/// Bytes held in memory (tests and small data).
final class _MemorySource: _ByteSource {
  private let bytes: [UInt8]

  init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  var size: UInt64 { UInt64(bytes.count) }

  func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    guard offset < UInt64(bytes.count), let target = buffer.baseAddress else { return 0 }
    let start = Int(offset)
    let count = min(buffer.count, bytes.count - start)
    bytes.withUnsafeBytes { source in
      if let base = source.baseAddress { target.copyMemory(from: base + start, byteCount: count) }
    }
    return count
  }
}

@available(*, unavailable)
extension _FileSource: Sendable {}

@available(*, unavailable)
extension _MemorySource: Sendable {}
