#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The outcome of writing a whole buffer to a file descriptor.
enum _WriteOutcome: Equatable {
  case written
  case brokenPipe
  case failed(errno: Int32)
}

/// Writes all of `buffer` to `fd`, retrying on `EINTR`, partial writes and `EAGAIN`.
///
/// The corresponding C call is `write(2)`.
func _writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> _WriteOutcome {
  guard var pointer = buffer.baseAddress else { return .written }
  var remaining = buffer.count
  while remaining > 0 {
    let written = write(fd, pointer, remaining)
    if written >= 0 {
      pointer += written
      remaining -= written
      continue
    }
    let code = errno
    switch code {
    case EINTR:
      continue
    case EAGAIN, EWOULDBLOCK:
      var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
      _ = poll(&entry, 1, -1)
    case EPIPE:
      return .brokenPipe
    default:
      return .failed(errno: code)
    }
  }
  return .written
}

/// Whether `fd` refers to a terminal. The corresponding C call is `isatty(3)`.
func _isTerminal(_ fd: Int32) -> Bool {
  isatty(fd) != 0
}

/// The system's text for an `errno` value, lowercased at the first letter.
func _errorString(_ code: Int32) -> String {
  guard let text = strerror(code) else { return "error \(code)" }
  let message = String(cString: text)
  return message.prefix(1).lowercased() + message.dropFirst()
}

/// Makes writes to a closed pipe fail with `EPIPE` instead of killing the process.
func _ignoreBrokenPipeSignal() {
  _ = signal(SIGPIPE, SIG_IGN)
}

/// Ends the process with `code`. The corresponding C call is `exit(3)`.
func _exitProcess(_ code: Int32) -> Never {
  exit(code)
}
