#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import CalldirSystem

extension FileDescriptor {
  /// A new pipe; both ends are close-on-exec. The corresponding C call is
  /// `pipe2` (`pipe` where there is none).
  public static func pipe() throws(Errno) -> (readEnd: FileDescriptor, writeEnd: FileDescriptor) {
    var descriptors: (CInt, CInt) = (-1, -1)
    _ = try withUnsafeMutablePointer(to: &descriptors) { pair in
      pair.withMemoryRebound(to: CInt.self, capacity: 2) { base in valueOrErrno { system_pipe(base) } }
    }.get()
    return (FileDescriptor(rawValue: descriptors.0), FileDescriptor(rawValue: descriptors.1))
  }

  /// A close-on-exec duplicate whose number is at least `minimum` (so that
  /// a child's `dup2` onto low numbers cannot clobber it). The
  /// corresponding C call is `fcntl(F_DUPFD_CLOEXEC)`.
  public func duplicate(atLeast minimum: CInt) throws(Errno) -> FileDescriptor {
    FileDescriptor(rawValue: try valueOrErrno { system_duplicate(rawValue, atLeast: minimum) }.get())
  }

  /// Waits until the descriptor can be read without blocking (bytes, the
  /// end of a pipe, or an error are waiting), at most `milliseconds`.
  /// Returns whether it can. The corresponding C call is `poll`.
  public func waitUntilReadable(timeoutMilliseconds milliseconds: Int) throws(Errno) -> Bool {
    var entry = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
    let ready = try valueOrErrno { system_poll(&entry, 1, CInt(clamping: milliseconds)) }.get()
    return ready > 0
  }
}
