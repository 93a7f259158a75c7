#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An open file, pipe or terminal: the only way calldir reads and writes
/// bytes. Every call retries `EINTR` and reports failure as an ``Errno``;
/// writes never stop short.
///
///     let file = try FileDescriptor.open("list.txt", .readOnly)
///     defer { try? file.close() }
///     let count = try file.read(into: buffer)
public struct FileDescriptor: RawRepresentable, Hashable, Sendable {
  public let rawValue: CInt

  public init(rawValue: CInt) { self.rawValue = rawValue }

  public static let standardInput = FileDescriptor(rawValue: 0)
  public static let standardOutput = FileDescriptor(rawValue: 1)
  public static let standardError = FileDescriptor(rawValue: 2)

  /// How a file is opened.
  public enum AccessMode: Sendable {
    case readOnly, writeOnly, readWrite

    var flags: CInt {
      switch self {
      case .readOnly: O_RDONLY
      case .writeOnly: O_WRONLY
      case .readWrite: O_RDWR
      }
    }
  }

  /// Options of `open`; every descriptor is opened close-on-exec.
  public struct OpenOptions: OptionSet, Sendable {
    public let rawValue: CInt
    public init(rawValue: CInt) { self.rawValue = rawValue }

    public static let create = OpenOptions(rawValue: O_CREAT)
    /// With ``create``: fail when the file exists.
    public static let exclusiveCreate = OpenOptions(rawValue: O_CREAT | O_EXCL)
    public static let truncate = OpenOptions(rawValue: O_TRUNC)
    public static let append = OpenOptions(rawValue: O_APPEND)
    /// Fail on a symbolic link instead of following it.
    public static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
    /// Fail unless the path is a directory.
    public static let directory = OpenOptions(rawValue: O_DIRECTORY)
    /// Do not block on a FIFO without a writer, or a lock.
    public static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
  }

  /// Opens `path`. The corresponding C call is `open`.
  public static func open(
    _ path: String, _ mode: AccessMode, options: OpenOptions = [], permissions: mode_t = 0o644
  ) throws(FileError) -> FileDescriptor {
    let result = path.withCString { name in
      valueOrErrno { system_open(name, mode.flags | options.rawValue | O_CLOEXEC, permissions) }
    }
    switch result {
    case .success(let fd): return FileDescriptor(rawValue: fd)
    case .failure(let code): throw FileError(operation: "open", path: path, errno: code)
    }
  }

  /// Reads up to `buffer.count` bytes; 0 at the end. The corresponding C
  /// call is `read`.
  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
    guard buffer.count > 0 else { return 0 }
    return try valueOrErrno { system_read(rawValue, buffer.baseAddress, buffer.count) }.get()
  }

  /// Reads up to `buffer.count` bytes at `offset`, as many as there are
  /// (fewer only at the end of the file). The corresponding C call is `pread`.
  public func read(fromAbsoluteOffset offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
    guard let base = buffer.baseAddress, buffer.count > 0, offset >= 0 else { return 0 }
    var done = 0
    while done < buffer.count {
      let (position, overflow) = offset.addingReportingOverflow(Int64(done))
      if overflow { break }
      let got = try valueOrErrno { system_pread(rawValue, base + done, buffer.count - done, off_t(position)) }.get()
      if got == 0 { break }
      done += got
    }
    return done
  }

  /// Writes every byte, however many calls it takes, waiting when a
  /// non-blocking descriptor is full. The corresponding C call is `write`.
  public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
    guard let base = bytes.baseAddress else { return }
    var done = 0
    while done < bytes.count {
      switch valueOrErrno({ system_write(rawValue, base + done, bytes.count - done) }) {
      case .success(let put):
        guard put > 0 else { throw Errno.ioError }
        done += put
      case .failure(let code) where code == .wouldBlock:
        _ = valueOrErrno { system_poll(rawValue, events: Int16(POLLOUT), timeoutMilliseconds: -1) }
      case .failure(let code):
        throw code
      }
    }
  }

  /// Whether reading would not block now (data is there, or the end).
  public var hasInputReady: Bool {
    system_poll(rawValue, events: Int16(POLLIN), timeoutMilliseconds: 0) > 0
  }

  /// Writes every byte of `bytes`.
  public func writeAll(_ bytes: [UInt8]) throws(Errno) {
    try bytes.withUnsafeBytes { buffer in Result { () throws(Errno) in try writeAll(buffer) } }.get()
  }

  /// Writes every byte at `offset`. The corresponding C call is `pwrite`.
  public func writeAll(toAbsoluteOffset offset: Int64, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
    guard let base = bytes.baseAddress else { return }
    var done = 0
    while done < bytes.count {
      let put = try valueOrErrno {
        system_pwrite(rawValue, base + done, bytes.count - done, off_t(offset + Int64(done)))
      }.get()
      guard put > 0 else { throw Errno.ioError }
      done += put
    }
  }

  /// Makes what was written durable: `fsync`, or `F_FULLFSYNC` on Darwin.
  public func sync() throws(Errno) {
    _ = try valueOrErrno { system_fsync(rawValue) }.get()
  }

  /// Starts writing what was written back to the disk, without waiting
  /// (Linux; elsewhere nothing): ``sync()`` later waits for less.
  public func startWriteback() {
    system_startWriteback(rawValue)
  }

  /// What `fstat` says.
  public func status() throws(Errno) -> FileStatus {
    var info = stat()
    _ = try valueOrErrno { system_fstat(rawValue, &info) }.get()
    return FileStatus(info)
  }

  /// Cuts or extends the file. The corresponding C call is `ftruncate`.
  public func resize(to length: Int64) throws(Errno) {
    _ = try valueOrErrno { system_ftruncate(rawValue, off_t(length)) }.get()
  }

  /// Takes an exclusive (or shared) advisory lock on the whole file;
  /// returns false when `wait` is false and another holder has it. The
  /// corresponding C call is `flock`.
  public func lock(exclusive: Bool = true, wait: Bool = true) throws(Errno) -> Bool {
    let operation = (exclusive ? LOCK_EX : LOCK_SH) | (wait ? 0 : LOCK_NB)
    switch valueOrErrno({ system_flock(rawValue, operation) }) {
    case .success: return true
    case .failure(let code) where !wait && (code == .lockHeld || code == .wouldBlock): return false
    case .failure(let code): throw code
    }
  }

  /// Closes the descriptor (once; it is released even when this throws).
  public func close() throws(Errno) {
    // EINTR must not be retried: the descriptor is gone either way.
    _ = try valueOrErrno(retryOnInterrupt: false) { system_close(rawValue) }.get()
  }

  /// Runs `body`, then closes the descriptor, ignoring a close error (for
  /// reading; a written file is closed with ``close()`` after ``sync()``).
  public func closeAfter<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    defer { try? close() }
    return try body()
  }

  /// Whether it is a terminal.
  public var isTerminal: Bool { isatty(rawValue) == 1 }
}
