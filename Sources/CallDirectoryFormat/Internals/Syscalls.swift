#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A lowercase description of an `errno` value.
func _errnoDescription(_ code: Int32) -> String {
  guard let text = strerror(code) else { return "errno \(code)" }
  return "\(String(cString: text).lowercased()) (errno \(code))"
}

/// Thin, retrying wrappers over the few POSIX calls the format needs.
enum _Sys {
  static func openRead(_ path: String) throws -> Int32 {
    while true {
      let fd = open(path, O_RDONLY | O_CLOEXEC)
      if fd >= 0 { return fd }
      let code = _currentErrno()
      if code == EINTR { continue }
      throw BlobError.io(operation: "open", path: path, errno: code)
    }
  }

  static func fileSize(_ fd: Int32, path: String) throws -> UInt64 {
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      throw BlobError.io(operation: "fstat", path: path, errno: _currentErrno())
    }
    return UInt64(max(0, Int64(info.st_size)))
  }

  /// Reads up to `buffer.count` bytes at `offset`; fewer only at end of file.
  static func pread(
    _ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, at offset: UInt64,
    path: String
  ) throws -> Int {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    var done = 0
    while done < buffer.count {
      let position = offset &+ UInt64(done)
      guard position <= UInt64(Int64.max) else { break }
      let got = _posixPread(
        fd, base + done, buffer.count - done, off_t(Int64(position)))
      if got > 0 {
        done += got
      } else if got == 0 {
        break
      } else {
        let code = _currentErrno()
        if code == EINTR { continue }
        throw BlobError.io(operation: "read", path: path, errno: code)
      }
    }
    return done
  }

  static func writeAll(
    _ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String
  ) throws {
    guard let base = bytes.baseAddress else { return }
    var done = 0
    while done < bytes.count {
      let put = write(fd, base + done, bytes.count - done)
      if put > 0 {
        done += put
      } else {
        let code = _currentErrno()
        if put < 0 && code == EINTR { continue }
        throw BlobError.io(operation: "write", path: path, errno: code)
      }
    }
  }

  static func pwriteAll(
    _ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: UInt64,
    path: String
  ) throws {
    guard let base = bytes.baseAddress else { return }
    var done = 0
    while done < bytes.count {
      let position = off_t(Int64(offset) + Int64(done))
      let put = _posixPwrite(fd, base + done, bytes.count - done, position)
      if put > 0 {
        done += put
      } else {
        let code = _currentErrno()
        if put < 0 && code == EINTR { continue }
        throw BlobError.io(operation: "write", path: path, errno: code)
      }
    }
  }

  static func fsync(_ fd: Int32, path: String) throws {
    while _posixFsync(fd) != 0 {
      let code = _currentErrno()
      if code == EINTR { continue }
      throw BlobError.io(operation: "fsync", path: path, errno: code)
    }
  }

  static func close(_ fd: Int32) {
    _ = _posixClose(fd)
  }
}

// Unqualified names that the wrappers above shadow.
private func _posixPread(
  _ fd: Int32, _ buf: UnsafeMutableRawPointer, _ count: Int, _ offset: off_t
) -> Int {
  pread(fd, buf, count, offset)
}

private func _posixPwrite(
  _ fd: Int32, _ buf: UnsafeRawPointer, _ count: Int, _ offset: off_t
) -> Int {
  pwrite(fd, buf, count, offset)
}

private func _posixFsync(_ fd: Int32) -> Int32 { fsync(fd) }

private func _posixClose(_ fd: Int32) -> Int32 { close(fd) }

private func _currentErrno() -> Int32 { errno }
