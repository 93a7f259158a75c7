#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call or a malformed file, with a lowercase message.
struct _SystemError: Error, CustomStringConvertible {
  let description: String

  init(_ message: String) {
    self.description = message
  }

  /// Describes the current `errno` for an operation on a path.
  static func errno(_ operation: String, _ path: String, code: Int32 = _currentErrno()) -> _SystemError {
    let text = String(cString: strerror(code)).lowercased()
    return _SystemError("\(operation) failed for \(path): \(text) (errno \(code))")
  }
}

/// The calling thread's `errno`.
func _currentErrno() -> Int32 {
  #if canImport(Glibc)
  return Glibc.errno
  #else
  return Darwin.errno
  #endif
}

/// Closes a descriptor (a seam for types that have their own `close()`).
@discardableResult
func _closeDescriptor(_ fd: Int32) -> Int32 {
  close(fd)
}
