import CalldirSystem

#if canImport(Glibc)
  import Glibc
#endif

/// A buffered ``OutputSink`` that writes to a file descriptor with `write(2)`.
///
/// Output is collected in a fixed byte buffer and written when it fills, on
/// ``flush()``, and when the sink is deallocated. Writes are retried on
/// `EINTR` and partial writes. When the reader closes the pipe (`EPIPE`) the
/// sink quietly stops writing and ``isWritable`` becomes `false`; any other
/// failure is remembered and thrown by the next ``flush()``.
///
/// The sink does not close the descriptor. It is not thread-safe.
public final class FileDescriptorSink: OutputSink {
  /// The descriptor written to.
  public let fileDescriptor: Int32
  /// Whether the descriptor is a terminal, checked once at creation.
  public let isTerminal: Bool
  /// Whether every write call is followed by a flush (for standard error).
  public let flushesEveryWrite: Bool

  private let buffer: UnsafeMutableRawBufferPointer
  private var count = 0
  private var isBroken = false
  private var failure: OutputError?

  /// Creates a sink.
  ///
  /// - Parameters:
  ///   - fileDescriptor: An open descriptor; it is not closed by the sink.
  ///   - bufferCapacity: The size of the byte buffer.
  ///   - flushesEveryWrite: Whether to write out after each call, for unbuffered streams.
  public init(fileDescriptor: Int32, bufferCapacity: Int = 1 << 18, flushesEveryWrite: Bool = false) {
    self.fileDescriptor = fileDescriptor
    self.isTerminal = FileDescriptor(rawValue: fileDescriptor).isTerminal
    self.flushesEveryWrite = flushesEveryWrite
    self.buffer = .allocate(byteCount: max(bufferCapacity, 64), alignment: 1)
  }

  deinit {
    drain()
    buffer.deallocate()
  }

  /// A buffered sink for file descriptor 1.
  public static func standardOutput() -> FileDescriptorSink {
    FileDescriptorSink(fileDescriptor: 1)
  }

  /// A sink for file descriptor 2 that writes out after every call.
  public static func standardError() -> FileDescriptorSink {
    FileDescriptorSink(fileDescriptor: 2, bufferCapacity: 4096, flushesEveryWrite: true)
  }

  /// The terminal's width (`TIOCGWINSZ`), or `nil` when the descriptor is
  /// not a terminal or does not say.
  public var columns: Int? {
    guard isTerminal else { return nil }
    #if canImport(Glibc)
      var size = winsize()
      guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
      return Int(size.ws_col)
    #else
      return nil
    #endif
  }

  /// `false` once a write failed or the reader closed the pipe.
  public var isWritable: Bool { !isBroken && failure == nil }

  /// Appends the UTF-8 encoding of `string`, hidden characters escaped
  /// (``ShownText/laidOut(_:)``).
  public func write(_ string: String) {
    if let shown = ShownText.laidOut(string) {
      var copy = shown
      copy.withUTF8 { append(UnsafeRawBufferPointer($0)) }
      if flushesEveryWrite { drain() }
      return
    }
    let done: Void? = string.utf8.withContiguousStorageIfAvailable { utf8 in
      append(UnsafeRawBufferPointer(utf8))
    }
    if done == nil {
      var copy = string
      copy.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }
    if flushesEveryWrite { drain() }
  }

  /// Appends raw bytes.
  public func write(bytes: UnsafeRawBufferPointer) {
    append(bytes)
    if flushesEveryWrite { drain() }
  }

  /// Writes out the buffer.
  ///
  /// - Throws: ``OutputError/writeFailed(fileDescriptor:errno:)`` for the
  ///   first failed write since creation. A closed pipe is not an error.
  public func flush() throws(OutputError) {
    drain()
    if let failure { throw failure }
  }

  private func append(_ bytes: UnsafeRawBufferPointer) {
    guard isWritable, let source = bytes.baseAddress, !bytes.isEmpty else { return }
    if bytes.count > buffer.count - count {
      drain()
      if bytes.count >= buffer.count {
        emit(bytes)
        return
      }
    }
    guard let destination = buffer.baseAddress else { return }
    (destination + count).copyMemory(from: source, byteCount: bytes.count)
    count += bytes.count
  }

  private func drain() {
    guard count > 0 else { return }
    emit(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    count = 0
  }

  private func emit(_ bytes: UnsafeRawBufferPointer) {
    guard isWritable else { return }
    do {
      try FileDescriptor(rawValue: fileDescriptor).writeAll(bytes)
    } catch where error == .brokenPipe {
      isBroken = true
    } catch {
      failure = .writeFailed(fileDescriptor: fileDescriptor, errno: error.rawValue)
    }
  }
}

@available(*, unavailable)
extension FileDescriptorSink: Sendable {}
