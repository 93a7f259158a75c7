#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes read front to back: a file descriptor or an in-memory array.
protocol _SequentialInput: AnyObject {
  /// Reads up to `buffer.count` bytes; 0 means the end.
  func read(into buffer: UnsafeMutableRawBufferPointer) throws(ValidationError) -> Int
}

/// Bytes read at any offset: a file descriptor or an in-memory array.
protocol _RandomAccessInput: AnyObject {
  /// Reads up to `buffer.count` bytes at `offset`; fewer only at the end.
  func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws(ValidationError) -> Int
}

/// An open file, read with `read(2)` or `pread(2)`; closed on deinit.
final class _FileInput: _SequentialInput, _RandomAccessInput {
  let path: String
  private let descriptor: Int32

  /// Opens `path` read-only.
  /// - Throws: ``ValidationError/cannotOpen(path:errno:)``.
  init(path: String) throws(ValidationError) {
    var descriptor: Int32
    repeat {
      descriptor = open(path, O_RDONLY | O_CLOEXEC)
    } while descriptor < 0 && errno == EINTR
    guard descriptor >= 0 else { throw .cannotOpen(path: path, errno: errno) }
    self.descriptor = descriptor
    self.path = path
  }

  deinit {
    close(descriptor)
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws(ValidationError) -> Int {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    while true {
      let got = _posixRead(descriptor, base, buffer.count)
      if got >= 0 { return got }
      if errno == EINTR { continue }
      throw .readFailed(path: path, errno: errno)
    }
  }

  func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws(ValidationError) -> Int {
    guard let base = buffer.baseAddress else { return 0 }
    var done = 0
    while done < buffer.count {
      let position = offset &+ UInt64(done)
      guard position <= UInt64(Int64.max) else { break }
      let got = _posixPread(descriptor, base + done, buffer.count - done, off_t(Int64(position)))
      if got > 0 {
        done += got
      } else if got == 0 {
        break
      } else if errno != EINTR {
        throw .readFailed(path: path, errno: errno)
      }
    }
    return done
  }
}

/// Bytes held in memory (tests and small inputs); reads at most
/// `chunkLimit` bytes per call so tests can exercise chunk boundaries.
final class _MemoryInput: _SequentialInput, _RandomAccessInput {
  private let bytes: [UInt8]
  private let chunkLimit: Int
  private var position = 0

  init(bytes: [UInt8], chunkLimit: Int = .max) {
    self.bytes = bytes
    self.chunkLimit = max(1, chunkLimit)
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws(ValidationError) -> Int {
    let count = min(buffer.count, bytes.count - position, chunkLimit)
    copy(from: position, count: count, into: buffer)
    position += count
    return count
  }

  func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws(ValidationError) -> Int {
    guard offset < UInt64(bytes.count) else { return 0 }
    let start = Int(offset)
    let count = min(buffer.count, bytes.count - start)
    copy(from: start, count: count, into: buffer)
    return count
  }

  private func copy(from start: Int, count: Int, into buffer: UnsafeMutableRawBufferPointer) {
    guard count > 0, let target = buffer.baseAddress else { return }
    bytes.withUnsafeBytes { source in
      if let base = source.baseAddress { target.copyMemory(from: base + start, byteCount: count) }
    }
  }
}

@available(*, unavailable)
extension _FileInput: Sendable {}

@available(*, unavailable)
extension _MemoryInput: Sendable {}

/// `read(2)`, named apart from the methods that would shadow it.
private func _posixRead(_ descriptor: Int32, _ base: UnsafeMutableRawPointer, _ count: Int) -> Int {
  read(descriptor, base, count)
}

/// `pread(2)`, named apart from the methods that would shadow it.
private func _posixPread(
  _ descriptor: Int32, _ base: UnsafeMutableRawPointer, _ count: Int, _ offset: off_t
) -> Int {
  pread(descriptor, base, count, offset)
}
