#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// The one place calldir calls the system for files, pipes and locks. In a
// build with fault injection (`CALLDIR_FAULTS`: debug builds) each wrapper
// consults ``FaultInjection`` first, so tests can make any of them fail; in
// a release build `injected` is nil and each wrapper is the bare C call.
// Everything else in the package goes through ``FileDescriptor``,
// ``FileSystem`` and ``AtomicFile``, which are built on these.

@inline(__always)
private func injected(_ call: FaultInjection.Call) -> FaultInjection.Fault? {
  #if CALLDIR_FAULTS
    guard FaultInjection.isActive else { return nil }
    return FaultInjection.fault(for: call)
  #else
    return nil
  #endif
}

@inline(__always)
private func failing(_ errno: Errno) -> CInt {
  setErrno(errno.rawValue)
  return -1
}

private func setErrno(_ value: CInt) {
  errno = value
}

func system_open(_ path: UnsafePointer<CChar>, _ flags: CInt, _ mode: mode_t) -> CInt {
  if case .fail(let code)? = injected(.open) { return failing(code) }
  return open(path, flags, mode)
}

func system_read(_ fd: CInt, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  switch injected(.read) {
  case .fail(let code)?: return Int(failing(code))
  case .short?: return read(fd, buffer, max(1, count / 2))
  case nil, .crash?: return read(fd, buffer, count)
  }
}

func system_pread(_ fd: CInt, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ offset: off_t) -> Int {
  switch injected(.read) {
  case .fail(let code)?: return Int(failing(code))
  case .short?: return pread(fd, buffer, max(1, count / 2), offset)
  case nil, .crash?: return pread(fd, buffer, count, offset)
  }
}

func system_write(_ fd: CInt, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  switch injected(.write) {
  case .fail(let code)?: return Int(failing(code))
  case .short?: return write(fd, buffer, max(1, count / 2))
  case nil, .crash?: return write(fd, buffer, count)
  }
}

func system_pwrite(_ fd: CInt, _ buffer: UnsafeRawPointer?, _ count: Int, _ offset: off_t) -> Int {
  switch injected(.write) {
  case .fail(let code)?: return Int(failing(code))
  case .short?: return pwrite(fd, buffer, max(1, count / 2), offset)
  case nil, .crash?: return pwrite(fd, buffer, count, offset)
  }
}

/// `fsync`, or on Darwin `fcntl(F_FULLFSYNC)` (which also flushes the
/// drive's cache), falling back to `fsync` where that is not supported.
func system_fsync(_ fd: CInt) -> CInt {
  if case .fail(let code)? = injected(.fsync) { return failing(code) }
  #if canImport(Darwin)
    if fcntl(fd, F_FULLFSYNC) == 0 { return 0 }
  #endif
  return fsync(fd)
}

/// Starts writing the file's dirty pages back without waiting for them
/// (`sync_file_range` on Linux; nothing elsewhere): a later sync then has
/// less to wait for. Only advice, so it is not a fault-injection point.
func system_startWriteback(_ fd: CInt) {
  #if os(Linux)
    // SYNC_FILE_RANGE_WRITE: start writing every dirty page out.
    _ = _syncFileRange?(fd, 0, 0, 2)
  #endif
}

#if os(Linux)
  /// glibc's `sync_file_range`, which its headers declare only for
  /// `_GNU_SOURCE` (so Swift does not see it); nil if it is missing.
  private let _syncFileRange: (@convention(c) (CInt, Int64, Int64, UInt32) -> CInt)? = {
    // RTLD_DEFAULT: the global scope of the process.
    guard let symbol = dlsym(nil, "sync_file_range") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (CInt, Int64, Int64, UInt32) -> CInt).self)
  }()
#endif

func system_close(_ fd: CInt) -> CInt {
  if case .fail(let code)? = injected(.close) {
    // The descriptor is released anyway, as close(2) does on error.
    _ = close(fd)
    return failing(code)
  }
  return close(fd)
}

func system_rename(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>) -> CInt {
  if case .fail(let code)? = injected(.rename) { return failing(code) }
  return rename(from, to)
}

func system_link(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>) -> CInt {
  if case .fail(let code)? = injected(.link) { return failing(code) }
  return link(from, to)
}

func system_unlink(_ path: UnsafePointer<CChar>) -> CInt {
  if case .fail(let code)? = injected(.unlink) { return failing(code) }
  return unlink(path)
}

func system_rmdir(_ path: UnsafePointer<CChar>) -> CInt {
  if case .fail(let code)? = injected(.unlink) { return failing(code) }
  return rmdir(path)
}

func system_mkdir(_ path: UnsafePointer<CChar>, _ mode: mode_t) -> CInt {
  if case .fail(let code)? = injected(.mkdir) { return failing(code) }
  return mkdir(path, mode)
}

func system_ftruncate(_ fd: CInt, _ length: off_t) -> CInt {
  if case .fail(let code)? = injected(.ftruncate) { return failing(code) }
  return ftruncate(fd, length)
}

func system_flock(_ fd: CInt, _ operation: CInt) -> CInt {
  if case .fail(let code)? = injected(.flock) { return failing(code) }
  return flock(fd, operation)
}

func system_fstat(_ fd: CInt, _ status: UnsafeMutablePointer<stat>) -> CInt {
  if case .fail(let code)? = injected(.stat) { return failing(code) }
  return fstat(fd, status)
}

func system_stat(_ path: UnsafePointer<CChar>, _ status: UnsafeMutablePointer<stat>, followingLinks: Bool) -> CInt {
  if case .fail(let code)? = injected(.stat) { return failing(code) }
  return followingLinks ? stat(path, status) : lstat(path, status)
}

func system_poll(_ descriptor: CInt, events: Int16, timeoutMilliseconds: CInt) -> CInt {
  var entry = pollfd(fd: descriptor, events: events, revents: 0)
  return poll(&entry, 1, timeoutMilliseconds)
}

/// Runs `body` until it does not fail with `EINTR`; returns its value, or
/// the errno of a failure (`-1` results).
@inline(__always)
package func valueOrErrno<I: FixedWidthInteger>(retryOnInterrupt: Bool = true, _ body: () -> I) -> Result<I, Errno> {
  while true {
    let value = body()
    if value != -1 { return .success(value) }
    let code = Errno.current
    if retryOnInterrupt && code == .interrupted { continue }
    return .failure(code)
  }
}
